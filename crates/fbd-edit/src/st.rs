//! Editing a body's Structured Text: its lines replaced as one undoable step (`Workspace::edit`),
//! the file's format version raised to 6 where it gains its first ST. Whether the text
//! compiles is the background check's to say (every error at its line and column), as for
//! any other edit.

use fbd_model::model::{Block, TypeName, Variable};

use crate::workspace::{BodyId, EditError, Workspace};

impl Workspace {
    /// The Structured Text lines of `body` (empty for a body in another language).
    pub fn st(&self, body: &BodyId) -> &[String] {
        match body {
            BodyId::Program => &self.root().st,
            BodyId::Macro(m) => self.macro_def(m).map_or(&[], |d| &d.st),
        }
    }

    /// Replaces the ST of `body` with `text` (its lines); an unchanged text is no edit.
    pub fn set_st(&mut self, body: &BodyId, text: &str) -> Result<bool, EditError> {
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        if lines == self.st(body) {
            return Ok(false);
        }
        if !self.ladder(body).is_empty() {
            return Err(EditError("this body is a ladder network: a body is written in one language".into()));
        }
        let n = lines.len();
        let body = body.clone();
        self.edit(format!("edit the Structured Text ({n} lines)"), move |w| {
            let file = w.file_of(&body);
            let b = w.body_mut(&body)?;
            *b.st = lines;
            let doc = w.doc_mut(file);
            doc.fbd = doc.fbd.max(doc.version_needed());
            Ok(true)
        })
    }

    /// Declares `name` in `body`, as an ST body's text names it: a variable of type `ty` (an
    /// IEC elementary type), or an instance of function block `ty` (TON, CTU, a macro).
    pub fn declare(&mut self, body: &BodyId, name: &str, ty: &str) -> Result<(), EditError> {
        let ok = !name.is_empty()
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !name.starts_with(|c: char| c.is_ascii_digit());
        if !ok {
            return Err(EditError(format!("`{name}` is no name: letters, digits and `_`, not starting with a digit")));
        }
        let fb = fbd_model::library::lookup(&ty.to_ascii_uppercase())
            .filter(|d| d.stateful)
            .map(|d| d.name.to_string())
            .or_else(|| self.macro_def(ty).map(|m| m.name.clone()));
        let t = fbd_model::iec::elementary(ty);
        if t.is_none() && fb.is_none() {
            return Err(EditError(format!(
                "`{ty}` is no elementary type (BOOL, INT, DINT, REAL, TIME, ...) nor a function block (TON, CTU, a macro)"
            )));
        }
        if self.variables(body).iter().any(|v| v.name.eq_ignore_ascii_case(name)) {
            return Err(EditError(format!("`{name}` is declared already")));
        }
        let (body, name) = (body.clone(), name.to_string());
        let what = t.map_or_else(|| fb.clone().unwrap_or_default(), |t| t.name().to_string());
        self.edit(format!("declare `{name}` : {what}"), move |w| {
            let file = w.file_of(&body);
            let b = w.body_mut(&body)?;
            if b.inputs.iter().any(|i| i.eq_ignore_ascii_case(&name))
                || b.blocks.iter().any(|x| x.id.eq_ignore_ascii_case(&name))
            {
                return Err(EditError(format!("`{name}` names an input or a block of the body already")));
            }
            match (t, fb) {
                (Some(t), _) => b.variables.push(Variable {
                    name,
                    ty: TypeName(t),
                    data_type: None,
                    init_name: None,
                    init_elements: Vec::new(),
                    init: None,
                    input: false,
                    temp: false,
                    description: None,
                }),
                (None, Some(fb)) => b.blocks.push(Block::instance(name, fb)),
                (None, None) => {}
            }
            let doc = w.doc_mut(file);
            doc.fbd = doc.fbd.max(doc.version_needed());
            Ok(())
        })
    }
}
