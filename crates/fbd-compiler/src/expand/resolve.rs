//! Wire resolution: a wire written in one scope followed through macro ports (memoised per
//! instance port, loops through ports reported) to the constant, program input or block output
//! that drives it.

use super::*;

/// What a chase through macro ports does on its way back out: a port's type to check (and
/// negate), or a feedback wire.
enum Post {
    /// `negate`: the instance has this port negated (the path and place of its NOT).
    Port {
        key: PortKey,
        ty: Type,
        assert: Option<(At, String)>,
        negate: Option<(String, BlockAt)>,
    },
    Feedback {
        init: Option<Value>,
        at: At,
        si: usize,
    },
    /// A connector crossed: its value is memoised for its other continuations.
    Connector {
        key: ConnKey,
    },
}

/// A connector of one scope (macro instance): the scope and its index in the body's list.
pub(super) type ConnKey = (usize, usize);

/// Where a chase through macro ports goes next.
enum Step<'w> {
    /// The driver is found.
    Found(Src),
    /// Follow `wire`, written in scope `si` at `at` (`None`: where the last one was).
    Follow { si: usize, wire: Cow<'w, Wire>, at: Option<At> },
}

/// A chase in progress: what to do on the way back out, and each port crossed with how many
/// posts preceded it (a loop back to one is the posts from there on).
#[derive(Default)]
struct Chase {
    posts: Vec<Post>,
    visited_at: Vec<(PortKey, usize)>,
    /// Connectors crossed (coming back to one is a circle of connectors).
    connectors: Vec<ConnKey>,
}

/// A loop back to port `key` through ports only, with exactly one feedback wire on it
/// and no negation: it is legal (the feedback is its point) and holds the feedback's
/// initial value forever (x(n) = x(n-1)). The feedback's post is dropped (the value
/// is a constant now); `None` for any other loop, an error.
fn held_loop(posts: &mut Vec<Post>, visited_at: &[(PortKey, usize)], key: PortKey) -> Option<Value> {
    let first = visited_at.iter().find(|(k, _)| *k == key)?.1;
    let seg = &posts[first..];
    let mut feedbacks = seg.iter().enumerate().filter(|(_, p)| matches!(p, Post::Feedback { .. }));
    let (fb, _) = feedbacks.next()?;
    if feedbacks.next().is_some() || seg.iter().any(|p| matches!(p, Post::Port { negate: Some(_), .. })) {
        return None;
    }
    let ty = seg.iter().find_map(|p| if let Post::Port { ty, .. } = p { Some(*ty) } else { None })?;
    let init = match &seg[fb] {
        Post::Feedback { init, .. } => *init,
        Post::Port { .. } | Post::Connector { .. } => None,
    };
    posts.remove(first + fb);
    Some(init.and_then(|v| ty.fit(v).ok()).unwrap_or(ty.zero()))
}

impl<'p> Expander<'p> {
    fn err(&self, at: Loc, msg: String) -> Diagnostic {
        let at = at.at();
        self.project.diag(at.file, &at.path, msg)
    }

    /// Resolves a wire written in scope `si` at `at`. On error, records it and returns a
    /// constant so that resolution goes on and every error is reported once.
    pub(super) fn resolve(&mut self, si: usize, w: &Wire, at: Loc) -> Src {
        match self.resolve_inner(si, w, at) {
            Ok(s) => s,
            Err(d) => {
                self.errors.push(d);
                Src::Const(Literal::Bool(false))
            }
        }
    }

    fn scope_block_label(&self, si: usize, at: &At) -> Option<String> {
        // The block whose pin this is: the path element after the body's `blocks`.
        let s = &self.scopes[si];
        let idx = at.path.get(s.body_at.len()).and_then(|seg| match seg {
            Seg::Index(i) => Some(*i),
            _ => None,
        })?;
        if at.path.len() < s.body_at.len() || at.path[..s.body_at.len()] != s.body_at[..] {
            return None;
        }
        self.body(si).get(idx).map(|b| format!("{}{}", s.prefix, b.id))
    }

    fn pin_label(at: &At) -> Option<String> {
        match at.path.iter().rev().take(2).collect::<Vec<_>>().as_slice() {
            [Seg::Key(pin), Seg::Key(inputs)] if inputs == "inputs" => Some(pin.clone()),
            _ => None,
        }
    }

    /// Follows a wire through macro ports to what drives it. Iterative, so a chain of any length
    /// (a pass-through port of a pass-through port ...) costs no stack; every port it crosses is
    /// memoised with its result, so each (instance, port) is resolved, coerced to the port's type
    /// and type-asserted once however many readers it has. Crossing the same port twice in one
    /// resolution is a loop through ports that never reaches a block: an error, not a hang.
    fn resolve_inner<'w>(&mut self, si0: usize, w0: &'w Wire, at0: Loc) -> Result<Src, Diagnostic>
    where
        'p: 'w,
    {
        let mut chase = Chase::default();
        let (mut si, mut w, mut owned_at): (usize, Cow<'w, Wire>, Option<At>) = (si0, Cow::Borrowed(w0), None);
        self.visiting.clear();
        let base: Src = loop {
            let at = owned_at.as_ref().map_or(at0, Loc::At);
            let step = match w.as_ref() {
                Wire::Const(v) => Step::Found(Src::Const(v.clone())),
                Wire::Feedback { from, init } => {
                    chase.posts.push(Post::Feedback { init: init.as_deref().copied(), at: at.at(), si });
                    Step::Follow { si, wire: Cow::Owned(Wire::Ref(from.clone())), at: None }
                }
                Wire::Connector(name) => self.connector(si, name, at, &mut chase)?,
                Wire::Ref(r) => match r.split_once('.') {
                    Some((blk, pin)) => self.block_output(si, r, (blk, pin), at, &mut chase)?,
                    None => match self.scopes[si].mac {
                        None => Step::Found(self.program_input(si, r, at)?),
                        Some((m, mi)) => self.macro_input(si, (m, mi), r, at, &mut chase)?,
                    },
                },
            };
            match step {
                Step::Found(src) => break src,
                Step::Follow { si: next, wire, at } => {
                    si = next;
                    w = wire;
                    if at.is_some() {
                        owned_at = at;
                    }
                }
            }
        };
        self.unwind(base, chase.posts)
    }

    /// An error at `at` in scope `si`, with the block and pin it names when it has none yet.
    fn decorate(&self, si: usize, at: Loc, mut d: Diagnostic) -> Diagnostic {
        if d.block.is_none()
            && let Some(b) = self.scope_block_label(si, &at.at())
        {
            d = d.block(b);
        }
        if d.pin.is_none()
            && let Some(p) = Self::pin_label(&at.at())
        {
            d = d.pin(p);
        }
        d
    }

    /// Crossing port `key` (written at `port_at`) on this chase: its memoised source, or the
    /// value a legal loop through ports holds, or `None` to follow on (the port noted as
    /// visited); an illegal loop is an error.
    fn cross_port(&mut self, key: PortKey, port_at: &At, chase: &mut Chase) -> Result<Option<Src>, Diagnostic> {
        if let Some(s) = self.memo.get(&key) {
            return Ok(Some(s.clone()));
        }
        if !self.visiting.insert(key) {
            return match held_loop(&mut chase.posts, &chase.visited_at, key) {
                Some(v) => Ok(Some(Src::Const(v.into()))),
                None => Err(self.port_loop(port_at)),
            };
        }
        chase.visited_at.push((key, chase.posts.len()));
        Ok(None)
    }

    /// `blk.pin` in scope `si`: a primitive block's output, or a macro instance's output port
    /// followed into the instance.
    fn block_output<'w>(
        &mut self,
        si: usize,
        r: &str,
        (blk, pin): (&str, &str),
        at: Loc,
        chase: &mut Chase,
    ) -> Result<Step<'w>, Diagnostic>
    where
        'p: 'w,
    {
        match self.entry(si, blk) {
            None => {
                let ids: Vec<&str> = self.body(si).iter().map(|b| &*b.id).collect();
                let mut d = self.err(at, format!("unknown block `{blk}` in `{r}`"));
                d = match closest(blk, &ids) {
                    Some(c) => d.help(format!("did you mean `{c}.{pin}`?")),
                    None => d.help("references name a block of the same program or macro body: `block.pin`"),
                };
                Err(self.decorate(si, at, d))
            }
            Some(Entry::Prim(ni)) => {
                let ni = ni as usize;
                let nb = &self.net.blocks[ni];
                match nb.output_index(pin) {
                    Some(p) => Ok(Step::Found(Src::Out { block: ni, pin: p })),
                    None => {
                        let outs = output_names(nb.def, nb.n_var_out()).join(", ");
                        let ty = nb.def.name;
                        let d = self
                            .err(at, format!("block `{blk}` ({ty}) has no output `{pin}`"))
                            .help(format!("its outputs are: {outs}"));
                        Err(self.decorate(si, at, d))
                    }
                }
            }
            Some(Entry::Inst(cs)) => {
                let cs = cs as usize;
                let (m, mi) = self.scopes[cs].mac.expect("instance scope");
                let Some(k) = m.outputs.iter().position(|o| o.name == pin) else {
                    let outs: Vec<&str> = m.outputs.iter().map(|o| o.name.as_str()).collect();
                    let d = self
                        .err(at, format!("macro instance `{blk}` ({}) has no output `{pin}`", m.name))
                        .help(format!("its outputs are: {}", list_or_none(&outs)));
                    return Err(self.decorate(si, at, d));
                };
                let key = PortKey { scope: cs, output: true, port: k };
                let port_at = At::new(self.scopes[cs].file, json_path!["macros", mi, "outputs", k, "from"]);
                if let Some(src) = self.cross_port(key, &port_at, chase)? {
                    return Ok(Step::Found(src));
                }
                let negate = self.negated_port(cs, pin);
                chase.posts.push(Post::Port { key, ty: m.outputs[k].ty.0, assert: None, negate });
                Ok(Step::Follow { si: cs, wire: Cow::Borrowed(&m.outputs[k].from), at: Some(port_at) })
            }
        }
    }

    /// A continuation of connector `name` of scope `si`'s body: followed to the connector's
    /// `from`, in the same scope.
    fn connector<'w>(&mut self, si: usize, name: &str, at: Loc, chase: &mut Chase) -> Result<Step<'w>, Diagnostic>
    where
        'p: 'w,
    {
        let (file, mac) = (self.scopes[si].file, self.scopes[si].mac);
        let (list, list_at): (&'p [Connector], Vec<Seg>) = match mac {
            None => (&self.project.files[0].doc.connectors, json_path!["connectors"].to_vec()),
            Some((m, mi)) => (&m.connectors, json_path!["macros", mi, "connectors"].to_vec()),
        };
        let Some(k) = self.connector_index(file, mac.map(|(_, mi)| mi), list, name) else {
            let names: Vec<&str> = list.iter().map(|c| c.name.as_str()).collect();
            let mut d = self.err(at, format!("no connector `{name}` in this body"));
            d = match closest(name, &names) {
                Some(c) => d.help(format!("did you mean `{c}`?")),
                None => d.help(format!(
                    "a continuation reads a connector of its own body (program or macro), declared in its `connectors`: {{\"name\": \"{name}\", \"from\": \"block.pin\"}}; this body has {}",
                    list_or_none(&names)
                )),
            };
            return Err(self.decorate(si, at, d));
        };
        let key = (si, k);
        if let Some(s) = self.conn_memo.get(&key) {
            return Ok(Step::Found(s.clone()));
        }
        let from_at = At::new(file, list_at).join([Seg::Index(k)]).join(json_path!["from"]);
        if chase.connectors.contains(&key) {
            let d = self
                .project
                .diag(from_at.file, &from_at.path, format!("connector `{name}` leads round in a circle of connectors"))
                .help("a connector's `from` names what drives the net: a block's output, an input, or a constant");
            return Err(d);
        }
        chase.connectors.push(key);
        chase.posts.push(Post::Connector { key });
        Ok(Step::Follow { si, wire: Cow::Borrowed(&list[k].from), at: Some(from_at) })
    }

    /// Index of connector `name` in `list`, the connectors of macro `mac` of `file` (of the
    /// program for `None`), hashed per body on first use.
    fn connector_index(&mut self, file: usize, mac: Option<usize>, list: &'p [Connector], name: &str) -> Option<usize> {
        let names = self
            .conn_names
            .entry((file, mac))
            .or_insert_with(|| list.iter().enumerate().rev().map(|(k, c)| (c.name.as_str(), k)).collect());
        names.get(name).copied()
    }

    /// A program input by name (in the program's own body).
    fn program_input(&mut self, si: usize, name: &str, at: Loc) -> Result<Src, Diagnostic> {
        if let Some(&i) = self.input_index.get(name) {
            return Ok(Src::Input(i));
        }
        let root = &self.project.files[0].doc;
        let names: Vec<&str> = root.inputs.iter().map(|p| p.name.as_str()).collect();
        let mut d = self.err(at, format!("unknown program input `{name}`"));
        d = match closest(name, &names) {
            Some(c) => d.help(format!("did you mean `{c}`?")),
            None => d.help("block outputs are written `block.pin`; program inputs are declared in `inputs`"),
        };
        Err(self.decorate(si, at, d))
    }

    /// A macro's input port by name, in the body of instance scope `si`: followed out to the
    /// wire the instance has on it, or its default (negated when the instance negates it).
    fn macro_input<'w>(
        &mut self,
        si: usize,
        (m, mi): (&'p MacroDef, usize),
        name: &str,
        at: Loc,
        chase: &mut Chase,
    ) -> Result<Step<'w>, Diagnostic>
    where
        'p: 'w,
    {
        let Some(k) = self.port_index(mi, self.scopes[si].file, name) else {
            let names: Vec<&str> = m.inputs.iter().map(|p| p.name.as_str()).collect();
            let d = self
                .err(at, format!("macro `{}` has no input `{name}`", m.name))
                .help(format!("its inputs are: {}; block outputs are written `block.pin`", list_or_none(&names)));
            return Err(self.decorate(si, at, d));
        };
        let key = PortKey { scope: si, output: false, port: k };
        let port = &m.inputs[k];
        let port_at = At::new(self.scopes[si].file, json_path!["macros", mi, "inputs", k]);
        if let Some(src) = self.cross_port(key, &port_at, chase)? {
            return Ok(Step::Found(src));
        }
        let (ps, pbi) = self.scopes[si].parent.expect("macro scope has a parent");
        let negate = self.negated_port(si, name);
        // An instance in a macro body is read where it is; one in the program's body, which
        // the expander owns, is copied (once per port: the result is memoised).
        let wire: Option<Cow<'w, Wire>> = match self.scopes[ps].body {
            Some(body) => body[pbi].inputs.get(name).map(Cow::Borrowed),
            None => self.root[pbi].inputs.get(name).cloned().map(Cow::Owned),
        };
        if let Some(wire) = wire {
            let wat = At::new(self.scopes[ps].file, self.scopes[ps].body_at.clone())
                .join([Seg::Index(pbi)])
                .join(json_path!["inputs", name]);
            let inst_id = &self.body(ps)[pbi].id;
            let what = format!("input `{name}` of macro `{}` (instance `{}{inst_id}`)", m.name, self.scopes[ps].prefix);
            chase.posts.push(Post::Port { key, ty: port.ty.0, assert: Some((wat.clone(), what)), negate });
            return Ok(Step::Follow { si: ps, wire, at: Some(wat) });
        }
        let value = match port.default {
            Some(c) => match port.ty.0.fit(c.0).ok() {
                Some(Value::Bool(v)) if negate.is_some() => Value::Bool(!v),
                Some(v) => v,
                None => {
                    let msg = format!("default {} of port `{name}` is not a {}", c.0, port.ty.0);
                    return Err(self.err(Loc::At(&port_at), msg));
                }
            },
            // Reported once by check_bodies at the instance.
            None => port.ty.0.zero(),
        };
        Ok(Step::Found(Src::Const(value.into())))
    }

    /// The way back out of a chase: each port crossed coerces the source to its type (and
    /// negates it, and asserts the type of the instance's wire) and memoises it; a feedback
    /// wire delays it.
    fn unwind(&mut self, base: Src, posts: Vec<Post>) -> Result<Src, Diagnostic> {
        let mut src = base;
        for post in posts.into_iter().rev() {
            match post {
                Post::Port { key, ty, assert, negate } => {
                    src = coerce_const(src, ty);
                    if let Some((at, what)) = assert {
                        self.net.asserts.push(TypeAssert { src: src.clone(), ty, at, what });
                    }
                    if key.output && self.under_en(key.scope) {
                        src = self.hold(src, key, ty);
                    }
                    if let Some((path, at)) = negate {
                        src = self.negation(src, path, at, self.scopes[key.scope].in_loop);
                    }
                    self.memo.insert(key, src.clone());
                }
                Post::Feedback { init, at, si } => {
                    if let Src::Const(_) = src {
                        let d = self.project.diag(at.file, &at.path, "a feedback wire needs a signal, not a constant");
                        return Err(self.decorate(si, Loc::At(&at), d));
                    }
                    if self.under_en(si) && !self.plain_feedback {
                        src = self.held_feedback(src, init, si);
                    }
                    src = Src::Feedback { src: Box::new(src), init: init.map(Box::new) };
                }
                Post::Connector { key } => {
                    self.conn_memo.insert(key, src.clone());
                }
            }
        }
        Ok(src)
    }

    /// Whether the instance of scope `si` has its port `port` negated: the path of the NOT
    /// that does it (`inst/port:not`, a name no block of the body can have) and where the
    /// instance is written.
    pub(super) fn negated_port(&self, si: usize, port: &str) -> Option<(String, BlockAt)> {
        let (ps, pbi) = self.scopes[si].parent?;
        let inst = &self.body(ps)[pbi];
        if !inst.negated().has(port) {
            return None;
        }
        let mac = self.scopes[ps].mac.map(|(_, mi)| mi);
        Some((format!("{}{port}:not", self.scopes[si].prefix), BlockAt::new(self.scopes[ps].file, mac, pbi)))
    }

    /// An output port of an instance under an EN: read through a MOVE of its own under the
    /// instance's ENs (`inst/port:hold`), so that it holds while the instance is not called,
    /// from the type's zero before its first call, as an IEC function block's output variable
    /// does (a constant, an input passed through, a negated pin's TRUE followed the inside).
    pub(super) fn hold(&mut self, src: Src, key: PortKey, ty: Type) -> Src {
        let (m, _) = self.scopes[key.scope].mac.expect("an instance's scope");
        let path = format!("{}{}:hold", self.scopes[key.scope].prefix, m.outputs[key.port].name);
        let (ps, pbi) = self.scopes[key.scope].parent.expect("an instance's scope");
        let mac = self.scopes[ps].mac.map(|(_, mi)| mi);
        let at = BlockAt::new(self.scopes[ps].file, mac, pbi);
        let def = library::lookup("MOVE").expect("MOVE is a library block");
        let mut mv = NetBlock::new(path.into_boxed_str(), def, at, 0);
        mv.inputs = Box::new([NetPin { ty: def.inputs[0].ty, src, negate: false }]);
        mv.data_type = Some(ty);
        let in_loop = self.scopes[key.scope].in_loop;
        self.net.push(mv, in_loop);
        let ni = self.net.blocks.len() - 1;
        self.holds.push((ni as u32, key.scope));
        Src::Out { block: ni, pin: 0 }
    }

    /// What a feedback wire in scope `si`, inside an instance under an EN, delays: its source
    /// through a MEMORY of its own under the instance's ENs (`inst/N:feedback`), from the
    /// wire's initial value (else what the source holds before its first call). The PLC keeps
    /// a feedback variable in the instance and writes it at the end of the body: while the
    /// instance is not called it keeps its value, its initial one before the first call (the
    /// delayed copy of the source was taken every scan, and read the source's zero).
    fn held_feedback(&mut self, src: Src, init: Option<Value>, si: usize) -> Src {
        let init = init.or_else(|| match &src {
            Src::Out { block, pin } if self.net.out_negated(*block, *pin) => Some(Value::Bool(true)),
            Src::Out { block, .. } => self.net.blocks[*block].params().init.as_deref().map(|c| c.0),
            _ => None,
        });
        let path = format!("{}{}:feedback", self.scopes[si].prefix, self.net.blocks.len());
        let (ps, pbi) = self.scopes[si].parent.expect("a scope under an EN is an instance's");
        let mac = self.scopes[ps].mac.map(|(_, mi)| mi);
        let at = BlockAt::new(self.scopes[ps].file, mac, pbi);
        let def = library::lookup("MEMORY").expect("MEMORY is a library block");
        let params = fbd_model::model::Params {
            init: init.map(|v| Box::new(fbd_model::model::Const(v))),
            ..fbd_model::model::Params::NONE
        };
        let mut mem = NetBlock::new(path.into_boxed_str(), def, at, 0).with_params(&params, None);
        mem.inputs = Box::new([
            NetPin { ty: def.inputs[0].ty, src, negate: false },
            NetPin { ty: def.inputs[1].ty, src: Src::Const(Literal::Bool(true)), negate: false },
        ]);
        let in_loop = self.scopes[si].in_loop;
        self.net.push(mem, in_loop);
        let ni = self.net.blocks.len() - 1;
        self.holds.push((ni as u32, si));
        Src::Out { block: ni, pin: 0 }
    }

    /// `src` negated: a BOOL constant inverted, anything else through a NOT block of its own
    /// (after the program's blocks: `Net::first_negation`).
    pub(super) fn negation(&mut self, src: Src, path: String, at: BlockAt, in_loop: Option<InLoop>) -> Src {
        if let Src::Const(c) = &src
            && let Literal::Bool(v) = *c
        {
            return Src::Const(Literal::Bool(!v));
        }
        let def = library::lookup("NOT").expect("NOT is a library block");
        let mut not = NetBlock::new(path.into_boxed_str(), def, at, 0);
        not.inputs = Box::new([NetPin { ty: def.inputs[0].ty, src, negate: false }]);
        self.net.push(not, in_loop);
        Src::Out { block: self.net.blocks.len() - 1, pin: 0 }
    }

    fn port_loop(&self, port_at: &At) -> Diagnostic {
        self.project
            .diag(port_at.file, &port_at.path, "wire loops through macro ports without reaching a block")
            .help("a macro output that passes an input straight through is wired back to that input; put a feedback wire on the loop, or a block (MOVE, DELAY) where it negates or has two feedback wires")
    }

    /// Index of input port `name` of macro `mi` of file `file` (hashed per macro on first use).
    fn port_index(&mut self, mi: usize, file: usize, name: &str) -> Option<usize> {
        let project = self.project;
        let ports = self.port_names.entry((file, mi)).or_insert_with(|| {
            project.files[file].doc.macros[mi]
                .inputs
                .iter()
                .enumerate()
                .map(|(k, p)| (p.name.as_str(), k))
                .rev()
                .collect()
        });
        ports.get(name).copied()
    }
}
