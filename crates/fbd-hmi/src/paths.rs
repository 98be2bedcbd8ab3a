//! Paths as a user types them in the window's fields (Open path, Save as, the recording's
//! Save as): `~` or `~/…` is the home directory, as a shell reads it. Taken as it is, `~` was
//! a folder of that name in the working directory (and a later `rm -rf ~` to clean it up would
//! delete the home directory).

use std::path::PathBuf;

use eframe::egui;

/// The path `text` names, `~` read as the home directory (`$HOME`).
pub(crate) fn typed_path(text: &str) -> PathBuf {
    typed_path_in(text, std::env::var_os("HOME"))
}

fn typed_path_in(text: &str, home: Option<std::ffi::OsString>) -> PathBuf {
    match (text.strip_prefix('~'), home) {
        (Some(rest), Some(home)) if rest.is_empty() || rest.starts_with('/') => {
            PathBuf::from(home).join(rest.trim_start_matches('/'))
        }
        _ => PathBuf::from(text),
    }
}

/// A field for a path: when `focus`, it takes the keyboard with its text selected, so a path
/// typed replaces the one shown (the last one, or a suggestion) instead of being appended to it.
pub(crate) fn path_field(ui: &mut egui::Ui, text: &mut String, width: f32, focus: bool) -> egui::Response {
    let out = egui::TextEdit::singleline(text).desired_width(width).show(ui);
    let response = out.response.response;
    if focus {
        response.request_focus();
        let mut state = out.state;
        state.cursor.set_char_range(Some(egui::text::CCursorRange::select_all_str(text)));
        state.store(ui.ctx(), response.id);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::typed_path_in as typed_path;
    use std::path::PathBuf;

    #[test]
    fn a_typed_tilde_is_the_home_directory() {
        let home = Some("/home/ada".into());
        assert_eq!(typed_path("~/plc/blink.json", home.clone()), PathBuf::from("/home/ada/plc/blink.json"));
        assert_eq!(typed_path("~", home.clone()), PathBuf::from("/home/ada"));
        assert_eq!(typed_path("~bob/x.json", home.clone()), PathBuf::from("~bob/x.json"), "another user's: as typed");
        assert_eq!(typed_path("/srv/x.json", home), PathBuf::from("/srv/x.json"));
        assert_eq!(typed_path("~/x.json", None), PathBuf::from("~/x.json"), "no home: as typed");
    }
}
