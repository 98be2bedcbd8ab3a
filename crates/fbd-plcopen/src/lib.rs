//! PLCopen TC6 XML for FBD programs: [`import`] reads what CODESYS, OpenPLC Editor and Beremiz
//! write (`plc.xml`), [`export`] writes a project those tools open. No GUI; the `fbd` tool and
//! the HMI are clients.

mod export;
mod import;
pub mod literal;

pub use export::export;
pub use import::{Imported, import};
