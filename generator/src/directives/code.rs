//! `{{ code "promise_rule" }}`: the source of a paros-core item, read from the lines of its
//! rustdoc span, highlighted, under a caption that links its API page and names the file and
//! lines.

use crate::diagnostic::Problem;
use crate::directive::{Call, Context, Directive, Form, Rendered};
use crate::html::escape;
use crate::symbols::{Kind, SymbolIndex};

/// The `code` directive.
pub struct CodeEmbed;

impl Directive for CodeEmbed {
    fn form(&self) -> Form {
        Form::Paragraph {
            keyword: "code",
            arguments: &["item"],
        }
    }

    fn render(&self, call: &Call<'_>, context: &Context<'_>) -> Result<Rendered, Problem> {
        render_code(&call.arguments[0], context.symbols, call.root)
            .map(Rendered::plain)
            .map_err(Problem::from)
    }
}

/// The HTML of a `{{ code "item" }}` embed. `root` leads from the page to the site's root.
pub fn render_code(name: &str, symbols: &SymbolIndex, root: &str) -> Result<String, String> {
    let cannot = |why: String| format!("cannot embed the code of `{name}`: {why}");
    let symbol = symbols.find(name).map_err(cannot)?;
    if symbol.kind == Kind::Module {
        return Err(cannot(format!(
            "`{}` is a module; embed one of its items",
            symbol.path
        )));
    }
    let span = symbol
        .span
        .as_ref()
        .ok_or_else(|| cannot(format!("rustdoc gives `{}` no source span", symbol.path)))?;
    let code = dedent(&symbols.source_lines(span).map_err(cannot)?);
    let lines = if span.first_line == span.last_line {
        format!("line {}", span.first_line)
    } else {
        format!("lines {}–{}", span.first_line, span.last_line)
    };
    Ok(format!(
        "<figure class=\"code-embed\" data-item=\"{path}\">\n<pre class=\"code\" tabindex=\"0\"><code class=\"language-rust\">{body}</code></pre>\n\
         <figcaption><a href=\"{root}api/{url}\"><code>{path}</code></a> \
         <span class=\"code-where\">{file}, {lines}</span></figcaption>\n</figure>\n",
        path = escape(&symbol.path),
        body = crate::highlight::highlight(&format!("{code}\n"), "rust"),
        url = symbols.url(symbol),
        file = escape(&span.file),
    ))
}

/// Removes the indentation every non-blank line shares (a method's, inside its impl).
fn dedent(code: &str) -> String {
    let indent = code
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    code.lines()
        .map(|line| line.get(indent..).unwrap_or("").trim_end())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_lose_the_indentation_of_their_impl() {
        // Proves the shared indent goes and relative indentation and blank lines stay.
        assert_eq!(
            dedent("    fn a() {\n\n        b();\n    }"),
            "fn a() {\n\n    b();\n}"
        );
    }
}
