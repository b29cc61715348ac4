//! Symbol links: rustdoc's intra-doc syntax relative to paros-core's root
//! (`[`Acceptor::on_prepare`]`, `[text](Ballot::next_above)`), and protocol names of the
//! glossary (`[promise rule]`), each a link to the item's API page.

use crate::diagnostic::Problem;
use crate::directive::{Call, Context, Directive, Form, Rendered, UNRESOLVED_REFERENCE};
use crate::symbols::{Symbol, looks_like_path};

/// The symbol-link directive.
pub struct SymbolLink;

impl Directive for SymbolLink {
    fn form(&self) -> Form {
        Form::Link { claims }
    }

    fn render(&self, call: &Call<'_>, context: &Context<'_>) -> Result<Rendered, Problem> {
        let destination = &call.arguments[0];
        let href = match destination.strip_prefix(UNRESOLVED_REFERENCE) {
            Some(reference) => resolve_reference(reference, call.root, context)?,
            None => resolve_symbol(destination, call.root, context)?,
        };
        Ok(Rendered::plain(href))
    }
}

/// Whether a link's destination names a symbol: a reference Markdown left unresolved, or a
/// path (`Ballot::next_above`) that is no URL, no chapter and carries no anchor.
fn claims(destination: &str) -> bool {
    if destination.starts_with(UNRESOLVED_REFERENCE) {
        return true;
    }
    if destination.contains("://")
        || destination.starts_with("mailto:")
        || destination.starts_with("//")
    {
        return false;
    }
    let (path, anchor) = destination.split_once('#').unwrap_or((destination, ""));
    !path.is_empty() && !path.ends_with(".md") && looks_like_path(path) && anchor.is_empty()
}

fn symbol_href(symbol: &Symbol, root: &str, context: &Context<'_>) -> String {
    format!("{root}api/{}", context.symbols.url(symbol))
}

/// `[name]` alone: a protocol name of the glossary, else a symbol.
fn resolve_reference(reference: &str, root: &str, context: &Context<'_>) -> Result<String, String> {
    let name = reference.trim().trim_matches('`');
    if let Some(term) = context.glossary.get(name) {
        return Ok(symbol_href(&term.symbol, root, context));
    }
    if looks_like_path(name) {
        return resolve_symbol(name, root, context);
    }
    let nearest = context.glossary.nearest(name);
    let hint = if nearest.is_empty() {
        String::new()
    } else {
        format!("; nearest names: {}", nearest.join(", "))
    };
    Err(format!(
        "`[{name}]` is neither a glossary name nor a symbol{hint}"
    ))
}

fn resolve_symbol(name: &str, root: &str, context: &Context<'_>) -> Result<String, String> {
    let symbol = context.symbols.find(name)?;
    Ok(symbol_href(symbol, root, context))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn claims_symbols_and_references_and_leaves_other_links() {
        // Proves which links are symbol links: the rest go to the chapter-link checks.
        assert!(claims("paros-reference:promise rule"));
        assert!(claims("Ballot::next_above"));
        assert!(claims("promise_rule"));
        assert!(!claims("https://example.org/a"));
        assert!(!claims("one.md"));
        assert!(!claims("one.md#rules"));
        assert!(!claims("#rules"));
        assert!(!claims("figures/phases.svg"));
    }
}
