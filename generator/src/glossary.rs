//! `chapters/glossary.toml`: protocol names ("promise rule", "P2c") mapped to paros-core symbols,
//! so a chapter can write `[promise rule]` and get a link to the real item.
//!
//! The file is a flat table, one name per line:
//!
//! ```toml
//! "promise rule" = "promise_rule"
//! "P2c" = "select_value"
//! ```
//!
//! Names match case-insensitively; each symbol must resolve, or the build fails naming the line.

use std::collections::BTreeMap;

use crate::diagnostic::{Diagnostic, LineIndex};
use crate::symbols::{Resolution, Symbol, SymbolIndex};

/// One glossary entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// The name as written in glossary.toml.
    pub name: String,
    /// The symbol it maps to, as written.
    pub target: String,
    /// The resolved symbol.
    pub symbol: Symbol,
}

/// The glossary, keyed by lower-case name.
#[derive(Clone, Debug, Default)]
pub struct Glossary {
    terms: BTreeMap<String, Term>,
}

impl Glossary {
    /// Parses and resolves glossary.toml; `file` names it in errors.
    pub fn parse(
        text: &str,
        file: &str,
        symbols: &SymbolIndex,
    ) -> Result<Glossary, Vec<Diagnostic>> {
        let lines = LineIndex::new(text);
        let table: toml::Table = text.parse().map_err(|error: toml::de::Error| {
            let offset = error.span().map_or(0, |span| span.start);
            let (line, column) = lines.locate(text, offset);
            vec![Diagnostic::new(
                file,
                line,
                column,
                format!("invalid TOML: {}", error.message()),
            )]
        })?;
        let mut glossary = Glossary::default();
        let mut errors = Vec::new();
        for (name, value) in table {
            let offset = find_key(text, &name);
            let (line, column) = lines.locate(text, offset);
            let Some(target) = value.as_str() else {
                errors.push(Diagnostic::new(
                    file,
                    line,
                    column,
                    format!("`{name}` must map to a symbol path string"),
                ));
                continue;
            };
            match symbols.resolve(target) {
                Resolution::Found(symbol) => {
                    let term = Term {
                        name: name.clone(),
                        target: target.to_string(),
                        symbol: symbol.clone(),
                    };
                    if glossary.terms.insert(name.to_lowercase(), term).is_some() {
                        errors.push(Diagnostic::new(
                            file,
                            line,
                            column,
                            format!("`{name}` is listed twice (names ignore case)"),
                        ));
                    }
                }
                Resolution::Unknown { nearest } => errors.push(Diagnostic::new(
                    file,
                    line,
                    column,
                    format!(
                        "`{name}` maps to unknown symbol `{target}`; nearest: {}",
                        nearest.join(", ")
                    ),
                )),
                Resolution::Ambiguous { candidates } => errors.push(Diagnostic::new(
                    file,
                    line,
                    column,
                    format!(
                        "`{name}` maps to ambiguous symbol `{target}`: {}",
                        candidates.join(", ")
                    ),
                )),
            }
        }
        if errors.is_empty() {
            Ok(glossary)
        } else {
            Err(errors)
        }
    }

    /// The term named `name`, ignoring case.
    pub fn get(&self, name: &str) -> Option<&Term> {
        self.terms.get(&name.trim().to_lowercase())
    }

    /// Every term, sorted by lower-case name.
    pub fn terms(&self) -> impl Iterator<Item = &Term> {
        self.terms.values()
    }

    /// The names closest to `wanted`.
    pub fn nearest(&self, wanted: &str) -> Vec<String> {
        let wanted = wanted.to_lowercase();
        let mut scored: Vec<(usize, &str)> = self
            .terms
            .iter()
            .map(|(key, term)| {
                (
                    crate::symbols::edit_distance(&wanted, key),
                    term.name.as_str(),
                )
            })
            .collect();
        scored.sort();
        scored
            .into_iter()
            .take(2)
            .filter(|(distance, _)| *distance <= 3)
            .map(|(_, name)| name.to_string())
            .collect()
    }
}

/// Byte offset of the line defining `name`, or 0.
fn find_key(text: &str, name: &str) -> usize {
    let quoted = format!("\"{name}\"");
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        if trimmed.starts_with(&quoted)
            || trimmed.starts_with(&format!("{name} "))
            || trimmed.starts_with(&format!("{name}="))
        {
            return offset + (line.len() - trimmed.len());
        }
        offset += line.len();
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbols::Kind;

    fn symbols() -> SymbolIndex {
        SymbolIndex::from_symbols(
            "paros_core",
            vec![
                Symbol::new("promise_rule", Kind::Function),
                Symbol::new("select_value", Kind::Function),
            ],
        )
    }

    #[test]
    fn names_resolve_ignoring_case() {
        // Proves a name at the start of a sentence still finds its term.
        let glossary = Glossary::parse(
            "\"promise rule\" = \"promise_rule\"\nP2c = \"select_value\"\n",
            "g.toml",
            &symbols(),
        )
        .unwrap();
        assert_eq!(
            glossary.get("Promise rule").unwrap().symbol.path,
            "promise_rule"
        );
        assert_eq!(glossary.get("p2c").unwrap().symbol.path, "select_value");
        assert!(glossary.get("vote rule").is_none());
    }

    #[test]
    fn unknown_symbol_names_the_line() {
        // Proves a glossary entry that drifted from the code fails at its line.
        let errors = Glossary::parse(
            "P2c = \"select_value\"\n\"vote rule\" = \"vote_rul\"\n",
            "chapters/glossary.toml",
            &symbols(),
        )
        .unwrap_err();
        assert_eq!(errors.len(), 1);
        assert!(
            errors[0]
                .to_string()
                .starts_with("chapters/glossary.toml:2:1: `vote rule` maps to unknown symbol"),
            "{}",
            errors[0]
        );
    }
}
