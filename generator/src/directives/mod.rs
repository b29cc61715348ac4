//! The table of directives, and how a chapter's forms are matched to them.
//!
//! Adding a directive is one new file in this folder, implementing
//! [`Directive`], its `mod` line here and its line in [`TABLE`];
//! nothing else names it.
//! The table's order is the order the error listing the known forms gives them in.
//!
//! Any other `{{` in prose is an error that lists the known forms ([`unknown_directive`]); so is
//! an mdBook directive such as `{{#include file.rs}}` anywhere, code blocks included
//! ([`mdbook_directives`]).

mod code;
mod figure;
mod level;
mod level_map;
mod literal;
mod proven;
mod symbol_link;

pub use proven::replay_counterexample;

use std::ops::Range;

use crate::diagnostic::Problem;
use crate::directive::{Directive, Form, braces, quoted_words};

/// Every directive of the book.
pub static TABLE: &[&dyn Directive] = &[
    &level::LevelEmbed,
    &proven::ProvenEmbed,
    &code::CodeEmbed,
    &level_map::LevelMapEmbed,
    &figure::FigureEmbed,
    &literal::Literal,
    &symbol_link::SymbolLink,
];

/// A form of a chapter matched to its directive, with its arguments.
pub struct Matched {
    /// The directive.
    pub directive: &'static dyn Directive,
    /// Its keyword (empty for a link).
    pub keyword: &'static str,
    /// The arguments it was given.
    pub arguments: Vec<String>,
}

/// The paragraph directives' keywords and arities.
fn paragraph_forms() -> impl Iterator<Item = (&'static dyn Directive, &'static str, usize)> {
    TABLE.iter().filter_map(|directive| match directive.form() {
        Form::Paragraph { keyword, arguments } => Some((*directive, keyword, arguments.len())),
        _ => None,
    })
}

/// The inline directives' keywords and arities.
fn inline_forms() -> impl Iterator<Item = (&'static dyn Directive, &'static str, usize)> {
    TABLE.iter().filter_map(|directive| match directive.form() {
        Form::Inline { keyword, arguments } => Some((*directive, keyword, arguments.len())),
        _ => None,
    })
}

/// `a`, `a and b`, `a, b and c`.
fn listed(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The forms the book knows, as an error's help lists them, from the table.
pub fn known_forms() -> String {
    let usages = |inline: bool| -> Vec<String> {
        TABLE
            .iter()
            .map(|directive| directive.form())
            .filter(|form| matches!(form, Form::Inline { .. }) == inline)
            .filter_map(|form| form.usage())
            .map(|usage| format!("`{usage}`"))
            .collect()
    };
    format!(
        "the book knows {}, each a paragraph of its own, and {} inside a sentence; write `\\{{{{` \
         for literal braces",
        listed(&usages(false)),
        listed(&usages(true))
    )
}

/// Why `{{inner}}` is not a directive of this book: it names the forms that exist, and for an
/// mdBook directive (`{{#include ...}}`) what to write instead.
pub fn unknown_directive(inner: &str) -> Problem {
    let inner = inner.trim();
    let keyword: String = inner
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '}')
        .collect();
    let known = known_forms();
    if let Some(mdbook) = keyword.strip_prefix('#') {
        let instead = match mdbook {
            "include" | "rustdoc_include" | "playground" | "playpen" => {
                "to show paros-core's code write `{{ code \"item\" }}`, which reads the item's \
                 lines from its rustdoc span and so never drifts; any other text, copy into the chapter"
            }
            "title" => "the page title comes from SUMMARY.md",
            _ => "paros-book has no mdBook preprocessors",
        };
        return Problem::with_help(
            format!(
                "`{{{{{keyword} ...}}}}` is an mdBook directive, which paros-book does not run"
            ),
            format!("{instead}; {known}"),
        );
    }
    Problem::with_help(format!("unknown directive `{{{{{keyword}...}}}}`"), known)
}

/// The mdBook directives (`{{#include ...}}`, `{{#rustdoc_include ...}}`) in a code block's
/// source, by byte offset. Every other `{{` in code is text, and so is `\{{#`, mdBook's own
/// escape.
pub fn mdbook_directives(code: &str) -> Vec<(usize, Problem)> {
    code.match_indices("{{#")
        .filter(|(at, _)| !code[..*at].ends_with('\\'))
        .filter(|(at, _)| {
            code[at + 3..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
        })
        .map(|(at, _)| {
            let end = code[at..].find("}}").map_or(code.len(), |end| at + end);
            (at, unknown_directive(&code[at + 2..end]))
        })
        .collect()
}

/// A code block's text as the page shows it: mdBook's escape `\{{#` becomes `{{#`.
pub fn unescape_code(code: &str) -> String {
    code.replace("\\{{#", "{{#")
}

/// Matches a paragraph's source if it starts with `{{`. `None`: not a paragraph directive (an
/// inline one, or text); `Some(Err)`: a malformed one, or a directive this book does not know,
/// with the reason.
pub fn paragraph(source: &str) -> Option<Result<Matched, Problem>> {
    let text = source.trim();
    let inner = text.strip_prefix("{{")?;
    let keyword = inner
        .trim_start()
        .split(|c: char| c.is_whitespace() || c == '"' || c == '}')
        .next()
        .unwrap_or("");
    if inline_forms().any(|(_, inline, _)| inline == keyword) {
        return None;
    }
    let Some((directive, keyword, arity)) =
        paragraph_forms().find(|(_, known, _)| *known == keyword)
    else {
        let end = inner.find("}}").unwrap_or(inner.len());
        return Some(Err(unknown_directive(&inner[..end])));
    };
    let Some(inner) = inner.strip_suffix("}}") else {
        return Some(Err(
            "an embed must be alone in its paragraph and end with `}}`".into(),
        ));
    };
    let argument = inner.trim()[keyword.len()..].trim();
    let matched = |arguments| Matched {
        directive,
        keyword,
        arguments,
    };
    if arity == 0 {
        return Some(if argument.is_empty() {
            Ok(matched(Vec::new()))
        } else {
            Err(format!("`{{{{ {keyword} }}}}` takes no name, found `{argument}`").into())
        });
    }
    let Some(name) = argument
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    else {
        return Some(Err(format!(
            "expected `{{{{ {keyword} \"name\" }}}}`: the name must be in double quotes"
        )
        .into()));
    };
    if name.is_empty() || name.contains('"') || name.chars().any(char::is_whitespace) {
        return Some(Err(format!("malformed name `{name}` in the embed").into()));
    }
    Some(Ok(matched(vec![name.to_string()])))
}

/// Every brace form in a run of text, matched to its inline directive: its byte range and what
/// it matched, or why it is no inline directive. A `{{` right after a backslash is text.
pub fn inline(text: &str) -> Vec<(Range<usize>, Result<Matched, Problem>)> {
    braces(text)
        .into_iter()
        .map(|(range, inner)| {
            let matched = match inner {
                Some(inner) => match_inline(inner),
                None => Err("a directive must end with `}}`".into()),
            };
            (range, matched)
        })
        .collect()
}

/// Matches the inside of one brace form of a sentence, braces excluded.
fn match_inline(inner: &str) -> Result<Matched, Problem> {
    let trimmed = inner.trim();
    let found = inline_forms().find_map(|(directive, keyword, arity)| {
        let rest = trimmed.strip_prefix(keyword)?;
        Some((directive, keyword, arity, rest))
    });
    let Some((directive, keyword, arity, rest)) = found else {
        let keyword = inner.split_whitespace().next().unwrap_or("");
        return Err(
            if paragraph_forms().any(|(_, paragraph, _)| paragraph == keyword) {
                let inline: Vec<String> = inline_forms()
                    .map(|(_, keyword, _)| format!("`{keyword}`"))
                    .collect();
                format!(
                    "only {} may stand inside a sentence; `{keyword}` is a paragraph of its own",
                    listed(&inline)
                )
                .into()
            } else {
                unknown_directive(inner)
            },
        );
    };
    let usage = directive.form().usage().unwrap_or_default();
    let malformed = || Problem::from(format!("expected `{usage}`, found `{{{{{inner}}}}}`"));
    if !rest.starts_with(char::is_whitespace) {
        return Err(malformed());
    }
    match quoted_words(rest) {
        Some(arguments) if arguments.len() == arity => Ok(Matched {
            directive,
            keyword,
            arguments,
        }),
        _ => Err(malformed()),
    }
}

/// The link directive whose form claims a link's destination, if any.
pub fn link(destination: &str) -> Option<&'static dyn Directive> {
    TABLE
        .iter()
        .copied()
        .find(|directive| matches!(directive.form(), Form::Link { claims } if claims(destination)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A paragraph's keyword and arguments, or its error.
    fn parse(source: &str) -> Option<Result<(&'static str, Vec<String>), Problem>> {
        paragraph(source).map(|matched| matched.map(|found| (found.keyword, found.arguments)))
    }

    /// The first inline form's keyword and arguments, or its error.
    fn first_inline(text: &str) -> Result<(&'static str, Vec<String>), Problem> {
        inline(text)
            .remove(0)
            .1
            .map(|found| (found.keyword, found.arguments))
    }

    fn named(
        keyword: &'static str,
        name: &str,
    ) -> Option<Result<(&'static str, Vec<String>), Problem>> {
        Some(Ok((keyword, vec![name.to_string()])))
    }

    #[test]
    fn parses_embeds_and_explains_malformed_ones() {
        // Proves the paragraph forms parse and every malformed shape has a reason.
        assert_eq!(
            parse("{{ level \"act1/choose-a-value\" }}"),
            named("level", "act1/choose-a-value")
        );
        assert_eq!(
            parse("{{proven \"act1-duel\"}}\n"),
            named("proven", "act1-duel")
        );
        assert_eq!(parse("Some text {{ level \"x\" }}"), None);
        assert!(matches!(parse("{{ level act1 }}"), Some(Err(_))));
        assert!(
            matches!(parse("{{ lvl \"x\" }}"), Some(Err(problem)) if problem.message == "unknown directive `{{lvl...}}`")
        );
        assert!(matches!(parse("{{ level \"x\" "), Some(Err(_))));
        assert_eq!(
            parse("{{ code \"Acceptor::on_accept\" }}"),
            named("code", "Acceptor::on_accept")
        );
        assert_eq!(
            parse("{{ level-map }}"),
            Some(Ok(("level-map", Vec::new())))
        );
        assert_eq!(
            parse("{{level-map}}\n"),
            Some(Ok(("level-map", Vec::new())))
        );
        assert!(
            matches!(parse("{{ level-map \"act1\" }}"), Some(Err(problem)) if problem.message.contains("takes no name"))
        );
        assert!(
            matches!(parse("{{ level-map"), Some(Err(problem)) if problem.message.contains("end with `}}`"))
        );
        assert_eq!(
            first_inline("see {{ level-map }} here"),
            Err(
                "only `figure` and `literal` may stand inside a sentence; `level-map` is a \
                 paragraph of its own"
                    .into()
            )
        );
    }

    #[test]
    fn unknown_directives_name_the_forms_that_exist() {
        // Proves an mdBook include and a made-up directive both fail, naming every form of the
        // book, and the include says what to use instead.
        let include = match parse("{{#include ../listings/main.rs:here}}") {
            Some(Err(problem)) => problem,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            include.message,
            "`{{#include ...}}` is an mdBook directive, which paros-book does not run"
        );
        let help = include.help.unwrap();
        assert!(help.contains("write `{{ code \"item\" }}`"), "{help}");
        assert!(
            help.ends_with(
                "the book knows `{{ level \"id\" }}`, `{{ proven \"scenario\" }}`, \
                 `{{ code \"item\" }}` and `{{ level-map }}`, each a paragraph of its own, and \
                 `{{ figure \"scenario\" \"field\" }}` and `{{ literal \"number\" }}` inside a \
                 sentence; write `\\{{` for literal braces"
            ),
            "{help}"
        );
        let inline = inline("see {{ chart \"x\" }} here").remove(0);
        assert_eq!(inline.0, 4..19);
        let unknown = inline.1.err().unwrap();
        assert_eq!(unknown.message, "unknown directive `{{chart...}}`");
        assert!(unknown.help.unwrap().starts_with("the book knows"));
    }

    #[test]
    fn figures_parse_inside_sentences_and_explain_malformed_ones() {
        // Proves the inline form is found with its range, an escaped one is text, and every
        // malformed shape or block embed inside a sentence has a reason.
        let text = r#"took {{ figure "act2-long" "steps" }} steps, \{{ figure "x" "y" }}"#;
        let found = inline(text);
        assert_eq!(found.len(), 1);
        let (range, matched) = &found[0];
        assert_eq!(&text[range.clone()], r#"{{ figure "act2-long" "steps" }}"#);
        let matched = matched.as_ref().ok().unwrap();
        assert_eq!(
            (matched.keyword, matched.arguments.clone()),
            ("figure", vec!["act2-long".to_string(), "steps".to_string()])
        );
        let reason = |text: &str| first_inline(text).unwrap_err().message;
        assert!(reason(r#"{{ figure "act2-long" }}"#).contains("expected `{{ figure"));
        assert!(reason(r#"{{ figure act2-long steps }}"#).contains("expected `{{ figure"));
        assert!(
            reason(r#"{{ proven "act2-long" }}"#).contains("`proven` is a paragraph of its own")
        );
        assert!(reason(r#"{{ figure "act2-long" "steps""#).contains("must end with `}}`"));
        assert!(parse(r#"{{ figure "act2-long" "steps" }} steps were taken."#).is_none());
    }

    #[test]
    fn code_blocks_refuse_mdbook_directives_and_keep_other_braces() {
        // Proves an mdBook directive in code is found at its offset, while format strings,
        // templates and the escaped `\{{#` stay text (the escape's backslash is dropped).
        let code = "println!(\"{{}}\");\n{{#rustdoc_include ../a.rs}}\n\\{{#include b.rs}}\n";
        let found = mdbook_directives(code);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].0, code.find("{{#rustdoc").unwrap());
        assert!(
            found[0]
                .1
                .message
                .starts_with("`{{#rustdoc_include ...}}` is an mdBook directive")
        );
        assert!(mdbook_directives("{{ level \"x\" }} {{#}}").is_empty());
        assert_eq!(unescape_code("\\{{#include b.rs}}"), "{{#include b.rs}}");
    }

    #[test]
    fn each_form_finds_its_directive() {
        // Proves the table answers for every form: links by their destination.
        assert!(link("Ballot::next_above").is_some());
        assert!(link("one.md#rules").is_none());
        for directive in TABLE {
            if let Some(usage) = directive.form().usage() {
                assert!(known_forms().contains(&usage), "{usage}");
            }
        }
    }
}
