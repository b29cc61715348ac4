//! Sources stay inside the book: a chapter, template, figure or any file copied into the site
//! whose real path (symbolic links followed) leaves the folder it is read from is refused, so a
//! link can never publish a file from elsewhere on the machine.

use std::path::Path;

/// Why `path` may not be read as part of `folder` (named `label` in the message), or `None`
/// when its real path is inside. A path that does not resolve is left to the reader to report.
pub fn escapes(folder: &Path, label: &str, path: &Path) -> Option<String> {
    let real = std::fs::canonicalize(path).ok()?;
    let real_folder = std::fs::canonicalize(folder).ok()?;
    if real.starts_with(&real_folder) {
        return None;
    }
    Some(format!(
        "refused: it is a symbolic link to {}, outside {label}/, and the book publishes only \
         files inside its own folders",
        real.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_out_of_the_folder_is_refused_and_one_inside_is_not() {
        // Proves the real path decides: a link to a file beside the folder escapes, a link to a
        // file inside it and a plain file do not, and a dangling link is left to the reader.
        let base = std::env::temp_dir().join(format!("paros-confine-{}", std::process::id()));
        let folder = base.join("chapters");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(base.join("secret.md"), "outside").unwrap();
        std::fs::write(folder.join("intro.md"), "inside").unwrap();
        std::os::unix::fs::symlink(base.join("secret.md"), folder.join("out.md")).unwrap();
        std::os::unix::fs::symlink(folder.join("intro.md"), folder.join("in.md")).unwrap();
        std::os::unix::fs::symlink(base.join("missing.md"), folder.join("dangling.md")).unwrap();
        let why = escapes(&folder, "chapters", &folder.join("out.md")).expect("refused");
        assert!(
            why.contains("secret.md") && why.contains("outside chapters/"),
            "{why}"
        );
        assert_eq!(escapes(&folder, "chapters", &folder.join("in.md")), None);
        assert_eq!(escapes(&folder, "chapters", &folder.join("intro.md")), None);
        assert_eq!(
            escapes(&folder, "chapters", &folder.join("dangling.md")),
            None
        );
        std::fs::remove_dir_all(base).unwrap();
    }
}
