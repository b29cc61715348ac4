//! An error located in a source file: `FILE:LINE:COL: message`.

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
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            formatter,
            "{}:{}:{}: {}",
            self.file, self.line, self.column, self.message
        )
    }
}

impl std::error::Error for Diagnostic {}

/// Several diagnostics from one build, shown together.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, diagnostic) in self.0.iter().enumerate() {
            if index > 0 {
                writeln!(formatter)?;
            }
            write!(formatter, "{diagnostic}")?;
        }
        Ok(())
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
    fn invalid_utf8_names_line_and_column() {
        // Proves a bad byte is reported where it is.
        let error = decode_utf8(b"one\ntw\xffo".to_vec(), "chapters/x.md").unwrap_err();
        assert_eq!(
            error.to_string(),
            "chapters/x.md:2:3: invalid UTF-8 (the file must be UTF-8 text)"
        );
    }
}
