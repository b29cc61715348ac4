//! The theme's tera templates, loaded so that an error names `theme/FILE.html:LINE:COL`; a
//! template whose real path leaves the theme is refused.

use std::collections::BTreeMap;
use std::error::Error as _;
use std::path::Path;

use tera::Tera;
use walkdir::WalkDir;

use crate::diagnostic::{Diagnostic, decode_utf8};

/// The templates of a theme, and their sources for locating errors.
pub struct Templates {
    tera: Tera,
    sources: BTreeMap<String, String>,
    folder_label: String,
}

/// Templates every theme must define.
pub const REQUIRED: &[&str] = &[
    "chapter.html",
    "index.html",
    "404.html",
    "play.html",
    "print.html",
    "sidebar.html",
];

impl Templates {
    /// Loads every `*.html` under `theme`; `label` is how errors name the folder (`theme`).
    pub fn load(theme: &Path, label: &str) -> Result<Templates, Diagnostic> {
        let mut sources = BTreeMap::new();
        let walker = WalkDir::new(theme)
            .max_depth(1)
            .follow_links(true)
            .sort_by_file_name()
            .into_iter();
        for entry in walker.filter_map(Result::ok) {
            let path = entry.path();
            if !entry.file_type().is_file()
                || path.extension().is_none_or(|extension| extension != "html")
            {
                continue;
            }
            let name = path
                .strip_prefix(theme)
                .unwrap_or(path)
                .to_string_lossy()
                .replace('\\', "/");
            let file = format!("{label}/{name}");
            if let Some(why) = crate::confine::escapes(theme, label, path) {
                return Err(Diagnostic::new(&file, 1, 1, why));
            }
            let bytes = std::fs::read(path)
                .map_err(|error| Diagnostic::new(&file, 1, 1, format!("cannot read: {error}")))?;
            sources.insert(name, decode_utf8(bytes, &file)?);
        }
        for required in REQUIRED {
            if !sources.contains_key(*required) {
                return Err(Diagnostic::new(
                    format!("{label}/{required}"),
                    1,
                    1,
                    "the theme has no such template",
                ));
            }
        }
        let mut tera = Tera::default();
        tera.autoescape_on(vec![".html"]);
        // Tera's default escaping also rewrites `/`, which breaks nothing but makes every
        // relative URL unreadable; these five characters are the ones HTML needs.
        tera.set_escape_fn(crate::html::escape);
        let templates = Templates {
            tera: Tera::default(),
            sources,
            folder_label: label.to_string(),
        };
        let pairs: Vec<(&str, &str)> = templates
            .sources
            .iter()
            .map(|(name, text)| (name.as_str(), text.as_str()))
            .collect();
        if let Err(error) = tera.add_raw_templates(pairs) {
            return Err(templates.locate(&error));
        }
        Ok(Templates { tera, ..templates })
    }

    /// Renders `name` with `context`.
    pub fn render(&self, name: &str, context: &tera::Context) -> Result<String, Diagnostic> {
        self.tera
            .render(name, context)
            .map_err(|error| self.locate(&error))
    }

    /// Turns a tera error into a diagnostic at the template line it comes from.
    fn locate(&self, error: &tera::Error) -> Diagnostic {
        let mut messages = vec![error.to_string()];
        let mut source = error.source();
        while let Some(inner) = source {
            messages.push(inner.to_string());
            source = inner.source();
        }
        let text = messages.join("\n");
        let name = self
            .sources
            .keys()
            .filter(|name| {
                text.contains(&format!("'{name}'")) || text.contains(&format!("\"{name}\""))
            })
            .max_by_key(|name| text.rfind(name.as_str()))
            .cloned()
            .unwrap_or_else(|| "?".into());
        let (line, column) = parse_position(&text)
            .or_else(|| self.find_quoted_name(&name, &text))
            .unwrap_or((1, 1));
        let summary = messages
            .iter()
            .flat_map(|message| message.lines())
            .map(str::trim)
            .filter(|line| {
                !line.is_empty()
                    && !line.starts_with("-->")
                    && !line.starts_with('|')
                    && !line.starts_with('=')
            })
            .filter(|line| !line.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .collect::<Vec<_>>()
            .join(": ");
        let message = format!("template error: {}", summary.to_lowercase_first());
        Diagnostic::new(
            format!("{}/{name}", self.folder_label),
            line,
            column,
            message,
        )
    }

    /// The line of the first use of a name the error quotes in backticks.
    fn find_quoted_name(&self, template: &str, message: &str) -> Option<(usize, usize)> {
        let source = self.sources.get(template)?;
        let start = message.find('`')? + 1;
        let end = start + message[start..].find('`')?;
        let needle = &message[start..end];
        source
            .lines()
            .enumerate()
            .find_map(|(index, line)| line.find(needle).map(|column| (index + 1, column + 1)))
    }
}

/// The `--> LINE:COL` of a parse error.
fn parse_position(text: &str) -> Option<(usize, usize)> {
    let after = &text[text.find("--> ")? + 4..];
    let token: String = after
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ':')
        .collect();
    let (line, column) = token.split_once(':')?;
    Some((line.parse().ok()?, column.parse().ok()?))
}

trait LowercaseFirst {
    fn to_lowercase_first(&self) -> String;
}

impl LowercaseFirst for String {
    fn to_lowercase_first(&self) -> String {
        let mut chars = self.chars();
        match chars.next() {
            Some(first) => first.to_lowercase().chain(chars).collect(),
            None => String::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn theme_with(chapter: &str) -> tempdir::Folder {
        let folder = tempdir::Folder::new("templates");
        for name in REQUIRED {
            std::fs::write(folder.path().join(name), "ok").unwrap();
        }
        std::fs::write(folder.path().join("chapter.html"), chapter).unwrap();
        folder
    }

    mod tempdir {
        /// A folder under the target directory, removed when dropped.
        pub struct Folder(std::path::PathBuf);
        impl Folder {
            pub fn new(name: &str) -> Folder {
                let path =
                    std::env::temp_dir().join(format!("paros-book-{name}-{}", std::process::id()));
                let _ = std::fs::remove_dir_all(&path);
                std::fs::create_dir_all(&path).unwrap();
                Folder(path)
            }
            pub fn path(&self) -> &std::path::Path {
                &self.0
            }
        }
        impl Drop for Folder {
            fn drop(&mut self) {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    #[test]
    fn parse_errors_name_template_line_and_column() {
        // Proves a syntax error in a template points at its line.
        let folder = theme_with("<p>\n{{ title }}\n{% if %}\n</p>\n");
        let error = Templates::load(folder.path(), "theme")
            .err()
            .expect("a parse error");
        assert_eq!(error.file, "theme/chapter.html");
        assert_eq!(error.line, 3, "{error}");
    }

    #[test]
    fn missing_variables_name_the_line_that_uses_them() {
        // Proves a render error points at the line using the missing variable.
        let folder = theme_with("<p>\n\n{{ missing_value }}</p>\n");
        let templates = Templates::load(folder.path(), "theme").unwrap();
        let error = templates
            .render("chapter.html", &tera::Context::new())
            .unwrap_err();
        assert_eq!(
            (error.file.as_str(), error.line),
            ("theme/chapter.html", 3),
            "{error}"
        );
    }
}
