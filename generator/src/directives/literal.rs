//! `{{ literal "14786" }}`: a number written by hand that only coincides with a report's figure
//! (a year, a page, a paragraph's number). It shows the number as written, and the
//! hand-written-figure rule of `figure` (`directives/figure.rs`) leaves it alone, as it leaves
//! every directive's own text.

use crate::diagnostic::Problem;
use crate::directive::{Call, Context, Directive, Form, Rendered};

/// The `literal` directive.
pub struct Literal;

impl Directive for Literal {
    fn form(&self) -> Form {
        Form::Inline {
            keyword: "literal",
            arguments: &["number"],
        }
    }

    fn render(&self, call: &Call<'_>, _context: &Context<'_>) -> Result<Rendered, Problem> {
        let number = &call.arguments[0];
        if !is_number(number) {
            return Err(format!(
                "`{{{{ literal \"{number}\" }}}}` holds a number written in digits \
                 (`14786` or `14,786`), found `{number}`"
            )
            .into());
        }
        Ok(Rendered::plain(number.clone()))
    }
}

/// Whether `text` is a number in digits, grouped by thousands or not: `14786`, `14,786`.
fn is_number(text: &str) -> bool {
    let mut groups = text.split(',');
    let first = groups.next().unwrap_or("");
    let digits = |group: &str| !group.is_empty() && group.bytes().all(|byte| byte.is_ascii_digit());
    if !text.contains(',') {
        return digits(first);
    }
    digits(first) && first.len() <= 3 && groups.all(|group| digits(group) && group.len() == 3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_numbers_in_digits_are_literals() {
        // Proves the escape holds a number and nothing else, so it cannot hide a figure's words.
        assert!(is_number("14786"));
        assert!(is_number("14,786"));
        assert!(is_number("2,000,000"));
        assert!(!is_number("14,78"));
        assert!(!is_number("1478,6"));
        assert!(!is_number("12a"));
        assert!(!is_number(""));
        assert!(!is_number(",123"));
    }
}
