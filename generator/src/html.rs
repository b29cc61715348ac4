//! Text as the pages write it: HTML escaping and numbers grouped by thousands.

/// Escapes text for HTML.
pub fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => escaped.push_str("&amp;"),
            '<' => escaped.push_str("&lt;"),
            '>' => escaped.push_str("&gt;"),
            '"' => escaped.push_str("&quot;"),
            '\'' => escaped.push_str("&#39;"),
            _ => escaped.push(c),
        }
    }
    escaped
}

/// A number grouped by thousands: `2,000,000`.
pub fn count(number: u64) -> String {
    let digits = number.to_string();
    let mut grouped = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_the_five_characters_html_needs() {
        // Proves text cannot open a tag or close an attribute, and slashes stay readable.
        assert_eq!(
            escape("<a href=\"x\">'&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        // Proves the grouping every table and figure uses.
        assert_eq!(count(0), "0");
        assert_eq!(count(999), "999");
        assert_eq!(count(18214), "18,214");
        assert_eq!(count(2_000_000), "2,000,000");
    }
}
