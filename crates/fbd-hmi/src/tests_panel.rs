//! Debug > Run test table: a `*.test.json` run on its own runtime (the live one keeps
//! running), its results in a window, each failing row with a button that replays the test on
//! the live runtime and stops at the scan where it failed, for the diagram and the debugger to
//! show, as a recording is played.

use std::path::PathBuf;

use eframe::egui;
use fbd_test::{Loaded, Outcome, Scope, TestResult};

use crate::ui_command::UiCommand;

/// A table file's run, shown in the Tests window.
pub(crate) struct TestsPanel {
    file: PathBuf,
    /// The table as loaded (to replay a test), or why it did not load.
    loaded: Result<Loaded, String>,
    results: Vec<TestResult>,
    coverage: Vec<Scope>,
}

/// What the window asks for.
enum Ask {
    Nothing,
    Close,
    /// Replay test `k` and stop at `scan`.
    Show(usize, u64),
}

impl TestsPanel {
    pub(crate) fn run(file: PathBuf) -> TestsPanel {
        match fbd_test::load(&file) {
            Ok(l) => {
                let (results, coverage) = fbd_test::run_table(&l);
                let coverage = coverage.scopes(&l.plan);
                TestsPanel { file, loaded: Ok(l), results, coverage }
            }
            Err(e) => TestsPanel { file, loaded: Err(e), results: Vec::new(), coverage: Vec::new() },
        }
    }

    fn show(&self, ctx: &egui::Context) -> Ask {
        let mut ask = Ask::Nothing;
        let mut open = true;
        egui::Window::new("Tests").open(&mut open).default_width(620.0).show(ctx, |ui| {
            ui.label(egui::RichText::new(self.file.display().to_string()).strong());
            if let Err(e) = &self.loaded {
                ui.colored_label(egui::Color32::from_rgb(0xe0, 0x40, 0x40), e);
                return;
            }
            let failed = self.results.iter().filter(|r| r.outcome != Outcome::Passed).count();
            ui.label(format!("{} tests: {} passed, {failed} failed", self.results.len(), self.results.len() - failed));
            let replayable = self.loaded.as_ref().is_ok_and(|l| l.table.macro_name.is_none());
            egui::ScrollArea::vertical().max_height(420.0).show(ui, |ui| {
                for (k, r) in self.results.iter().enumerate() {
                    match &r.outcome {
                        Outcome::Passed => {
                            ui.label(format!("ok      {} ({} scans)", r.name, r.scans));
                        }
                        Outcome::Failed(fs) => {
                            ui.colored_label(egui::Color32::from_rgb(0xe0, 0x40, 0x40), format!("FAILED  {}", r.name));
                            for f in fs {
                                let at = f.place.map_or(String::new(), |(l, c)| format!("{l}:{c}: "));
                                ui.label(format!("{at}row {}, scan {}: {}", f.row, f.scan, f.message));
                                let b = ui.add_enabled(replayable, egui::Button::new(format!("show scan {}", f.scan)));
                                let b = if replayable {
                                    b.on_hover_text("replays the test on the program and stops at this scan")
                                } else {
                                    b.on_disabled_hover_text("a macro tested alone has no program file to load")
                                };
                                if b.clicked() {
                                    ask = Ask::Show(k, f.scan);
                                }
                                for t in &f.trace {
                                    ui.label(egui::RichText::new(t).monospace().weak());
                                }
                            }
                        }
                    }
                }
            });
            ui.separator();
            for s in &self.coverage {
                ui.label(format!("coverage {}: {:.1} % ({}/{})", s.name, s.percent(), s.met, s.total));
            }
        });
        if !open {
            ask = Ask::Close;
        }
        ask
    }
}

impl TestsPanel {
    /// What the status line says of the run.
    pub(crate) fn summary(&self) -> String {
        match &self.loaded {
            Ok(_) => {
                let failed = self.results.iter().filter(|r| r.outcome != Outcome::Passed).count();
                format!("{}: {} tests, {failed} failed", self.file.display(), self.results.len())
            }
            Err(e) => e.clone(),
        }
    }

    /// Test `k` as a recording to replay through its program, written to a file of its own,
    /// and the test's name.
    pub(crate) fn recording_file(&self, k: usize) -> Result<(PathBuf, String), String> {
        let l = self.loaded.as_ref().map_err(Clone::clone)?;
        let rec = fbd_test::recording_of(l, k).ok_or("a macro tested alone has no program file to load")?;
        let file = std::env::temp_dir().join(format!("fbd-test-{}-{k}.json", std::process::id()));
        fbd_engine::load::write_text(&file, &rec.to_json()).map_err(|e| format!("{}: {e}", file.display()))?;
        let name = self.results.get(k).map_or(String::new(), |r| r.name.clone());
        Ok((file, name))
    }

    /// Each test's name and whether it passed.
    pub fn results(&self) -> Vec<(String, bool)> {
        self.results.iter().map(|r| (r.name.clone(), r.outcome == Outcome::Passed)).collect()
    }
}

impl crate::window::Window for TestsPanel {
    fn show(&mut self, ctx: &egui::Context, _cx: crate::link::FrameCtx<'_>) -> Option<UiCommand> {
        match TestsPanel::show(self, ctx) {
            Ask::Nothing => None,
            Ask::Close => Some(UiCommand::CloseTests),
            Ask::Show(k, scan) => Some(UiCommand::ShowTest(k, scan)),
        }
    }
}
