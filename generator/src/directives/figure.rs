//! `{{ figure "act2-long" "steps" }}`: one field of a scenario's report, inside a sentence, so
//! prose never restates a number by hand.
//!
//! The same rule holds the other way: a number written in digits that equals a counted figure
//! of a report the chapter cites is refused ([`FigureEmbed::check_prose`]), so a sentence cannot
//! drift from the report it quotes.

use std::collections::BTreeSet;

use paros_sim::report::{Mode, Report};

use crate::diagnostic::Problem;
use crate::directive::{Call, Context, Directive, Form, Prose, Rendered, braces};
use crate::html::count;
use crate::verdict::mode_in_words;

/// The `figure` directive.
pub struct FigureEmbed;

impl Directive for FigureEmbed {
    fn form(&self) -> Form {
        Form::Inline {
            keyword: "figure",
            arguments: &["scenario", "field"],
        }
    }

    fn render(&self, call: &Call<'_>, context: &Context<'_>) -> Result<Rendered, Problem> {
        let figure = Figure {
            scenario: call.arguments[0].clone(),
            field: Field::named(&call.arguments[1])?,
        };
        let value = render_figure(&figure, &context.report(&figure.scenario)?)?;
        Ok(Rendered {
            output: value,
            loads_game: false,
            cites: Some(figure.scenario),
        })
    }

    fn check_prose(&self, prose: &Prose, context: &Context<'_>) -> Vec<(usize, Problem)> {
        let numbers: Vec<(usize, u64)> = prose
            .runs
            .iter()
            .flat_map(|run| {
                numbers_in(&run.text)
                    .into_iter()
                    .map(|(at, number)| (run.offset(at), number))
            })
            .collect();
        hand_written_figures(&numbers, &prose.cited, context)
    }
}

/// A report field that prose may state, read inline with `{{ figure "scenario" "field" }}`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// How the report was reached: "exhaustive search" or "seeded simulation".
    Mode,
    /// Exhaustive: distinct states visited.
    States,
    /// Exhaustive: transitions explored.
    Transitions,
    /// Exhaustive: the deepest level reached.
    Depth,
    /// Simulation: seeded runs.
    Seeds,
    /// Simulation: actions over all runs.
    Steps,
    /// Simulation: runs that ended with a decision (in Act II, every client answered).
    Decisions,
    /// Simulation: runs after which the fair, fault-free schedule was run.
    SettleRuns,
    /// Simulation: of those, runs whose fair schedule answered every request.
    SettleDecided,
}

impl Field {
    /// Every field, by the name a chapter uses.
    pub const ALL: [(&'static str, Field); 9] = [
        ("mode", Field::Mode),
        ("states", Field::States),
        ("transitions", Field::Transitions),
        ("depth", Field::Depth),
        ("seeds", Field::Seeds),
        ("steps", Field::Steps),
        ("decisions", Field::Decisions),
        ("settle_runs", Field::SettleRuns),
        ("settle_decided", Field::SettleDecided),
    ];

    fn named(name: &str) -> Result<Field, String> {
        Field::ALL
            .iter()
            .find(|(known, _)| *known == name)
            .map(|(_, field)| *field)
            .ok_or_else(|| {
                let known: Vec<&str> = Field::ALL.iter().map(|(known, _)| *known).collect();
                format!("unknown figure `{name}`: use one of {}", known.join(", "))
            })
    }

    fn name(self) -> &'static str {
        Field::ALL
            .iter()
            .find(|(_, field)| *field == self)
            .map_or("", |(name, _)| name)
    }

    /// The one mode whose reports count this field; `None` for `mode` itself.
    fn counted_by(self) -> Option<Mode> {
        match self {
            Field::Mode => None,
            Field::States | Field::Transitions | Field::Depth => Some(Mode::Exhaustive),
            _ => Some(Mode::Simulation),
        }
    }
}

/// An inline figure: one field of one scenario's report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Figure {
    /// The scenario whose report is read.
    pub scenario: String,
    /// The field read.
    pub field: Field,
}

/// The text a figure stands for. The report must have passed [`crate::verdict::validate`].
pub fn render_figure(figure: &Figure, report: &Report) -> Result<String, String> {
    if let Some(mode) = figure.field.counted_by()
        && mode != report.mode
    {
        return Err(format!(
            "figure `{}` is counted only by {}, and `{}` was checked by {}",
            figure.field.name(),
            mode_in_words(mode),
            report.scenario,
            mode_in_words(report.mode)
        ));
    }
    let number = match figure.field {
        Field::Mode => return Ok(mode_in_words(report.mode).into()),
        Field::States => report.states,
        Field::Transitions => report.transitions,
        Field::Depth => report.depth,
        Field::Seeds => report.seeds,
        Field::Steps => report.steps,
        Field::Decisions => report.decisions,
        Field::SettleRuns => report.settle_runs,
        Field::SettleDecided => report.settle_decided,
    };
    Ok(count(number))
}

/// The numbers of a report that prose could state by hand: each field its mode counts, from
/// 100 up, so that small counts such as a depth of 3 are not mistaken for one.
pub fn stated_figures(report: &Report) -> Vec<(&'static str, u64)> {
    Field::ALL
        .iter()
        .filter(|(_, field)| field.counted_by() == Some(report.mode))
        .filter_map(|(name, field)| {
            let figure = Figure {
                scenario: report.scenario.clone(),
                field: *field,
            };
            let number = render_figure(&figure, report).ok()?.replace(',', "");
            Some((*name, number.parse().ok()?))
        })
        .filter(|(_, number)| *number >= 100)
        .collect()
}

/// The numbers written in digits in a run of text, outside its inline figures: each one's
/// byte offset and value. `2,000,000` and `2000000` are both read as two million.
pub fn numbers_in(text: &str) -> Vec<(usize, u64)> {
    let figures: Vec<std::ops::Range<usize>> = braces(text).into_iter().map(|(at, _)| at).collect();
    let bytes = text.as_bytes();
    let mut numbers = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if !bytes[at].is_ascii_digit() || figures.iter().any(|figure| figure.contains(&at)) {
            at += 1;
            continue;
        }
        let start = at;
        let mut digits = String::new();
        while at < bytes.len() {
            if bytes[at].is_ascii_digit() {
                digits.push(char::from(bytes[at]));
                at += 1;
            } else if bytes[at] == b',' && is_digit_group(&bytes[at + 1..]) {
                at += 1;
            } else {
                break;
            }
        }
        if let Ok(number) = digits.parse() {
            numbers.push((start, number));
        }
    }
    numbers
}

/// Whether `rest` starts with exactly three digits: the group after a thousands comma.
fn is_digit_group(rest: &[u8]) -> bool {
    rest.iter().take_while(|byte| byte.is_ascii_digit()).count() == 3
}

/// Numbers written by hand that equal a figure of a report the chapter cites: each must be a
/// `figure`, or it drifts from the report. Errors carry their offset in the chapter.
fn hand_written_figures(
    numbers: &[(usize, u64)],
    cited: &BTreeSet<String>,
    context: &Context<'_>,
) -> Vec<(usize, Problem)> {
    let mut found = Vec::new();
    for scenario in cited {
        let Ok(report) = context.report(scenario) else {
            continue;
        };
        for (field, value) in stated_figures(&report) {
            for (at, _) in numbers.iter().filter(|(_, number)| *number == value) {
                found.push((
                    *at,
                    Problem::with_help(
                        format!(
                            "{} is the `{field}` of report `{scenario}`, written by hand",
                            count(value)
                        ),
                        format!(
                            "write `{{{{ figure \"{scenario}\" \"{field}\" }}}}` so the sentence \
                             follows the report; a number that only coincides with it (a year, a \
                             page, a paragraph's number) is written `{{{{ literal \"{value}\" }}}}`"
                        ),
                    ),
                ));
            }
        }
    }
    found.sort_by_key(|(at, _)| *at);
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::tests::report;
    use paros_sim::report::Verdict;

    #[test]
    fn figures_read_the_report_and_refuse_the_other_mode() {
        // Proves each figure renders the report's own value, grouped like the tables, and that
        // a figure the report's mode does not count is an error rather than a zero.
        let figure = |field| Figure {
            scenario: "act1-duel".into(),
            field,
        };
        let exhaustive = report(Verdict::Pass, Mode::Exhaustive);
        let seeded = report(Verdict::Incomplete, Mode::Simulation);
        assert_eq!(
            render_figure(&figure(Field::States), &exhaustive).unwrap(),
            "12,345"
        );
        assert_eq!(
            render_figure(&figure(Field::Depth), &exhaustive).unwrap(),
            "14"
        );
        assert_eq!(
            render_figure(&figure(Field::Steps), &seeded).unwrap(),
            "90,000"
        );
        assert_eq!(
            render_figure(&figure(Field::Seeds), &seeded).unwrap(),
            "200"
        );
        assert_eq!(
            render_figure(&figure(Field::Mode), &exhaustive).unwrap(),
            "exhaustive search"
        );
        assert_eq!(
            render_figure(&figure(Field::Mode), &seeded).unwrap(),
            "seeded simulation"
        );
        let refused = render_figure(&figure(Field::States), &seeded).unwrap_err();
        assert!(
            refused.contains("counted only by exhaustive search")
                && refused.contains("`act1-duel` was checked by seeded simulation"),
            "{refused}"
        );
        assert!(render_figure(&figure(Field::Steps), &exhaustive).is_err());
    }

    #[test]
    fn hand_written_numbers_are_found_outside_figures() {
        // Proves digits are read grouped or not, a figure's own text is skipped, and only the
        // report's counted fields from 100 up are offered for comparison.
        let text = r#"2,000,000 steps, 12345 states, {{ figure "a" "steps" }} and 1,23 left"#;
        let values: Vec<u64> = numbers_in(text).into_iter().map(|(_, n)| n).collect();
        assert_eq!(values, vec![2_000_000, 12_345, 1, 23]);
        assert_eq!(numbers_in("x 18,214.")[0], (2, 18_214));
        assert_eq!(
            stated_figures(&report(Verdict::Pass, Mode::Exhaustive)),
            vec![("states", 12_345), ("transitions", 40_000)]
        );
        assert_eq!(
            stated_figures(&report(Verdict::Incomplete, Mode::Simulation)),
            vec![("seeds", 200), ("steps", 90_000)]
        );
    }
}
