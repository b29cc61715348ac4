//! An error located in a source file: `FILE:LINE:COL: message`, and perhaps a help.
//!
//! Several errors are shown as rustc shows them: each at its place, a long help said once for
//! all the errors that share it, and a last line counting them.

use std::collections::BTreeMap;
use std::fmt;

/// A problem in the book's sources, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Path as shown to the author, relative to the book's root (`chapters/x.md`).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// What is wrong, lower-case, without a final period.
    pub message: String,
    /// What to do about it, when there is more to say than the message.
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic at `file:line:column`.
    pub fn new(
        file: impl Into<String>,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> Diagnostic {
        Diagnostic {
            file: file.into(),
            line,
            column,
            message: message.into(),
            help: None,
        }
    }

    /// A diagnostic at `file:line:column` for `problem`, its help included.
    pub fn of(file: impl Into<String>, line: usize, column: usize, problem: Problem) -> Diagnostic {
        Diagnostic {
            help: problem.help,
            ..Diagnostic::new(file, line, column, problem.message)
        }
    }
}

/// What is wrong with something in a source, before it is placed: a message, and perhaps a help.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// What is wrong, lower-case, without a final period.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
}

impl Problem {
    /// A problem with a help.
    pub fn with_help(message: impl Into<String>, help: impl Into<String>) -> Problem {
        Problem {
            message: message.into(),
            help: Some(help.into()),
        }
    }
}

impl From<String> for Problem {
    fn from(message: String) -> Problem {
        Problem {
            message,
            help: None,
        }
    }
}

impl From<&str> for Problem {
    fn from(message: &str) -> Problem {
        Problem::from(message.to_string())
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.help {
            Some(help) => write!(formatter, "{}: {help}", self.message),
            None => write!(formatter, "{}", self.message),
        }
    }
}

impl Diagnostic {
    /// `FILE:LINE:COL: message`, without the help.
    fn located(&self) -> String {
        format!(
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(formatter, "{}", self.located())?;
        if let Some(help) = &self.help {
            write!(formatter, "\n  = help: {help}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostic {}

/// Several diagnostics from one build, shown together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

/// Each diagnostic at its place, in order; a help is said once, under the first diagnostic that
/// has it, with how many more like this follow; the last line counts them all, as rustc's does.
impl fmt::Display for Diagnostics {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut sharing: BTreeMap<&str, usize> = BTreeMap::new();
        for help in self.0.iter().filter_map(|found| found.help.as_deref()) {
            *sharing.entry(help).or_default() += 1;
        }
        for (index, diagnostic) in self.0.iter().enumerate() {
            if index > 0 {
                writeln!(formatter)?;
            }
            write!(formatter, "{}", diagnostic.located())?;
            let Some(help) = diagnostic.help.as_deref() else {
                continue;
            };
            let Some(count) = sharing.remove(help) else {
                continue;
            };
            write!(formatter, "\n  = help: {help}")?;
            if count > 1 {
                write!(
                    formatter,
                    "\n  = note: ... and {} more like this below, with the same help",
                    count - 1
                )?;
            }
        }
        let count = self.0.len();
        let plural = if count == 1 { "" } else { "s" };
        write!(
            formatter,
            "\nerror: aborting due to {count} previous error{plural}"
        )
    }
}

impl std::error::Error for Diagnostics {}

/// Maps byte offsets of a text to 1-based lines and columns.
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the line starts of `text`.
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(offset, _)| offset + 1));
        LineIndex { starts }
    }

    /// The line and column (in characters) of byte `offset` in `text`.
    pub fn locate(&self, text: &str, offset: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&start| start <= offset);
        let start = self.starts[line - 1];
        let end = offset.min(text.len());
        let column = text
            .get(start..end)
            .map_or(end - start, |part| part.chars().count())
            + 1;
        (line, column)
    }
}

/// Decodes UTF-8, or names the first invalid byte's line and column.
pub fn decode_utf8(bytes: Vec<u8>, file: &str) -> Result<String, Diagnostic> {
    match String::from_utf8(bytes) {
        Ok(text) => Ok(text),
        Err(error) => {
            let valid_up_to = error.utf8_error().valid_up_to();
            let bytes = error.into_bytes();
            let valid = std::str::from_utf8(&bytes[..valid_up_to]).expect("valid prefix");
            let (line, column) = LineIndex::new(valid).locate(valid, valid_up_to);
            Err(Diagnostic::new(
                file,
                line,
                column,
                "invalid UTF-8 (the file must be UTF-8 text)",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locates_offsets_in_characters() {
        // Proves columns count characters, so a multi-byte letter does not shift the column.
        let text = "ab\nçd\nef";
        let index = LineIndex::new(text);
        assert_eq!(index.locate(text, 0), (1, 1));
        assert_eq!(index.locate(text, 3), (2, 1));
        assert_eq!(index.locate(text, 5), (2, 2));
        assert_eq!(index.locate(text, 7), (3, 1));
    }

    #[test]
    fn a_help_shared_by_many_errors_is_said_once_and_the_rest_counted() {
        // Proves rustc's manner: every error keeps its place, a help shared by several is
        // written once, under the first, with the count of the rest, and the last line counts
        // every error; a help of its own stays under its own error.
        let shared = Problem::with_help("`{{#include ...}}` is an mdBook directive", "a long help");
        let mut found: Vec<Diagnostic> = (1..=4)
            .map(|line| Diagnostic::of("chapters/a.md", line, 1, shared.clone()))
            .collect();
        found.push(Diagnostic::of(
            "chapters/b.md",
            2,
            3,
            Problem::with_help("another problem", "another help"),
        ));
        found.push(Diagnostic::new("chapters/b.md", 9, 1, "no help here"));
        let shown = Diagnostics(found).to_string();
        assert_eq!(shown.matches("a long help").count(), 1, "{shown}");
        assert_eq!(
            shown,
            "chapters/a.md:1:1: `{{#include ...}}` is an mdBook directive\n  = help: a long help\n  \
             = note: ... and 3 more like this below, with the same help\n\
             chapters/a.md:2:1: `{{#include ...}}` is an mdBook directive\n\
             chapters/a.md:3:1: `{{#include ...}}` is an mdBook directive\n\
             chapters/a.md:4:1: `{{#include ...}}` is an mdBook directive\n\
             chapters/b.md:2:3: another problem\n  = help: another help\n\
             chapters/b.md:9:1: no help here\n\
             error: aborting due to 6 previous errors"
        );
    }

    #[test]
    fn a_single_error_shows_its_help_and_is_counted() {
        let one = Diagnostics(vec![Diagnostic::of(
            "chapters/a.md",
            1,
            2,
            Problem::with_help("wrong", "do this"),
        )]);
        assert_eq!(
            one.to_string(),
            "chapters/a.md:1:2: wrong\n  = help: do this\nerror: aborting due to 1 previous error"
        );
    }

    #[test]
    fn invalid_utf8_names_line_and_column() {
        // Proves a bad byte is reported where it is.
        let error = decode_utf8(b"one\ntw\xffo".to_vec(), "chapters/x.md").unwrap_err();
        assert_eq!(
            error.to_string(),
            "chapters/x.md:2:3: invalid UTF-8 (the file must be UTF-8 text)"
        );
    }
}
