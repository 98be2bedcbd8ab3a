//! Checks of each body before expansion: ids, block types, pins and params of the program and
//! of every macro, the program's ports and `cycle_ms`, with did-you-mean suggestions.

use rustc_hash::FxHashMap as HashMap;

use crate::Project;
use fbd_model::diag::Diagnostic;
use fbd_model::diag::closest;
use fbd_model::json_path;
use fbd_model::library::{self, BlockDef};
use fbd_model::limits::{MAX_CYCLE_MS, MAX_PINS, MAX_POS, MAX_WATCHDOG_MS, MIN_CYCLE_MS};
use fbd_model::load::{IDENT_HELP, valid_ident};
use fbd_model::locate::Seg;
use fbd_model::model::{Connector, LeanBlock as Block, Page, Params};

/// The bodies of the program and of every macro: ids, types, pins, params.
pub(crate) fn check_bodies(project: &Project, errors: &mut Vec<Diagnostic>) {
    for (fi, f) in project.files.iter().enumerate() {
        let doc = &f.doc;
        if fi == 0 {
            if let Some(c) = doc.cycle_ms
                && !(MIN_CYCLE_MS..=MAX_CYCLE_MS).contains(&c)
            {
                errors.push(
                    project
                        .diag(fi, &json_path!["cycle_ms"], format!("cycle_ms {c} is outside {MIN_CYCLE_MS}..={MAX_CYCLE_MS} ms"))
                        .help("the scan cycle is at least 50 µs and at most one minute; PLC tasks typically run every 1 to 100 ms"),
                );
            }
            if let Some(w) = doc.watchdog_ms
                && !(MIN_CYCLE_MS..=MAX_WATCHDOG_MS).contains(&w)
            {
                errors.push(
                    project
                        .diag(
                            fi,
                            &json_path!["watchdog_ms"],
                            format!("watchdog_ms {w} is outside {MIN_CYCLE_MS}..={MAX_WATCHDOG_MS} ms"),
                        )
                        .help("the watchdog is the longest a scan's loops may run; PLCs set it to a few scan cycles"),
                );
            }
            let mut names: HashMap<&str, ()> = HashMap::default();
            for (i, p) in doc.inputs.iter().enumerate() {
                let at = json_path!["inputs", i, "name"];
                if !valid_ident(&p.name) {
                    errors.push(project.diag(fi, &at, format!("invalid input name `{}`", p.name)).help(IDENT_HELP));
                } else if names.insert(&p.name, ()).is_some() {
                    errors.push(project.diag(fi, &at, format!("program port `{}` is declared twice", p.name)));
                }
                // How an HMI shows the input must fit its type: a push button or a switch
                // writes TRUE/FALSE, a selector a position number. (A button on an INT input
                // was drawn and its presses were dropped.)
                use fbd_model::model::InputKind;
                if let Some(t) = p.kind.needs()
                    && t != p.ty.0
                {
                    errors.push(
                        project
                            .diag(
                                fi,
                                &json_path!["inputs", i, "kind"],
                                format!("input `{}` is {}, but a {} input is {t}", p.name, p.ty.0, p.kind.name()),
                            )
                            .help("buttons and switches are BOOL, a selector is INT (its position, 0 for none); `number` fits any type"),
                    );
                }
                if !p.options.is_empty() && p.kind != InputKind::Selector {
                    errors.push(
                        project
                            .diag(
                                fi,
                                &json_path!["inputs", i, "options"],
                                format!(
                                    "input `{}` has options, which label a selector's positions, but its kind is {}",
                                    p.name,
                                    p.kind.name()
                                ),
                            )
                            .help("give it \"kind\": \"selector\" (an INT input), or remove the options"),
                    );
                }
                if let Some(d) = p.default
                    && let Err(why) = p.ty.0.fit(d.0)
                {
                    errors.push(project.diag(
                        fi,
                        &json_path!["inputs", i, "default"],
                        format!("default of input `{}`: {why}", p.name),
                    ));
                }
            }
            for (i, p) in doc.outputs.iter().enumerate() {
                let at = json_path!["outputs", i, "name"];
                if !valid_ident(&p.name) {
                    errors.push(project.diag(fi, &at, format!("invalid output name `{}`", p.name)).help(IDENT_HELP));
                } else if names.insert(&p.name, ()).is_some() {
                    errors.push(
                        project
                            .diag(fi, &at, format!("program port `{}` is declared twice", p.name))
                            .help("inputs and outputs share one namespace"),
                    );
                }
            }
            check_addresses(project, errors);
            check_body(project, fi, &doc.blocks, &json_path!["blocks"], errors);
            check_connectors(project, fi, &doc.connectors, &json_path!["connectors"], errors);
            check_pages(project, fi, (&doc.pages, &doc.blocks), &json_path!["pages"], errors);
        } else if !doc.blocks.is_empty()
            || !doc.inputs.is_empty()
            || !doc.outputs.is_empty()
            || !doc.connectors.is_empty()
            || !doc.pages.is_empty()
        {
            errors.push(
                project
                    .diag(fi, &json_path!["blocks"], "an included file may only define macros")
                    .help("move the blocks and ports into the program that includes this library"),
            );
        }
        for (mi, m) in doc.macros.iter().enumerate() {
            if m.inputs.len() > MAX_PINS || m.outputs.len() > MAX_PINS {
                errors.push(
                    project
                        .diag(fi, &json_path!["macros", mi, "name"], format!(
                            "macro `{}` has {} inputs and {} outputs, more than the limit of {MAX_PINS} in each direction",
                            m.name, m.inputs.len(), m.outputs.len()
                        ))
                        .help("group the signals into several macros"),
                );
                continue;
            }
            let mut names: HashMap<&str, ()> = HashMap::default();
            for (k, p) in m.inputs.iter().enumerate() {
                let at = json_path!["macros", mi, "inputs", k, "name"];
                if !valid_ident(&p.name) {
                    errors.push(project.diag(fi, &at, format!("invalid port name `{}`", p.name)).help(IDENT_HELP));
                } else if names.insert(&p.name, ()).is_some() {
                    errors.push(project.diag(fi, &at, format!("macro `{}` declares port `{}` twice", m.name, p.name)));
                }
            }
            for (k, p) in m.outputs.iter().enumerate() {
                let at = json_path!["macros", mi, "outputs", k, "name"];
                if !valid_ident(&p.name) {
                    errors.push(project.diag(fi, &at, format!("invalid port name `{}`", p.name)).help(IDENT_HELP));
                } else if names.insert(&p.name, ()).is_some() {
                    errors.push(project.diag(fi, &at, format!("macro `{}` declares port `{}` twice", m.name, p.name)));
                }
            }
            check_body(project, fi, &m.blocks, &json_path!["macros", mi, "blocks"], errors);
            check_connectors(project, fi, &m.connectors, &json_path!["macros", mi, "connectors"], errors);
            check_pages(project, fi, (&m.pages, &m.blocks), &json_path!["macros", mi, "pages"], errors);
        }
    }
}

/// The located addresses of the program's ports: each one an IEC address, an input where a
/// program reads (`%I`, `%M`) and an output where it writes (`%Q`, `%M`), none over another;
/// a macro's ports have none.
fn check_addresses(project: &Project, errors: &mut Vec<Diagnostic>) {
    let doc = &project.files[0].doc;
    let mut taken: Vec<(fbd_model::located::Address, &str)> = Vec::new();
    let ports = doc
        .inputs
        .iter()
        .map(|p| (true, &p.name, &p.address))
        .chain(doc.outputs.iter().map(|p| (false, &p.name, &p.address)));
    for (k, (input, name, address)) in ports.enumerate() {
        let Some(a) = address else { continue };
        let at = if input {
            json_path!["inputs", k, "address"]
        } else {
            json_path!["outputs", k - doc.inputs.len(), "address"]
        };
        let addr = match fbd_model::located::parse_address(a) {
            Ok(l) => l,
            Err(e) => {
                errors.push(project.diag(0, &at, format!("{} `{name}`: {e}", if input { "input" } else { "output" })));
                continue;
            }
        };
        if addr.is_unbound() {
            errors.push(
                project
                    .diag(0, &at, format!("`{name}` at {a}: a program's port needs a full address"))
                    .help("%I* and %Q* are for function blocks, bound by the configuration (VAR_CONFIG)"),
            );
            continue;
        }
        // An input may sit at %Q or %M too: memory the program reads and something outside
        // sets (a SCADA over Modbus); an output at %I would be overwritten by the input image.
        if !input && addr.area == 'I' {
            errors.push(
                project
                    .diag(0, &at, format!("output `{name}` at {a}: a program output is located at %Q or %M"))
                    .help("%I is what the PLC reads, %Q what it writes, %M its memory"),
            );
            continue;
        }
        // Where OpenPLC serves it, no two overlap; an address it does not serve, none twice.
        let span = |l: &fbd_model::located::Located| l.address..l.address + l.words.max(1);
        let overlaps = |o: &fbd_model::located::Address| match (o.openplc(), addr.openplc()) {
            (Some(o), Some(l)) => o.table == l.table && span(&o).start < span(&l).end && span(&l).start < span(&o).end,
            _ => *o == addr,
        };
        if let Some((_, other)) = taken.iter().find(|(o, _)| overlaps(o)) {
            errors.push(project.diag(0, &at, format!("`{name}` at {a} overlaps `{other}`")));
            continue;
        }
        taken.push((addr, name));
    }
    for (fi, f) in project.files.iter().enumerate() {
        for (mi, m) in f.doc.macros.iter().enumerate() {
            for (k, p) in m.outputs.iter().enumerate().filter(|(_, p)| p.address.is_some()) {
                errors.push(
                    project
                        .diag(
                            fi,
                            &json_path!["macros", mi, "outputs", k, "address"],
                            format!("output `{}` of macro `{}` has an address", p.name, m.name),
                        )
                        .help("only the program's ports are located"),
                );
            }
        }
    }
}

/// The connectors of one body: each a valid name, none twice (its continuations would read
/// either).
fn check_connectors(project: &Project, fi: usize, list: &[Connector], list_at: &[Seg], errors: &mut Vec<Diagnostic>) {
    let mut names: HashMap<&str, usize> = HashMap::default();
    for (k, c) in list.iter().enumerate() {
        let mut at = list_at.to_vec();
        at.extend([Seg::Index(k), Seg::Key("name".into())]);
        if !valid_ident(&c.name) && !element_name(&c.name) {
            errors.push(project.diag(fi, &at, format!("invalid connector name `{}`", c.name)).help(IDENT_HELP));
        } else if let Some(first) = names.insert(&c.name, k) {
            errors.push(
                project
                    .diag(
                        fi,
                        &at,
                        format!("two connectors named `{}` (the first is #{first}): a net has one source", c.name),
                    )
                    .help("rename one; its continuations (`{\"connector\": name}`) then say which net they read"),
            );
        }
    }
}

/// An array element's name (`buf[3]`, `grid[0,-1]`): the net of an element, which the ST
/// compiler makes (`st::lower::arrays`), watched by that name.
fn element_name(name: &str) -> bool {
    let Some((array, rest)) = name.split_once('[') else { return false };
    let Some(indices) = rest.strip_suffix(']') else { return false };
    valid_ident(array) && indices.split(',').all(|i| i.strip_prefix('-').unwrap_or(i).parse::<u64>().is_ok())
}

/// The pages of one body: each named once, each block of the body on one page at most, and
/// no id that is not a block of the body.
fn check_pages(
    project: &Project,
    fi: usize,
    (pages, blocks): (&[Page], &[Block]),
    list_at: &[Seg],
    errors: &mut Vec<Diagnostic>,
) {
    let ids: HashMap<&str, ()> = blocks.iter().map(|b| (&*b.id, ())).collect();
    let mut names: HashMap<&str, usize> = HashMap::default();
    let mut placed: HashMap<&str, &str> = HashMap::default();
    for (k, page) in pages.iter().enumerate() {
        let mut at = list_at.to_vec();
        at.push(Seg::Index(k));
        let name_at = [at.clone(), vec![Seg::Key("name".into())]].concat();
        if page.name.trim().is_empty() {
            errors.push(project.diag(fi, &name_at, "a page needs a name (its title)"));
        } else if let Some(first) = names.insert(&page.name, k) {
            errors.push(project.diag(fi, &name_at, format!("two pages named `{}` (the first is #{first})", page.name)));
        }
        for (j, id) in page.blocks.iter().enumerate() {
            let id_at = [at.clone(), vec![Seg::Key("blocks".into()), Seg::Index(j)]].concat();
            if !ids.contains_key(id.as_str()) {
                let all: Vec<&str> = blocks.iter().map(|b| &*b.id).collect();
                let mut d = project.diag(
                    fi,
                    &id_at,
                    format!("page `{}` lists `{id}`, which is no block of this body", page.name),
                );
                if let Some(c) = closest(id, &all) {
                    d = d.help(format!("did you mean `{c}`?"));
                }
                errors.push(d);
            } else if let Some(other) = placed.insert(id, &page.name) {
                errors.push(
                    project
                        .diag(fi, &id_at, format!("block `{id}` is on two pages, `{other}` and `{}`", page.name))
                        .help("a block is drawn once: list it on one page"),
                );
            }
        }
    }
}

fn check_body(project: &Project, fi: usize, body: &[Block], body_at: &[Seg], errors: &mut Vec<Diagnostic>) {
    let mut ids: HashMap<&str, usize> = HashMap::default();
    for (bi, b) in body.iter().enumerate() {
        let at = |more: &[Seg]| {
            let mut p = body_at.to_vec();
            p.push(Seg::Index(bi));
            p.extend_from_slice(more);
            p
        };
        if !valid_ident(&b.id) {
            errors.push(
                project.diag(fi, &at(&json_path!["id"]), format!("invalid block id `{}`", b.id)).help(IDENT_HELP),
            );
        } else if let Some(first) = ids.insert(&b.id, bi) {
            errors.push(
                project
                    .diag(
                        fi,
                        &at(&json_path!["id"]),
                        format!("duplicate block id `{}` (first used by block #{first})", b.id),
                    )
                    .block(&*b.id),
            );
        }
        if let Some(p) = b.bad_pos() {
            errors.push(
                project
                    .diag(
                        fi,
                        &at(&json_path!["pos"]),
                        format!(
                            "block `{}`: pos [{:?}, {:?}] is outside the drawing (each coordinate within -{MAX_POS}..={MAX_POS})",
                            b.id, p[0], p[1]
                        ),
                    )
                    .block(&*b.id)
                    .help("remove `pos` (the body is then laid out), or store a fresh layout with `fbd layout FILE --write`"),
            );
        }
        if b.inputs.0.len() > MAX_PINS {
            // Checked first: the per-pin checks below would cost time for nothing.
            errors.push(
                project
                    .diag(
                        fi,
                        &at(&json_path!["inputs"]),
                        format!(
                            "block `{}` has {} connected inputs, more than the limit of {MAX_PINS}",
                            b.id,
                            b.inputs.0.len()
                        ),
                    )
                    .block(&*b.id)
                    .help("split the block (e.g. an AND of ANDs)"),
            );
            continue;
        }
        check_negated(project, fi, b, &at(&[]), errors);
        if let Some(def) = library::lookup(&b.ty) {
            check_prim_pins(project, fi, b, def, &at(&[]), errors);
        } else if let Some((_, _, m)) = project.macro_def(&b.ty)
            && (m.inputs.len() > MAX_PINS || m.outputs.len() > MAX_PINS)
        {
            // Reported once at the definition.
        } else if let Some((_, _, m)) = project.macro_def(&b.ty) {
            for (pin, _) in b.inputs.iter() {
                if !m.inputs.iter().any(|p| p.name == *pin) && pin != library::ENABLE {
                    let known: Vec<&str> = m.inputs.iter().map(|p| p.name.as_str()).collect();
                    errors.push(
                        project
                            .diag(
                                fi,
                                &at(&json_path!["inputs", pin]),
                                format!("macro `{}` has no input `{pin}`", m.name),
                            )
                            .block(&*b.id)
                            .pin(pin)
                            .help(format!("its inputs are: {}", list_or_none(&known))),
                    );
                }
            }
            for p in &m.inputs {
                if p.default.is_none() && b.inputs.get(&p.name).is_none() {
                    errors.push(
                        project
                            .diag(
                                fi,
                                &at(&json_path!["inputs"]),
                                format!("required input `{}` of macro `{}` is not connected", p.name, m.name),
                            )
                            .block(&*b.id)
                            .pin(&p.name)
                            .help("wire it, or give the port a `default` in the macro definition"),
                    );
                }
            }
            if *b.params() != Params::default() || b.data_type().is_some() {
                errors.push(
                    project
                        .diag(fi, &at(&json_path!["params"]), "a macro instance takes no params or data_type")
                        .block(&*b.id)
                        .help("pass values through the macro's inputs"),
                );
            }
        } else {
            let mut d =
                project.diag(fi, &at(&json_path!["type"]), format!("unknown block type `{}`", b.ty)).block(&*b.id);
            let mut names: Vec<&str> = library::LIBRARY.iter().map(|d| d.name).collect();
            names.extend(project.macros.keys().map(String::as_str));
            if let Some(s) = closest(&b.ty, &names) {
                d = d.help(format!("did you mean `{s}`? (`fbd blocks` lists the library)"));
            } else {
                d = d.help("`fbd blocks` lists the library; macros must be defined or included");
            }
            errors.push(d);
        }
    }
}

/// What is wrong with negating a pin, and the help that says what the block has.
type PinProblem<'a> = Box<dyn Fn(&str) -> Option<(String, String)> + 'a>;

/// `negated` names pins of a library block (inputs, and outputs that are not delayed; whether
/// each is BOOL is known only after type inference, `typecheck`) or BOOL ports of a macro
/// instance, each once.
fn check_negated(project: &Project, fi: usize, b: &Block, at: &[Seg], errors: &mut Vec<Diagnostic>) {
    if b.negated().is_empty() {
        return;
    }
    let here = |k: usize| {
        let mut p = at.to_vec();
        p.extend_from_slice(&json_path!["negated", k]);
        p
    };
    if b.negated().len() > MAX_PINS {
        let msg = format!("block `{}` negates {} pins, more than the limit of {MAX_PINS}", b.id, b.negated().len());
        errors.push(project.diag(fi, &here(0), msg).block(&*b.id));
        return;
    }
    // What is wrong with negating `pin` of this block, and the help that says what it has.
    let wrong: PinProblem = match library::lookup(&b.ty) {
        Some(def) => {
            let n_var_out = b.params().n.unwrap_or(0) as usize;
            Box::new(move |pin: &str| {
                let input = def.inputs.iter().any(|p| p.name == pin)
                    || def.var_inputs.is_some_and(|v| pin.starts_with(v.prefix) && b.inputs.get(pin).is_some());
                let output = def.outputs.iter().find(|p| p.name == pin);
                let var_output = def.var_outputs.is_some_and(|v| {
                    let num = pin.strip_prefix(v.prefix).and_then(|n| n.parse::<usize>().ok());
                    num.is_some_and(|n| n >= v.first && n < v.first + n_var_out && pin == format!("{}{n}", v.prefix))
                });
                if output.is_some_and(|p| p.delayed) {
                    let msg =
                        format!("`{pin}` of {} carries the previous scan's value: it cannot be negated", def.name);
                    Some((msg, "negate the input it feeds instead".to_string()))
                } else if !input && output.is_none() && !var_output {
                    let help = format!(
                        "its inputs are: {} (a variadic one once it is connected); its outputs: {}",
                        input_names(def),
                        output_names(def, n_var_out).join(", ")
                    );
                    Some((format!("{} has no pin `{pin}` to negate", def.name), help))
                } else {
                    None
                }
            })
        }
        // A macro instance: its ports are declared with their types.
        None => {
            let Some((_, _, m)) = project.macro_def(&b.ty) else { return };
            // The ports, for the help (a few: a macro may have thousands).
            let names = m.inputs.iter().map(|p| p.name.as_str()).chain(m.outputs.iter().map(|p| p.name.as_str()));
            let mut ports: Vec<&str> = names.take(17).collect();
            let more = if ports.len() > 16 { ", ..." } else { "" };
            ports.truncate(16);
            let help = format!("its ports are: {}{more}", list_or_none(&ports));
            Box::new(move |pin: &str| {
                let ty = m.inputs.iter().find(|p| p.name == pin).map(|p| p.ty.0);
                match ty.or_else(|| m.outputs.iter().find(|p| p.name == pin).map(|p| p.ty.0)) {
                    None => Some((format!("macro `{}` has no port `{pin}` to negate", m.name), help.clone())),
                    Some(t) if t != fbd_model::Type::Bool => Some((
                        format!("port `{pin}` of macro `{}` is {t}: only a BOOL pin can be negated", m.name),
                        help.clone(),
                    )),
                    Some(_) => None,
                }
            })
        }
    };
    let mut seen: HashMap<&str, usize> = HashMap::default();
    for (k, pin) in b.negated().iter().enumerate() {
        let problem = wrong(pin).or_else(|| {
            let first = *seen.entry(pin).or_insert(k);
            (first != k).then(|| {
                (
                    format!("pin `{pin}` is negated twice (first at negated[{first}])"),
                    "list each negated pin once".into(),
                )
            })
        });
        if let Some((msg, help)) = problem {
            errors.push(project.diag(fi, &here(k), msg).block(&*b.id).pin(pin).help(help));
        }
    }
}

fn check_prim_pins(project: &Project, fi: usize, b: &Block, def: &BlockDef, at: &[Seg], errors: &mut Vec<Diagnostic>) {
    let here = |more: &[Seg]| {
        let mut p = at.to_vec();
        p.extend_from_slice(more);
        p
    };
    let mut var_numbers = Vec::new();
    for (pin, _) in b.inputs.iter() {
        if def.inputs.iter().any(|p| p.name == pin) || pin == library::ENABLE {
            continue;
        }
        if let Some(v) = def.var_inputs
            && let Some(num) = pin.strip_prefix(v.prefix).and_then(|n| n.parse::<usize>().ok())
            && num >= v.first
            && pin == format!("{}{num}", v.prefix)
        {
            var_numbers.push(num);
            continue;
        }
        errors.push(
            project
                .diag(fi, &here(&json_path!["inputs", pin]), format!("{} has no input `{pin}`", def.name))
                .block(&*b.id)
                .pin(pin)
                .help(format!("its inputs are: {}", input_names(def))),
        );
    }
    if let Some(v) = def.var_inputs {
        var_numbers.sort_unstable();
        for (k, num) in var_numbers.iter().enumerate() {
            if *num != v.first + k {
                errors.push(
                    project
                        .diag(
                            fi,
                            &here(&json_path!["inputs"]),
                            format!("input `{}{}` is missing before `{}{num}`", v.prefix, v.first + k, v.prefix),
                        )
                        .block(&*b.id)
                        .pin(format!("{}{}", v.prefix, v.first + k))
                        .help("variadic inputs are numbered without gaps"),
                );
                break;
            }
        }
        if var_numbers.len() < v.min {
            errors.push(
                project
                    .diag(
                        fi,
                        &here(&json_path!["inputs"]),
                        format!(
                            "{} needs at least {} `{}` inputs, {} connected",
                            def.name,
                            v.min,
                            v.prefix,
                            var_numbers.len()
                        ),
                    )
                    .block(&*b.id)
                    .pin(format!("{}{}", v.prefix, v.first + var_numbers.len())),
            );
        }
    }
    for p in def.inputs {
        if p.default.is_none() && b.inputs.get(p.name).is_none() {
            errors.push(
                project
                    .diag(
                        fi,
                        &here(&json_path!["inputs"]),
                        format!("required input `{}` of {} is not connected", p.name, def.name),
                    )
                    .block(&*b.id)
                    .pin(p.name)
                    .help("wire it to `block.pin`, an input name, or a constant"),
            );
        }
    }
    let given: [(&str, bool); 3] =
        [("init", b.params().init.is_some()), ("seed", b.params().seed.is_some()), ("n", b.params().n.is_some())];
    for (name, set) in given {
        if set && !def.params.contains(&name) {
            errors.push(
                project
                    .diag(fi, &here(&json_path!["params", name]), format!("{} takes no parameter `{name}`", def.name))
                    .block(&*b.id),
            );
        }
    }
    if def.var_outputs.is_some() {
        match b.params().n {
            Some(n) if (1..=1024).contains(&n) => {}
            Some(n) => errors.push(
                project
                    .diag(fi, &here(&json_path!["params", "n"]), format!("{} needs 1 <= n <= 1024, got {n}", def.name))
                    .block(&*b.id),
            ),
            None => errors.push(
                project
                    .diag(
                        fi,
                        &here(&json_path!["params"]),
                        format!("{} needs params.n (number of positions)", def.name),
                    )
                    .block(&*b.id),
            ),
        }
    }
    if b.data_type().is_some() && def.generic == library::Generic::No {
        errors.push(
            project
                .diag(
                    fi,
                    &here(&json_path!["data_type"]),
                    format!("{} is not generic; data_type does not apply", def.name),
                )
                .block(&*b.id),
        );
    }
}

fn input_names(def: &BlockDef) -> String {
    let mut v: Vec<String> = def.inputs.iter().map(|p| p.name.to_string()).collect();
    if let Some(va) = def.var_inputs {
        v.push(format!("{0}{1}..{0}N", va.prefix, va.first));
    }
    if v.is_empty() { "none".into() } else { v.join(", ") }
}

pub(crate) fn output_names(def: &BlockDef, n: usize) -> Vec<String> {
    let mut v: Vec<String> = def.outputs.iter().map(|p| p.name.to_string()).collect();
    if let Some(va) = def.var_outputs {
        v.extend((0..n).map(|k| format!("{}{}", va.prefix, va.first + k)));
    }
    v
}

pub(crate) fn list_or_none(v: &[&str]) -> String {
    if v.is_empty() { "none".into() } else { v.join(", ") }
}
