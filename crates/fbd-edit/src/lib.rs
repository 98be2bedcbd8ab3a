//! Editing FBD diagrams without a GUI. The HMI's editor is a client: a [`Workspace`] holds the
//! program and its libraries as documents, every edit ([`ops`]) is checked before it is made
//! and can be undone, and saving writes only the files that changed, in the canonical text of
//! [`format`](mod@format).
//!
//! What is where: editing without a GUI: `Workspace` (the program and its included libraries as
//! documents; `ops`: add, delete, move, connect/disconnect, constants and feedback wires, negated
//! pins (`set_negated`; a renamed or removed macro port takes its instances' negations along),
//! options, rename with references following; `ports`: program and macro ports, added, renamed,
//! retyped, removed, and their details (kind, default, selector options, description); each checked
//! before it is made, refused with the reason, one undo step; undo/redo keep the canonical text of
//! the files an edit changed), save that writes only changed files (macros back to their library)
//! and refuses a program with no file of its own (`set_no_file`: embedded, imported, new), save-as
//! that copies the libraries, compile from the edited texts; `extract` (a macro made of a
//! selection); `clipboard` (blocks copied as text and pasted with fresh ids, their wires
//! following); `check` (`Checker`: the debounced background compile); `format` (the canonical file
//! text the editor saves and `fbd fmt` writes; every committed diagram is in it, so an unchanged
//! load→save is byte-identical)

pub mod check;
mod clipboard;
mod connectors;
mod extract;
pub mod format;
pub mod ladder;
pub mod ops;
mod ports;
mod st;
pub mod workspace;

pub use check::Checker;
pub use clipboard::copied_origin;
pub use connectors::ConnectorUse;
pub use ops::{PinList, PinType};
pub use ports::PortDetails;
pub use workspace::{BodyId, EditError, Workspace};
