//! A window over the panels (Tests, Serve on network): drawn while open, each frame lent the
//! scan image and the link as the docked panels are; what it asks of the application is a
//! [`UiCommand`]. A new window is a new file with a struct that implements [`Window`], a field
//! of `App` and one entry in the shell's list of windows (`App::ui`).

use eframe::egui;

use crate::link::FrameCtx;
use crate::ui_command::UiCommand;

/// A window of the shell.
pub(crate) trait Window {
    /// Draws the window if it is open; what it asks of the application this frame.
    fn show(&mut self, ctx: &egui::Context, cx: FrameCtx<'_>) -> Option<UiCommand>;
}

/// A window that exists only while open (the Tests window holds a run's results).
impl<W: Window> Window for Option<W> {
    fn show(&mut self, ctx: &egui::Context, cx: FrameCtx<'_>) -> Option<UiCommand> {
        self.as_mut()?.show(ctx, cx)
    }
}
