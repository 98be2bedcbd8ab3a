//! What the online diagram shows and keeps between frames: the instance, the view (pan, zoom),
//! the laid-out bodies (a large one laid out off the UI thread), the signal ids of what is
//! shown, and the paths of its nets. The drawing itself is `view.rs`: the panel is this
//! struct, lent a `DiagramCtx` (the scan image, the project) each frame; its menu actions go
//! back to the application, which carries them out.

pub(crate) mod export;
pub(crate) mod ladder;
pub(crate) mod layout_job;
pub(crate) mod menu;
pub(crate) mod sheets;
pub(crate) mod st;
pub(crate) mod view;

use std::collections::HashMap;
use std::rc::Rc;

use eframe::egui::{Pos2, Rect, Vec2};
use fbd_engine::Value;
use fbd_layout::{Body, Layout, Source};

use std::sync::Arc;

use fbd_engine::ScanImage;
use fbd_engine::load::Project;

/// Signal ids of the shown instance: its path, per node the outputs' ids, the input ports' ids.
/// Per node, the signal of each output pin; and the signal of each input port.
pub(crate) type SignalIds = (Vec<Vec<Option<usize>>>, Vec<Option<usize>>);
type ShownIds = (String, Vec<Vec<Option<usize>>>, Vec<Option<usize>>);

/// What the diagram view keeps between frames.
#[derive(Default)]
pub struct DiagramState {
    /// The instance whose body is shown ("" for the program's top level).
    pub(crate) instance: String,
    pub(crate) pan: Vec2,
    pub(crate) zoom: f32,
    pub(crate) fit: bool,
    pub(crate) fit_hold: crate::canvas::FitHold,
    pub(crate) search: String,
    pub(crate) show_order: bool,
    /// Laid-out bodies by macro name ("" for the program), until another program is loaded.
    pub(crate) cache: HashMap<String, Rc<(Body, Layout)>>,
    /// A large body being laid out on its own thread.
    pub(crate) job: Option<crate::diagram::layout_job::LayoutJob>,
    /// Signal ids for the shown instance: per node its outputs, and the body's input ports.
    pub(crate) ids: Option<ShownIds>,
    pub(crate) message: String,
    /// The canvas's size in the last frame (to centre a found block).
    pub(crate) canvas: Vec2,
    /// The block whose context menu is open.
    pub(crate) menu_block: Option<usize>,
    /// The body input port whose context menu is open (instead of a block's).
    pub(crate) menu_port: Option<usize>,
    /// The number typed in the context menu (to write, force or break at).
    pub(crate) menu_value: String,
    /// Lay bodies out afresh instead of keeping the blocks' stored positions.
    pub(crate) auto_layout: bool,
    /// Every net drawn as a wire: long nets are not turned into connector pairs.
    pub(crate) wires_only: bool,
    /// The connector label Find found: its tags are drawn marked.
    pub(crate) found_connector: Option<String>,
    /// The page shown of a body drawn on pages (from 0), unless `whole` shows all of it.
    pub(crate) page: usize,
    pub(crate) whole: bool,
    /// The sheet Fit shows (from 0) of a drawing larger than the view at full-size text, as a
    /// printed page is read sheet by sheet, unless `unsheeted` fits the whole drawing.
    pub(crate) sheet: usize,
    pub(crate) unsheeted: bool,
    /// The shown drawing cut into sheets of the view's size: for which layout (its address)
    /// and view.
    pub(crate) sheets: Option<(usize, Vec2, fbd_layout::sheets::Sheets)>,
    /// A search to run again on the page it switched to.
    pub(crate) refind: Option<String>,
    /// Where each body opened before was left (page, whole, sheet, unsheeted), by instance
    /// path ("" for the program), until another program is loaded.
    pub(crate) left_at: HashMap<String, (usize, bool, usize, bool)>,
    /// The found connector whose pages the message names already.
    pub(crate) cross_ref_for: Option<String>,
    /// The size of block types and connector names in the last frame (`None`: too small to be
    /// drawn, only boxes and wires are).
    pub(crate) text_px: Option<f32>,
    /// Screen position of the drawing's origin and the zoom in the last frame.
    pub(crate) origin: Pos2,
    pub(crate) canvas_min: Pos2,
    /// The shown ladder body's drawing, by macro name ("" the program's).
    pub(crate) ladder_cache: Option<(String, Rc<fbd_layout::ladder::LadderDrawing>)>,
    /// The ladder element whose context menu is open.
    pub(crate) ladder_menu: Option<usize>,
    /// A Find asked in the ladder view (run in the next drawing), and the elements it found.
    pub(crate) ladder_find: Option<String>,
    pub(crate) ladder_found: Vec<usize>,
}

/// What the diagram is lent for one frame: the newest scan image and the loaded project (the
/// bodies it draws).
pub(crate) struct DiagramCtx<'a> {
    pub img: &'a Arc<ScanImage>,
    pub project: &'a Project,
}

impl DiagramState {
    /// Forgets the layouts and signal ids of the previous program.
    pub(crate) fn reset(&mut self) {
        self.cache.clear();
        self.ladder_cache = None;
        self.ladder_menu = None;
        self.ladder_found.clear();
        self.job = None;
        self.ids = None;
        self.fit = true;
    }

    /// Another program is shown: what was typed, found and said about the previous one goes
    /// (its Find text and message stayed, naming blocks the new program does not have).
    pub(crate) fn another_program(&mut self) {
        self.reset();
        self.search.clear();
        self.message.clear();
        self.found_connector = None;
        self.refind = None;
        self.cross_ref_for = None;
        self.menu_value.clear();
        self.instance.clear();
        self.left_at.clear();
        self.page = 0;
        self.sheet = 0;
    }
}

impl DiagramState {
    /// The macro shown for the current instance ("" for the top level), if the instance exists.
    pub(crate) fn macro_shown(&self, img: &ScanImage) -> Option<String> {
        let inst = &self.instance;
        if inst.is_empty() {
            return Some(String::new());
        }
        img.plan.instances.iter().find(|i| &i.path == inst).map(|i| i.macro_name.clone())
    }

    /// The breadcrumb of the shown instance (`program › proc_2 › cmp`): the instance a click on
    /// one of its links opens ("" the program), if one was clicked.
    pub(crate) fn breadcrumb(&self, ui: &mut eframe::egui::Ui) -> Option<String> {
        let mut open = None;
        if ui.link("program").clicked() {
            open = Some(String::new());
        }
        let mut acc = String::new();
        for part in self.instance.split('/').filter(|p| !p.is_empty()) {
            if !acc.is_empty() {
                acc.push('/');
            }
            acc.push_str(part);
            ui.label("›");
            if ui.link(part).clicked() {
                open = Some(acc.clone());
            }
        }
        open
    }

    /// The description of the body shown: the program's, or the macro's of the shown instance.
    pub(crate) fn description(&self, cx: &DiagramCtx<'_>) -> Option<String> {
        let mac = self.macro_shown(cx.img)?;
        let project = cx.project;
        let d = if mac.is_empty() {
            project.root().description.clone()
        } else {
            project.macro_def(&mac).and_then(|(_, _, m)| m.description.clone())
        };
        d.filter(|t| !t.trim().is_empty())
    }

    /// Opens the body of instance `path` ("" for the top level). Returns false if there is none.
    /// A body opened before comes back at the page and sheet it was left at (the breadcrumb
    /// back to the program opened its page 1, not the page one came from).
    pub(crate) fn open(&mut self, path: &str, img: &ScanImage) -> bool {
        let old = std::mem::replace(&mut self.instance, path.to_string());
        if self.macro_shown(img).is_none() {
            self.instance = old;
            return false;
        }
        self.left_at.insert(old, (self.page, self.whole, self.sheet, self.unsheeted));
        (self.page, self.whole, self.sheet, self.unsheeted) =
            self.left_at.get(path).copied().unwrap_or((0, false, 0, false));
        self.ids = None;
        self.fit = true;
        true
    }

    /// The pages of the body shown (title and blocks), empty for a body without pages.
    pub(crate) fn pages(&self, cx: &DiagramCtx<'_>) -> Vec<(String, Vec<usize>)> {
        let Some(mac) = self.macro_shown(cx.img) else { return Vec::new() };
        fbd_layout::from_model::pages(cx.project, (!mac.is_empty()).then_some(mac.as_str()))
    }

    /// The pages of the body shown with the ids of their blocks.
    pub(crate) fn page_ids(&self, cx: &DiagramCtx<'_>) -> Vec<(String, Vec<String>)> {
        let Some(mac) = self.macro_shown(cx.img) else { return Vec::new() };
        let blocks = if mac.is_empty() {
            &cx.project.root().blocks
        } else {
            match cx.project.macro_def(&mac) {
                Some((_, _, m)) => &m.blocks,
                None => return Vec::new(),
            }
        };
        self.pages(cx)
            .into_iter()
            .map(|(title, nodes)| (title, nodes.iter().map(|&i| blocks[i].id.clone()).collect()))
            .collect()
    }

    /// The pages (by number and title) with a block that reads `signal` (`block.pin` or an input
    /// of the body shown), directly or through a connector.
    pub(crate) fn pages_reading(
        &self,
        cx: &DiagramCtx<'_>,
        signal: &str,
        pages: &[(String, Vec<String>)],
    ) -> Vec<String> {
        use fbd_engine::model::Wire;
        let Some(mac) = self.macro_shown(cx.img) else { return Vec::new() };
        let (blocks, connectors) = if mac.is_empty() {
            (&cx.project.root().blocks, &cx.project.root().connectors)
        } else {
            match cx.project.macro_def(&mac) {
                Some((_, _, m)) => (&m.blocks, &m.connectors),
                None => return Vec::new(),
            }
        };
        let named: Vec<&str> = connectors
            .iter()
            .filter(|c| matches!(&c.from, Wire::Ref(r) if r == signal))
            .map(|c| c.name.as_str())
            .collect();
        let reads = |w: &Wire| match w {
            Wire::Ref(r) | Wire::Feedback { from: r, .. } => r == signal,
            Wire::Connector(n) => named.contains(&n.as_str()),
            Wire::Const(_) => false,
        };
        let readers: Vec<&str> =
            blocks.iter().filter(|b| b.inputs.0.iter().any(|(_, w)| reads(w))).map(|b| b.id.as_str()).collect();
        pages
            .iter()
            .enumerate()
            .filter(|(_, (_, ids))| ids.iter().any(|id| readers.contains(&id.as_str())))
            .map(|(k, (title, _))| format!("page {} {title}", k + 1))
            .collect()
    }

    /// Shows page `k` of the body (`None`: the whole body).
    pub fn show_page(&mut self, k: Option<usize>) {
        self.whole = k.is_none();
        self.page = k.unwrap_or(0);
        // A page opens at its first sheet; the whole body, an overview, whole.
        self.sheet = 0;
        self.unsheeted = k.is_none();
        self.ids = None;
        self.fit = true;
    }

    /// The laid-out body of the shown instance; `None` also while a large one is being laid
    /// out (`job`).
    pub(crate) fn body(&mut self, cx: &DiagramCtx<'_>) -> Option<Rc<(Body, Layout)>> {
        use crate::diagram::layout_job::{BACKGROUND_FROM, LayoutJob};
        let mac = self.macro_shown(cx.img)?;
        let pages = self.pages(cx);
        if !self.whole && !pages.is_empty() {
            return self.page_body(cx, &mac, &pages);
        }
        if let Some(b) = self.cache.get(&mac) {
            return Some(b.clone());
        }
        if let Some(job) = self.job.take_if(|j| j.key == mac) {
            return match job.poll() {
                Ok(Some(l)) => {
                    let rc = Rc::new((job.body, l));
                    self.cache.insert(mac, rc.clone());
                    Some(rc)
                }
                Ok(None) => {
                    self.job = Some(job);
                    None
                }
                Err(()) => {
                    self.message = "the layout of this body failed".into();
                    None
                }
            };
        }
        let name = (!mac.is_empty()).then_some(mac.as_str());
        let mut body = fbd_layout::from_model::body(cx.project, name).ok()?;
        let kept = (!self.auto_layout).then(|| fbd_layout::from_model::positions(cx.project, name));
        if body.nodes.len() >= BACKGROUND_FROM {
            match LayoutJob::start(mac.clone(), body, kept.clone(), !self.wires_only) {
                Ok(job) => {
                    self.job = Some(job);
                    return None;
                }
                Err(b) => body = b,
            }
        }
        let l = crate::diagram::layout_job::online_layout(&body, kept.as_deref(), !self.wires_only);
        let rc = Rc::new((body, l));
        self.cache.insert(mac, rc.clone());
        Some(rc)
    }

    /// The shown page of a body drawn on `pages`, laid out (cached by body and page).
    fn page_body(
        &mut self,
        cx: &DiagramCtx<'_>,
        mac: &str,
        pages: &[(String, Vec<usize>)],
    ) -> Option<Rc<(Body, Layout)>> {
        let k = self.page.min(pages.len() - 1);
        let key = format!("{mac}#page{k}");
        if let Some(b) = self.cache.get(&key) {
            return Some(b.clone());
        }
        let name = (!mac.is_empty()).then_some(mac);
        let whole = fbd_layout::from_model::body(cx.project, name).ok()?;
        let (page, back) = fbd_layout::page::page_body(&whole, &pages[k].1);
        let kept = (!self.auto_layout)
            .then(|| fbd_layout::page::page_positions(&fbd_layout::from_model::positions(cx.project, name), &back));
        let l = crate::diagram::layout_job::online_layout(&page, kept.as_deref(), !self.wires_only);
        let rc = Rc::new((page, l));
        self.cache.insert(key, rc.clone());
        Some(rc)
    }

    /// The signal of every output pin of the shown body (per node) and of every input port, in
    /// `plan` (`None` where a pin has no signal of its own).
    pub(crate) fn signal_ids(&self, body: &Body, plan: &fbd_engine::ScanPlan) -> SignalIds {
        let outs = (0..body.nodes.len())
            .map(|n| {
                let pins = 0..body.nodes[n].outputs.len();
                pins.map(|p| plan.signal_id(&self.net_path(body, Source::Out { node: n, pin: p }))).collect()
            })
            .collect();
        let ins = (0..body.inputs.len()).map(|k| plan.signal_id(&self.net_path(body, Source::Port(k)))).collect();
        (outs, ins)
    }

    pub(crate) fn net_path(&self, body: &Body, s: Source) -> String {
        let inst = &self.instance;
        match s {
            Source::Port(k) if inst.is_empty() => body.inputs[k].clone(),
            // Another page's `block.pin`: a signal inside the instance.
            Source::Port(k) if body.is_remote(s) => format!("{inst}/{}", body.inputs[k]),
            Source::Port(k) => format!("{inst}.{}", body.inputs[k]),
            Source::Out { node, pin } => {
                let prefix = if inst.is_empty() { String::new() } else { format!("{inst}/") };
                format!("{prefix}{}.{}", body.nodes[node].id, body.nodes[node].outputs[pin])
            }
        }
    }
}

/// The online diagram lent the newest scan image and the loaded program outside a frame (for
/// tests and tools that point at what was drawn).
pub struct Lent<'a> {
    pub(crate) panel: &'a mut DiagramState,
    pub(crate) img: Arc<ScanImage>,
    pub(crate) project: &'a Project,
}

impl std::ops::Deref for Lent<'_> {
    type Target = DiagramState;
    fn deref(&self) -> &DiagramState {
        self.panel
    }
}

impl std::ops::DerefMut for Lent<'_> {
    fn deref_mut(&mut self) -> &mut DiagramState {
        self.panel
    }
}

impl Lent<'_> {
    /// The laid-out body of the shown instance (see [`DiagramState::body`]).
    pub fn body(&mut self) -> Option<Rc<(Body, Layout)>> {
        self.panel.body(&DiagramCtx { img: &self.img, project: self.project })
    }

    /// Opens the body of instance `path` ("" for the top level). Returns false if there is none.
    pub fn open(&mut self, path: &str) -> bool {
        self.panel.open(path, &self.img)
    }

    /// A point on the wire from output `pin` of block `id` of the shown body, as drawn in the
    /// last frame (the middle of its first piece), for tests that point at it.
    pub fn wire_pos(&mut self, id: &str, pin: &str) -> Option<Pos2> {
        let bl = self.body()?;
        let (body, layout) = (&bl.0, &bl.1);
        let node = body.nodes.iter().position(|n| n.id == id)?;
        let pin = body.nodes[node].outputs.iter().position(|p| p == pin)?;
        let net = layout.nets.iter().find(|n| n.source == Source::Out { node, pin })?;
        let (a, b) = net.segments.first()?;
        let z = self.panel.zoom;
        Some(self.panel.origin + Vec2::new((a.x + b.x) as f32 / 2.0, (a.y + b.y) as f32 / 2.0) * z)
    }

    /// Where block `id` of the shown body was drawn in the last frame (its centre), for tests
    /// that click it.
    pub fn block_pos(&mut self, id: &str) -> Option<Pos2> {
        let bl = self.body()?;
        let (body, layout) = &*bl;
        let i = body.nodes.iter().position(|n| n.id == id)?;
        let r = layout.blocks[i];
        let z = self.panel.zoom;
        Some(self.panel.origin + Vec2::new((r.x + r.w / 2.0) as f32, (r.y + r.h / 2.0) as f32) * z)
    }

    /// Where ladder element `id` of the shown ladder body was drawn in the last frame (its
    /// centre), for tests that click it.
    pub fn element_pos(&mut self, id: &str) -> Option<Pos2> {
        let (_, d) = self.panel.ladder_cache.clone()?;
        let mac = self.panel.macro_shown(&self.img)?;
        let (_, ladder) =
            crate::diagram::ladder::ladder_of(&DiagramCtx { img: &self.img, project: self.project }, &mac)?;
        let k = ladder.iter().position(|e| e.id == id)?;
        let e = d.elements.iter().find(|e| e.index == k)?;
        let z = self.panel.zoom;
        let c = Vec2::new((e.at.x + e.w / 2.0) as f32, (e.at.y + fbd_layout::ladder::ELEMENT_H / 2.0) as f32);
        Some(self.panel.origin + c * z)
    }

    /// Where block `id` of the shown ladder body was drawn in the last frame (its centre).
    pub fn ladder_block_pos(&mut self, id: &str) -> Option<Pos2> {
        let (_, d) = self.panel.ladder_cache.clone()?;
        let mac = self.panel.macro_shown(&self.img)?;
        let cx = DiagramCtx { img: &self.img, project: self.project };
        let (blocks, _) = crate::diagram::ladder::ladder_of(&cx, &mac)?;
        let k = blocks.iter().position(|b| b.id == id)?;
        let b = d.blocks.iter().find(|b| b.index == k)?;
        let c = Vec2::new((b.at.x + b.w / 2.0) as f32, (b.at.y + b.h / 2.0) as f32);
        Some(self.panel.origin + c * self.panel.zoom)
    }

    /// The connector Find marked, and where its tags were drawn in the last frame (the
    /// connector's, then each continuation's), for tests.
    pub fn found_connector(&mut self) -> Option<(String, Vec<Pos2>)> {
        let label = self.panel.found_connector.clone()?;
        let bl = self.body()?;
        let (_, layout) = &*bl;
        let c = layout.connectors.iter().find(|c| c.label == label)?;
        let z = self.panel.zoom;
        let at = |p: fbd_layout::Point| self.panel.origin + Vec2::new(p.x as f32, p.y as f32) * z;
        let mut points = vec![at(fbd_layout::connector_tag(layout.source_anchor(c.source)))];
        points.extend(c.targets.iter().map(|&t| at(fbd_layout::continuation_tag(layout.target_anchor(t)))));
        Some((label, points))
    }

    /// Where the box of input port `name` of the shown body was drawn in the last frame (its
    /// middle), for tests that click it.
    pub fn input_pos(&mut self, name: &str) -> Option<Pos2> {
        let bl = self.body()?;
        let (body, layout) = &*bl;
        let k = body.inputs.iter().position(|n| n == name)?;
        let a = layout.input_ports[k];
        let z = self.panel.zoom;
        let half = (name.len() as f32 * 7.0 + 14.0) * z / 2.0;
        Some(self.panel.origin + Vec2::new(a.x as f32, a.y as f32) * z - Vec2::new(half, 0.0))
    }

    /// The pages of the body shown (their titles), empty for a body without pages.
    pub fn pages(&mut self) -> Vec<String> {
        let cx = DiagramCtx { img: &self.img, project: self.project };
        self.panel.pages(&cx).into_iter().map(|(t, _)| t).collect()
    }

    /// The live value of output port `port` of the shown body (the value the body drives
    /// there), for tests and the status line.
    pub fn output_value(&mut self, port: &str) -> Option<Value> {
        let bl = self.body()?;
        let (body, _) = &*bl;
        let k = body.outputs.iter().position(|(n, _)| n == port)?;
        let e = body.edges.iter().find(|e| e.to == fbd_layout::Target::Port(k))?;
        let path = self.panel.net_path(body, e.from);
        self.img.read(&path)
    }
}

impl DiagramState {
    /// Fits the drawing to the view in the next frame (what `F` and "Fit" do).
    pub fn fit(&mut self) {
        self.fit = true;
    }

    /// The canvas's screen rectangle in the last frame.
    pub fn canvas(&self) -> Rect {
        Rect::from_min_size(self.canvas_min, self.canvas)
    }

    /// The zoom of the drawing (screen points per layout unit).
    pub fn zoom(&self) -> f32 {
        self.zoom
    }

    /// The height in pixels of block types and connector names as drawn in the last frame;
    /// `None` when the zoom is too small for any text.
    pub fn text_px(&self) -> Option<f32> {
        self.text_px
    }

    /// The page shown (from 0), or `None` for the whole body.
    pub fn page(&self) -> Option<usize> {
        (!self.whole).then_some(self.page)
    }

    /// How many sheets the shown drawing is cut into at Fit (1: it fits the view whole).
    pub fn sheets(&self) -> usize {
        self.sheets.as_ref().map_or(1, |(_, _, s)| s.list.len().max(1))
    }

    /// The sheet shown at Fit (from 0), or `None` for the whole drawing.
    pub fn sheet(&self) -> Option<usize> {
        (!self.unsheeted).then_some(self.sheet)
    }

    /// Shows sheet `k` (from 0) of the shown drawing, or the whole drawing (`None`), fitted.
    pub fn show_sheet(&mut self, k: Option<usize>) {
        self.sheet = k.unwrap_or(0);
        self.unsheeted = k.is_none();
        self.fit = true;
    }

    /// What the Diagram tab's header says (what Find found, ...).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The instance whose body is shown ("" for the program).
    pub fn instance(&self) -> &str {
        &self.instance
    }
}
