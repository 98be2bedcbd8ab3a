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
        Post::Port { .. } => None,
    };
    posts.remove(first + fb);
    Some(init.and_then(|v| ty.fit(v).ok()).unwrap_or(ty.zero()))
}

impl<'p> Expander<'p> {
    fn err(&mut self, at: Loc, msg: String) -> Diagnostic {
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
                Src::Const(Box::new(Value::Bool(false)))
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
        s.body.get(idx).map(|b| format!("{}{}", s.prefix, b.id))
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
    fn resolve_inner(&mut self, si0: usize, w0: &Wire, at0: Loc) -> Result<Src, Diagnostic> {
        let mut posts: Vec<Post> = Vec::new();
        // Each port visited on this chase and how many posts preceded it: a loop back to one
        // is the posts from there on.
        let mut visited_at: Vec<(PortKey, usize)> = Vec::new();
        let mut si = si0;
        let mut w: Cow<'_, Wire> = Cow::Borrowed(w0);
        let mut owned_at: Option<At> = None;
        self.visiting.clear();
        let base: Src = loop {
            let at = match &owned_at {
                Some(a) => Loc::At(a),
                None => at0,
            };
            let decorate = |this: &Self, d: Diagnostic| {
                let mut d = d;
                if d.block.is_none()
                    && let Some(b) = this.scope_block_label(si, &at.at())
                {
                    d = d.block(b);
                }
                if d.pin.is_none()
                    && let Some(p) = Self::pin_label(&at.at())
                {
                    d = d.pin(p);
                }
                d
            };
            match w.as_ref() {
                Wire::Const(v) => break Src::Const(v.clone()),
                Wire::Feedback { from, init } => {
                    posts.push(Post::Feedback { init: init.as_deref().copied(), at: at.at(), si });
                    w = Cow::Owned(Wire::Ref(from.clone()));
                }
                Wire::Ref(r) => {
                    if let Some((blk, pin)) = r.split_once('.') {
                        let entry = self.scopes[si].entries.get(blk).copied();
                        match entry {
                            None => {
                                let ids: Vec<&str> = self.scopes[si].body.iter().map(|b| b.id.as_str()).collect();
                                let mut d = self.err(at, format!("unknown block `{blk}` in `{r}`"));
                                if let Some(c) = closest(blk, &ids) {
                                    d = d.help(format!("did you mean `{c}.{pin}`?"));
                                } else {
                                    d = d
                                        .help("references name a block of the same program or macro body: `block.pin`");
                                }
                                return Err(decorate(self, d));
                            }
                            Some(Entry::Prim(ni)) => {
                                let nb = &self.net.blocks[ni];
                                match nb.output_index(pin) {
                                    Some(p) => break Src::Out { block: ni, pin: p },
                                    None => {
                                        let outs = output_names(nb.def, nb.n_var_out).join(", ");
                                        let ty = nb.def.name;
                                        let d = self
                                            .err(at, format!("block `{blk}` ({ty}) has no output `{pin}`"))
                                            .help(format!("its outputs are: {outs}"));
                                        return Err(decorate(self, d));
                                    }
                                }
                            }
                            Some(Entry::Inst(cs)) => {
                                let (m, mi) = self.scopes[cs].mac.expect("instance scope");
                                let Some(k) = m.outputs.iter().position(|o| o.name == pin) else {
                                    let outs: Vec<&str> = m.outputs.iter().map(|o| o.name.as_str()).collect();
                                    let d = self
                                        .err(at, format!("macro instance `{blk}` ({}) has no output `{pin}`", m.name))
                                        .help(format!("its outputs are: {}", list_or_none(&outs)));
                                    return Err(decorate(self, d));
                                };
                                let key = PortKey { scope: cs, output: true, port: k };
                                if let Some(s) = self.memo.get(&key) {
                                    break s.clone();
                                }
                                let port_at =
                                    At::new(self.scopes[cs].file, json_path!["macros", mi, "outputs", k, "from"]);
                                if !self.visiting.insert(key) {
                                    match held_loop(&mut posts, &visited_at, key) {
                                        Some(v) => break Src::Const(Box::new(v)),
                                        None => return Err(self.port_loop(&port_at)),
                                    }
                                }
                                visited_at.push((key, posts.len()));
                                let negate = self.negated_port(cs, pin);
                                posts.push(Post::Port { key, ty: m.outputs[k].ty.0, assert: None, negate });
                                si = cs;
                                w = Cow::Borrowed(&m.outputs[k].from);
                                owned_at = Some(port_at);
                            }
                        }
                    } else {
                        let name = r.as_str();
                        match self.scopes[si].mac {
                            None => match self.input_index.get(name) {
                                Some(&i) => break Src::Input(i),
                                None => {
                                    let root = &self.project.files[0].doc;
                                    let names: Vec<&str> = root.inputs.iter().map(|p| p.name.as_str()).collect();
                                    let mut d = self.err(at, format!("unknown program input `{name}`"));
                                    d = match closest(name, &names) {
                                        Some(c) => d.help(format!("did you mean `{c}`?")),
                                        None => d.help("block outputs are written `block.pin`; program inputs are declared in `inputs`"),
                                    };
                                    return Err(decorate(self, d));
                                }
                            },
                            Some((m, mi)) => {
                                let Some(k) = self.port_index(mi, self.scopes[si].file, name) else {
                                    let names: Vec<&str> = m.inputs.iter().map(|p| p.name.as_str()).collect();
                                    let d = self.err(at, format!("macro `{}` has no input `{name}`", m.name)).help(
                                        format!(
                                            "its inputs are: {}; block outputs are written `block.pin`",
                                            list_or_none(&names)
                                        ),
                                    );
                                    return Err(decorate(self, d));
                                };
                                let key = PortKey { scope: si, output: false, port: k };
                                if let Some(s) = self.memo.get(&key) {
                                    break s.clone();
                                }
                                let port = &m.inputs[k];
                                let port_at = At::new(self.scopes[si].file, json_path!["macros", mi, "inputs", k]);
                                if !self.visiting.insert(key) {
                                    match held_loop(&mut posts, &visited_at, key) {
                                        Some(v) => break Src::Const(Box::new(v)),
                                        None => return Err(self.port_loop(&port_at)),
                                    }
                                }
                                visited_at.push((key, posts.len()));
                                let (ps, pbi) = self.scopes[si].parent.expect("macro scope has a parent");
                                let negate = self.negated_port(si, name);
                                let inst = &self.scopes[ps].body[pbi];
                                match inst.inputs.get(name) {
                                    Some(iw) => {
                                        let wat = At::new(self.scopes[ps].file, self.scopes[ps].body_at.clone())
                                            .join([Seg::Index(pbi)])
                                            .join(json_path!["inputs", name]);
                                        let what = format!(
                                            "input `{name}` of macro `{}` (instance `{}{}`)",
                                            m.name, self.scopes[ps].prefix, inst.id
                                        );
                                        posts.push(Post::Port {
                                            key,
                                            ty: port.ty.0,
                                            assert: Some((wat.clone(), what)),
                                            negate,
                                        });
                                        si = ps;
                                        w = Cow::Borrowed(iw);
                                        owned_at = Some(wat);
                                    }
                                    None => match port.default {
                                        Some(c) => match port.ty.0.fit(c.0).ok() {
                                            Some(Value::Bool(v)) if negate.is_some() => {
                                                break Src::Const(Box::new(Value::Bool(!v)));
                                            }
                                            Some(v) => break Src::Const(Box::new(v)),
                                            None => {
                                                return Err(self.err(
                                                    Loc::At(&port_at),
                                                    format!("default {} of port `{name}` is not a {}", c.0, port.ty.0),
                                                ));
                                            }
                                        },
                                        // Reported once by check_bodies at the instance.
                                        None => break Src::Const(Box::new(port.ty.0.zero())),
                                    },
                                }
                            }
                        }
                    }
                }
            }
        };
        let mut src = base;
        for post in posts.into_iter().rev() {
            match post {
                Post::Port { key, ty, assert, negate } => {
                    src = coerce_const(src, ty);
                    if let Some((at, what)) = assert {
                        self.net.asserts.push(TypeAssert { src: src.clone(), ty, at, what });
                    }
                    if let Some((path, at)) = negate {
                        src = self.negation(src, path, at);
                    }
                    self.memo.insert(key, src.clone());
                }
                Post::Feedback { init, at, si } => {
                    if let Src::Const(_) = src {
                        let mut d =
                            self.project.diag(at.file, &at.path, "a feedback wire needs a signal, not a constant");
                        if let Some(b) = self.scope_block_label(si, &at) {
                            d = d.block(b);
                        }
                        if let Some(p) = Self::pin_label(&at) {
                            d = d.pin(p);
                        }
                        return Err(d);
                    }
                    src = Src::Feedback { src: Box::new(src), init: init.map(Box::new) };
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
        let inst = &self.scopes[ps].body[pbi];
        if !inst.negated.has(port) {
            return None;
        }
        let mac = self.scopes[ps].mac.map(|(_, mi)| mi);
        Some((format!("{}{port}:not", self.scopes[si].prefix), BlockAt::new(self.scopes[ps].file, mac, pbi)))
    }

    /// `src` negated: a BOOL constant inverted, anything else through a NOT block of its own
    /// (after the program's blocks: `Net::first_negation`).
    pub(super) fn negation(&mut self, src: Src, path: String, at: BlockAt) -> Src {
        if let Src::Const(c) = &src
            && let Value::Bool(v) = **c
        {
            return Src::Const(Box::new(Value::Bool(!v)));
        }
        let def = library::lookup("NOT").expect("NOT is a library block");
        self.net.blocks.push(NetBlock {
            path,
            def,
            at,
            inputs: vec![NetPin { ty: def.inputs[0].ty, src, negate: false }],
            n_var_out: 0,
            data_type: None,
            params: Default::default(),
            order: None,
        });
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
