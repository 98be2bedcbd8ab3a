//! Editing FBD diagrams without a GUI. The HMI's editor and the `fbd` tool are clients:
//! [`format`] is the canonical file text.

pub mod format;
