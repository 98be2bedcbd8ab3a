//! Editing FBD diagrams without a GUI. The HMI's editor is a client: a [`Workspace`] holds the
//! program and its libraries as documents, every edit ([`ops`]) is checked before it is made
//! and can be undone, and saving writes only the files that changed, in the canonical text of
//! [`format`](mod@format).

pub mod check;
mod clipboard;
mod connectors;
mod extract;
pub mod format;
pub mod ops;
mod ports;
pub mod workspace;

pub use check::Checker;
pub use clipboard::copied_origin;
pub use connectors::ConnectorUse;
pub use ops::{PinList, PinType};
pub use ports::PortDetails;
pub use workspace::{BodyId, EditError, Workspace};
