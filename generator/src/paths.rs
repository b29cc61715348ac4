//! Where things are: the book's source folders, and the page each chapter becomes.

use std::path::{Path, PathBuf};

/// The generated appendix listing every protocol name.
pub const NAMES_PAGE: &str = "protocol-names.html";

/// Where the book's sources are.
#[derive(Clone, Debug)]
pub struct BookPaths {
    /// The repository (or book) root; errors name files relative to it.
    pub root: PathBuf,
    /// `chapters/`.
    pub chapters: PathBuf,
    /// `theme/`.
    pub theme: PathBuf,
}

impl BookPaths {
    /// The standard layout under `root`.
    pub fn under(root: &Path) -> BookPaths {
        BookPaths {
            root: root.to_path_buf(),
            chapters: root.join("chapters"),
            theme: root.join("theme"),
        }
    }

    /// How errors name `path`: relative to the root, with `/`.
    pub fn label(&self, path: &Path) -> String {
        path.strip_prefix(&self.root)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/")
    }
}

/// The relative path from a page to the site's root: `""`, `"../"`, ...
pub fn root_prefix(source: &str) -> String {
    "../".repeat(source.matches('/').count())
}

/// The page a chapter becomes: `a/b.md` -> `a/b.html`.
pub fn page_path(source: &str) -> String {
    format!("{}.html", source.strip_suffix(".md").unwrap_or(source))
}

/// Joins `relative` onto the folder of `source`, refusing to leave `chapters/`.
pub fn join_relative(source: &str, relative: &str) -> Option<String> {
    let mut parts: Vec<&str> = source.split('/').collect();
    parts.pop();
    for part in relative.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            other => parts.push(other),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_between_pages_are_relative() {
        // Proves pages in folders reach the root and each other relatively.
        assert_eq!(root_prefix("intro.md"), "");
        assert_eq!(root_prefix("act1/duel.md"), "../");
        assert_eq!(page_path("act1/duel.md"), "act1/duel.html");
    }

    #[test]
    fn relative_links_stay_inside_chapters() {
        // Proves a link climbs out of a chapter's folder and no further than chapters/.
        assert_eq!(
            join_relative("act1/duel.md", "../intro.md").as_deref(),
            Some("intro.md")
        );
        assert_eq!(join_relative("intro.md", "../outside.md"), None);
    }
}
