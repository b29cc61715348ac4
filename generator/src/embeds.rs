//! Embeds: a paragraph that is exactly `{{ level "act1/choose-a-value" }}`,
//! `{{ proven "act1-duel" }}`, `{{ code "promise_rule" }}` or `{{ level-map }}`.
//!
//! Double braces never start a markdown construct, so an embed cannot be mistaken for text,
//! and inside a code span or block it stays text. To show the syntax in prose, escape the first
//! brace: `\{{ level "x" }}`.
//!
//! - `level` mounts the level inline (the game's `mount.js` finds `.paros-level`), links to
//!   `play/#<id>`, and states what the simulator says about the level's scenario.
//! - `proven` renders a scenario's report: the verdict in words that say how it was reached, a
//!   table of figures and an SVG plot. A counterexample is listed as text, and replayed natively
//!   through paros-play's `Replay` at build time ([`replay_counterexample`]): one that no longer
//!   replays, or no longer ends in the violation the report printed, fails the build with the
//!   scenario and the step. The page also gets the replay's mount point (`.paros-replay`), where
//!   the game's `mount.js` steps through it on the stage.
//! - `code` shows the source of a paros-core item, read from the lines of its rustdoc span.
//! - `level-map` states the game's level map from the game's catalog and
//!   `chapters/level-map.toml`: each act with how many of its designed levels are playable,
//!   every playable level with its chapter, and the designed levels not playable yet
//!   ([`crate::level_map`]).
//!
//! A [`Figure`] is the one form that stands inside a sentence: `{{ figure "act2-long" "steps" }}`
//! reads one field of a scenario's report, so prose never restates a number by hand.
//!
//! Any other `{{` in prose is an error that lists these forms ([`unknown_directive`]); so is an
//! mdBook directive such as `{{#include file.rs}}` anywhere, code blocks included
//! ([`mdbook_directives`]).

use std::fmt::Write;
use std::ops::Range;

use paros_play::Replay;
use paros_sim::report::{Mode, Report, Verdict};

use crate::levels::Level;
use crate::symbols::{Kind, SymbolIndex};

/// A parsed embed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Embed {
    /// A level, by id.
    Level(String),
    /// A scenario's report, by name.
    Proven(String),
    /// The source of a paros-core item, by the name a symbol link would use.
    Code(String),
    /// The level map: the acts, the playable levels and the designed ones still missing.
    LevelMap,
}

/// The embeds a paragraph may hold, by keyword.
const PARAGRAPH_EMBEDS: [&str; 4] = ["level", "proven", "code", LEVEL_MAP_KEYWORD];

/// The keyword of the one embed that takes no name.
const LEVEL_MAP_KEYWORD: &str = "level-map";

/// The forms the book knows, as an error lists them.
const KNOWN_FORMS: &str = "the book knows `{{ level \"id\" }}`, `{{ proven \"scenario\" }}`, \
     `{{ code \"item\" }}` and `{{ level-map }}`, each a paragraph of its own, and \
     `{{ figure \"scenario\" \"field\" }}` inside a sentence; write `\\{{` for literal braces";

/// Why `{{inner}}` is not a directive of this book: it names the forms that exist, and for an
/// mdBook directive (`{{#include ...}}`) what to write instead.
pub fn unknown_directive(inner: &str) -> String {
    let inner = inner.trim();
    let keyword: String = inner
        .chars()
        .take_while(|c| !c.is_whitespace() && *c != '}')
        .collect();
    if let Some(mdbook) = keyword.strip_prefix('#') {
        let instead = match mdbook {
            "include" | "rustdoc_include" | "playground" | "playpen" => {
                "to show paros-core's code write `{{ code \"item\" }}`, which reads the item's \
                 lines from its rustdoc span and so never drifts; any other text, copy into the chapter"
            }
            "title" => "the page title comes from SUMMARY.md",
            _ => "paros-book has no mdBook preprocessors",
        };
        return format!(
            "`{{{{{keyword} ...}}}}` is an mdBook directive, which paros-book does not run: {instead}; {KNOWN_FORMS}"
        );
    }
    format!("unknown directive `{{{{{keyword}...}}}}`: {KNOWN_FORMS}")
}

/// The mdBook directives (`{{#include ...}}`, `{{#rustdoc_include ...}}`) in a code block's
/// source, by byte offset. Every other `{{` in code is text, and so is `\{{#`, mdBook's own
/// escape.
pub fn mdbook_directives(code: &str) -> Vec<(usize, String)> {
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

/// Parses a paragraph's source if it starts with `{{`. `None`: not an embed; `Some(Err)`: a
/// malformed embed, or a directive this book does not know, with the reason.
pub fn parse(source: &str) -> Option<Result<Embed, String>> {
    let text = source.trim();
    let inner = text.strip_prefix("{{")?;
    if inner.trim_start().starts_with("figure") {
        return None;
    }
    let keyword = inner
        .trim_start()
        .split(|c: char| c.is_whitespace() || c == '"' || c == '}')
        .next()
        .unwrap_or("");
    if !PARAGRAPH_EMBEDS.contains(&keyword) {
        let end = inner.find("}}").unwrap_or(inner.len());
        return Some(Err(unknown_directive(&inner[..end])));
    }
    let Some(inner) = inner.strip_suffix("}}") else {
        return Some(Err(
            "an embed must be alone in its paragraph and end with `}}`".into(),
        ));
    };
    let inner = inner.trim();
    let (kind, argument) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
    let argument = argument.trim();
    if kind == LEVEL_MAP_KEYWORD {
        return Some(if argument.is_empty() {
            Ok(Embed::LevelMap)
        } else {
            Err(format!(
                "`{{{{ {LEVEL_MAP_KEYWORD} }}}}` takes no name, found `{argument}`"
            ))
        });
    }
    let Some(name) = argument
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    else {
        return Some(Err(format!(
            "expected `{{{{ {kind} \"name\" }}}}`: the name must be in double quotes"
        )));
    };
    if name.is_empty() || name.contains('"') || name.chars().any(char::is_whitespace) {
        return Some(Err(format!("malformed name `{name}` in the embed")));
    }
    Some(Ok(match kind {
        "level" => Embed::Level(name.to_string()),
        "proven" => Embed::Proven(name.to_string()),
        _ => Embed::Code(name.to_string()),
    }))
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

/// The quoted words of `"a" "b"`, or why they are malformed.
fn quoted_words(text: &str) -> Option<Vec<&str>> {
    let mut words = Vec::new();
    let mut rest = text.trim();
    while !rest.is_empty() {
        let (word, after) = rest.strip_prefix('"')?.split_once('"')?;
        if word.is_empty() || word.chars().any(char::is_whitespace) {
            return None;
        }
        words.push(word);
        rest = after.trim_start();
    }
    Some(words)
}

/// Parses the inside of `{{ figure "scenario" "field" }}`, braces excluded.
fn parse_figure(inner: &str) -> Result<Figure, String> {
    let malformed =
        || format!("expected `{{{{ figure \"scenario\" \"field\" }}}}`, found `{{{{{inner}}}}}`");
    let arguments = inner.trim().strip_prefix("figure").ok_or_else(|| {
        let keyword = inner.split_whitespace().next().unwrap_or("");
        if PARAGRAPH_EMBEDS.contains(&keyword) {
            format!(
                "only `figure` may stand inside a sentence; `{keyword}` is a paragraph of its own"
            )
        } else {
            unknown_directive(inner)
        }
    })?;
    if !arguments.starts_with(char::is_whitespace) {
        return Err(malformed());
    }
    match quoted_words(arguments).as_deref() {
        Some([scenario, field]) => Ok(Figure {
            scenario: scenario.to_string(),
            field: Field::named(field)?,
        }),
        _ => Err(malformed()),
    }
}

/// Every inline form in a run of text: its byte range and what it parsed to. A `{{` right
/// after a backslash is text.
pub fn find_figures(text: &str) -> Vec<(Range<usize>, Result<Figure, String>)> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(start) = text[from..].find("{{").map(|at| from + at) {
        if text[..start].ends_with('\\') {
            from = start + 2;
            continue;
        }
        let Some(length) = text[start..].find("}}") else {
            found.push((
                start..text.len(),
                Err("a directive must end with `}}`".into()),
            ));
            break;
        };
        let end = start + length + 2;
        found.push((start..end, parse_figure(&text[start + 2..end - 2])));
        from = end;
    }
    found
}

/// The text a figure stands for. The report must have passed [`validate`].
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
    let figures: Vec<Range<usize>> = find_figures(text).into_iter().map(|(at, _)| at).collect();
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

fn mode_in_words(mode: Mode) -> &'static str {
    match mode {
        Mode::Exhaustive => "exhaustive search",
        Mode::Simulation => "seeded simulation",
    }
}

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

/// Checks that a report may be published: a VIOLATION only from a negative control, and then of
/// the very property the control names; and PASS only from an exhaustive search (a seeded run
/// can find no violation, never prove there is none).
pub fn validate(report: &Report) -> Result<(), String> {
    if report.negative_control && report.verdict == Verdict::Violation {
        return control_tripped_its_property(report);
    }
    match (report.verdict, report.mode) {
        (Verdict::Violation, _) if !report.negative_control => Err(format!(
            "scenario `{}` found a VIOLATION of \"{}\": {}",
            report.scenario,
            report.claim,
            report.violations.join("; ")
        )),
        (Verdict::Violation, _) => Ok(()),
        _ if report.negative_control => Err(format!(
            "negative control `{}` did not catch its planted fault (verdict {}): its checker cannot fail",
            report.scenario, report.verdict
        )),
        (Verdict::Pass, Mode::Exhaustive) | (Verdict::Incomplete, _) => Ok(()),
        (Verdict::Pass, Mode::Simulation) => Err(format!(
            "scenario `{}` claims PASS in simulation mode; only an exhaustive search can pass",
            report.scenario
        )),
    }
}

/// A negative control's VIOLATION counts only if it breaks the property the control names: a
/// checker that fired for another reason has not shown that its own checker can fail.
fn control_tripped_its_property(report: &Report) -> Result<(), String> {
    let Some(property) = &report.control_property else {
        return Err(format!(
            "negative control `{}` names no property it must break",
            report.scenario
        ));
    };
    let prefix = format!("{property}: ");
    if report
        .violations
        .iter()
        .any(|broken| broken.starts_with(&prefix))
    {
        return Ok(());
    }
    Err(format!(
        "negative control `{}` must break {property}, but broke only: {}",
        report.scenario,
        report.violations.join("; ")
    ))
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

fn faults_in_words(report: &Report) -> String {
    let injected: Vec<String> = report
        .faults
        .iter()
        .filter(|(_, number)| **number > 0)
        .map(|(kind, number)| format!("{} {kind}", count(*number)))
        .collect();
    if injected.is_empty() {
        "no faults injected".into()
    } else {
        format!("faults injected: {}", injected.join(", "))
    }
}

/// The verdict in one honest sentence: it says how the result was reached.
pub fn verdict_sentence(report: &Report) -> String {
    let claim = escape(&report.claim);
    let scenario = escape(&report.scenario);
    match (report.verdict, report.mode) {
        (Verdict::Pass, _) => format!(
            "Every reachable state of <code>{scenario}</code> was visited: {} states, {} transitions, up to depth {}. \
             None violates “{claim}”.",
            count(report.states),
            count(report.transitions),
            count(report.depth)
        ),
        (Verdict::Incomplete, Mode::Exhaustive) => format!(
            "The search of <code>{scenario}</code> stopped after {} states (depth {}){because} with no violation of \
             “{claim}”; it did not visit every state, so this is evidence, not proof.",
            count(report.states),
            count(report.depth),
            because = if report.incomplete_because.is_empty() {
                String::new()
            } else {
                format!(", {}", escape(&report.incomplete_because))
            }
        ),
        (Verdict::Incomplete, Mode::Simulation) => format!(
            "{} seeded runs of <code>{scenario}</code> ({} steps, {}) found no violation of “{claim}”. \
             Random runs are evidence, not proof.",
            count(report.seeds),
            count(report.steps),
            faults_in_words(report)
        ),
        (Verdict::Violation, mode) => format!(
            "As intended, the checker caught the planted fault in the negative control <code>{scenario}</code>: \
             “{claim}” is violated, and the {} that shows it has {} steps.",
            counterexample_kind(mode),
            report.counterexample.len()
        ),
    }
}

/// Which run a counterexample is: the explorer's is a shortest one (breadth-first), a seeded
/// simulation's is the walk of the lowest failing seed, which nothing makes short.
fn counterexample_kind(mode: Mode) -> &'static str {
    match mode {
        Mode::Exhaustive => "shortest run",
        Mode::Simulation => "lowest failing seed's run",
    }
}

/// The figure rows shown in a report's table.
fn figures(report: &Report) -> Vec<(&'static str, String)> {
    let mut rows = vec![
        ("verdict", report.verdict.to_string()),
        ("mode", report.mode.to_string()),
    ];
    if report.mode == Mode::Exhaustive {
        rows.push(("states", count(report.states)));
        rows.push(("transitions", count(report.transitions)));
        rows.push(("depth", count(report.depth)));
    } else {
        rows.push(("seeded runs", count(report.seeds)));
        rows.push(("steps", count(report.steps)));
    }
    rows.push(("decisions", count(report.decisions)));
    if report.settle_runs > 0 {
        let settled = format!(
            "{} of {} runs answered every request under a fair schedule, within {} actions",
            count(report.settle_decided),
            count(report.settle_runs),
            count(report.settle_steps_max)
        );
        rows.push(("once faults stop", settled));
    }
    rows.push(("faults", faults_in_words(report)));
    // The run's duration is left out: it is the one figure that differs between runs, and the
    // site must be the same bytes for the same inputs.
    if !report.replay_command.is_empty() {
        rows.push(("replay", report.replay_command.clone()));
    }
    if !report.tool_version.is_empty() {
        rows.push(("simulator", report.tool_version.clone()));
    }
    if !report.input_hash.is_empty() {
        rows.push(("input hash", report.input_hash.chars().take(16).collect()));
    }
    rows
}

/// A horizontal bar chart of the report's figures, on a log scale so states and faults share it.
pub fn plot(report: &Report) -> String {
    let mut bars: Vec<(String, u64)> = if report.mode == Mode::Exhaustive {
        vec![
            ("states".into(), report.states),
            ("transitions".into(), report.transitions),
            ("depth".into(), report.depth),
        ]
    } else {
        vec![
            ("runs".into(), report.seeds),
            ("steps".into(), report.steps),
        ]
    };
    bars.push(("decisions".into(), report.decisions));
    bars.extend(
        report
            .faults
            .iter()
            .map(|(kind, number)| (kind.clone(), *number)),
    );
    let label_width = 110.0;
    let bar_width_max = 300.0;
    let row_height = 22.0;
    let height = row_height * bars.len() as f64 + 8.0;
    let scale_max = bars
        .iter()
        .map(|(_, value)| ((*value as f64) + 1.0).log10())
        .fold(1.0_f64, f64::max);
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg class=\"proven-plot\" role=\"img\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" \
         xmlns=\"http://www.w3.org/2000/svg\"><title>Figures of {title} (log scale)</title>",
        width = label_width + bar_width_max + 90.0,
        title = escape(&report.scenario)
    );
    for (row, (label, value)) in bars.iter().enumerate() {
        let y = 4.0 + row_height * row as f64;
        let width = (((*value as f64) + 1.0).log10() / scale_max * bar_width_max).max(1.0);
        let _ = write!(
            svg,
            "<text x=\"{label_x}\" y=\"{text_y}\" text-anchor=\"end\">{label}</text>\
             <rect x=\"{label_width}\" y=\"{y}\" width=\"{width:.1}\" height=\"{bar_height}\" rx=\"2\"/>\
             <text x=\"{value_x:.1}\" y=\"{text_y}\">{value}</text>",
            label_x = label_width - 8.0,
            text_y = y + 14.0,
            label = escape(label),
            bar_height = row_height - 6.0,
            value_x = label_width + width + 6.0,
            value = count(*value)
        );
    }
    svg.push_str("</svg>");
    svg
}

/// Replays a report's counterexample natively, as the browser will, and checks that its last
/// step shows the violations the report printed. Returns the wasm module that replays it, or
/// `None` when the report has no counterexample.
pub fn replay_counterexample(report: &Report) -> Result<Option<&'static str>, String> {
    if report.counterexample.is_empty() {
        return Ok(None);
    }
    let mut replay =
        Replay::new(&report.scenario, &report.counterexample).map_err(|error| error.to_string())?;
    replay.go_to(report.counterexample.len());
    let last = replay.view();
    if last.violations != report.violations {
        return Err(format!(
            "the counterexample of scenario `{}` no longer ends in its violation: step {} \
             breaks {}, the report says {}",
            report.scenario,
            last.steps,
            words_or_nothing(&last.violations),
            words_or_nothing(&report.violations)
        ));
    }
    Ok(Some(last.module))
}

fn words_or_nothing(violations: &[String]) -> String {
    if violations.is_empty() {
        "nothing".into()
    } else {
        format!("`{}`", violations.join("; "))
    }
}

/// Where the game mounts a counterexample's replay: the scenario, the module that replays it
/// and the actions as a JSON array, escaped for an attribute.
fn replay_mount(report: &Report, module: &str) -> String {
    let actions =
        serde_json::to_string(&report.counterexample).expect("a list of strings serializes");
    format!(
        "<div class=\"paros-replay\" data-scenario=\"{}\" data-module=\"{}\" data-actions=\"{}\"></div>\n",
        escape(&report.scenario),
        escape(module),
        escape(&actions)
    )
}

/// The HTML of a `{{ proven "..." }}` embed. The report must have passed [`validate`];
/// `replay_module` is what [`replay_counterexample`] returned for it.
pub fn render_proven(report: &Report, replay_module: Option<&str>) -> String {
    let mut html = String::new();
    let verdict_class = report.verdict.as_str().to_lowercase();
    let _ = write!(
        html,
        "<section class=\"proven proven-{verdict_class}\" data-scenario=\"{scenario}\">\n<p class=\"proven-verdict\">\
         <strong>{verdict}</strong> {sentence}</p>\n<div class=\"proven-body\">\n<table class=\"proven-figures\">\n<tbody>\n",
        scenario = escape(&report.scenario),
        verdict = escape(report.verdict.as_str()),
        sentence = verdict_sentence(report)
    );
    for (name, value) in figures(report) {
        let _ = writeln!(
            html,
            "<tr><th scope=\"row\">{name}</th><td>{}</td></tr>",
            escape(&value)
        );
    }
    html.push_str("</tbody>\n</table>\n");
    html.push_str(&plot(report));
    html.push_str("\n</div>\n");
    if !report.counterexample.is_empty() {
        let heading = match report.mode {
            Mode::Exhaustive => "shortest first",
            Mode::Simulation => "the lowest failing seed's run",
        };
        let _ = writeln!(
            html,
            "<details open><summary>Counterexample, {heading}</summary>\n<ol class=\"counterexample\">"
        );
        for action in &report.counterexample {
            let _ = writeln!(html, "<li><code>{}</code></li>", escape(action));
        }
        html.push_str("</ol>\n</details>\n");
        if let Some(module) = replay_module {
            html.push_str(&replay_mount(report, module));
        }
    }
    html.push_str("</section>\n");
    html
}

/// The HTML of a `{{ level "..." }}` embed; `root` leads from the page to the site's root.
pub fn render_level(level: &Level, report: &Report, root: &str) -> String {
    let id = escape(&level.id);
    format!(
        "<figure class=\"level-embed\">\n<div class=\"paros-level\" data-level=\"{id}\"></div>\n<figcaption>\
         <a class=\"level-link\" href=\"{root}play/#{id}\">Play “{title}” full screen</a> \
         <span class=\"level-teaches\">{teaches}</span>\
         <span class=\"level-verdict\"><strong>{verdict}</strong> {sentence}</span></figcaption>\n</figure>\n",
        title = escape(&level.title),
        teaches = escape(&level.teaches),
        verdict = escape(report.verdict.as_str()),
        sentence = verdict_sentence(report)
    )
}

/// The HTML of a `{{ code "item" }}` embed: the item's lines from its rustdoc span, highlighted,
/// under a caption that links its API page and names the file and lines. `root` leads from the
/// page to the site's root.
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
    use paros_sim::report::Report;

    #[test]
    fn parses_embeds_and_explains_malformed_ones() {
        // Proves the two embeds parse and every malformed shape has a reason.
        assert_eq!(
            parse("{{ level \"act1/choose-a-value\" }}"),
            Some(Ok(Embed::Level("act1/choose-a-value".into())))
        );
        assert_eq!(
            parse("{{proven \"act1-duel\"}}\n"),
            Some(Ok(Embed::Proven("act1-duel".into())))
        );
        assert_eq!(parse("Some text {{ level \"x\" }}"), None);
        assert!(matches!(parse("{{ level act1 }}"), Some(Err(_))));
        assert!(
            matches!(parse("{{ lvl \"x\" }}"), Some(Err(message)) if message.contains("unknown directive `{{lvl...}}`"))
        );
        assert!(matches!(parse("{{ level \"x\" "), Some(Err(_))));
        assert_eq!(
            parse("{{ code \"Acceptor::on_accept\" }}"),
            Some(Ok(Embed::Code("Acceptor::on_accept".into())))
        );
        assert_eq!(parse("{{ level-map }}"), Some(Ok(Embed::LevelMap)));
        assert_eq!(parse("{{level-map}}\n"), Some(Ok(Embed::LevelMap)));
        assert!(
            matches!(parse("{{ level-map \"act1\" }}"), Some(Err(message)) if message.contains("takes no name"))
        );
        assert!(
            matches!(parse("{{ level-map"), Some(Err(message)) if message.contains("end with `}}`"))
        );
        assert_eq!(
            find_figures("see {{ level-map }} here").remove(0).1,
            Err(
                "only `figure` may stand inside a sentence; `level-map` is a paragraph of its own"
                    .into()
            )
        );
    }

    #[test]
    fn unknown_directives_name_the_forms_that_exist() {
        // Proves an mdBook include and a made-up directive both fail, naming every form of the
        // book, and the include says what to use instead.
        let include = match parse("{{#include ../listings/main.rs:here}}") {
            Some(Err(message)) => message,
            other => panic!("{other:?}"),
        };
        assert!(
            include.starts_with("`{{#include ...}}` is an mdBook directive")
                && include.contains("write `{{ code \"item\" }}`"),
            "{include}"
        );
        for form in [
            "{{ level \"",
            "{{ proven",
            "{{ code",
            "{{ level-map }}",
            "{{ figure",
        ] {
            assert!(include.contains(form), "{form} missing from: {include}");
        }
        let inline = find_figures("see {{ chart \"x\" }} here").remove(0);
        assert_eq!(inline.0, 4..19);
        assert!(
            inline
                .1
                .unwrap_err()
                .starts_with("unknown directive `{{chart...}}`: the book knows")
        );
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
                .contains("`{{#rustdoc_include ...}}` is an mdBook directive")
        );
        assert!(mdbook_directives("{{ level \"x\" }} {{#}}").is_empty());
        assert_eq!(unescape_code("\\{{#include b.rs}}"), "{{#include b.rs}}");
    }

    fn report(verdict: Verdict, mode: Mode) -> Report {
        Report {
            states: 12345,
            transitions: 40000,
            depth: 14,
            seeds: 200,
            steps: 90000,
            ..Report::empty("act1-duel", "one value is chosen", mode, verdict)
        }
    }

    /// The amnesia control's report, run as the book runs it (an exhaustive search of a small
    /// world, well under a second).
    fn amnesia_report() -> Report {
        paros_sim::book::report_for("act1-amnesia-control").expect("the control runs")
    }

    /// An attribute's value back from its escaped HTML, as a browser reads it.
    fn unescape_attribute(value: &str) -> String {
        value
            .replace("&quot;", "\"")
            .replace("&#39;", "'")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
    }

    #[test]
    fn a_counterexample_replays_and_gets_its_mount_point() {
        // Proves the book replays a real counterexample natively and hands the browser the
        // scenario, its module and the very actions of the report, escaped for an attribute.
        let report = amnesia_report();
        let module = replay_counterexample(&report).unwrap();
        assert_eq!(module, Some("one-value"));
        let html = render_proven(&report, module);
        assert!(
            html.contains(
                "<div class=\"paros-replay\" data-scenario=\"act1-amnesia-control\" \
                 data-module=\"one-value\" data-actions=\""
            ),
            "{html}"
        );
        let attribute = html.split("data-actions=\"").nth(1).unwrap();
        let attribute = &attribute[..attribute.find('"').unwrap()];
        assert!(!attribute.contains('>'), "{attribute}");
        let actions: Vec<String> = serde_json::from_str(&unescape_attribute(attribute)).unwrap();
        assert_eq!(actions, report.counterexample);
        assert!(
            html.contains("<li><code>deliver m1 P1-&gt;A1 Prepare(1.P1)</code></li>"),
            "the text list stays: {html}"
        );
    }

    #[test]
    fn a_report_without_a_counterexample_has_no_replay() {
        let passing = report(Verdict::Pass, Mode::Exhaustive);
        assert_eq!(replay_counterexample(&passing), Ok(None));
        assert!(!render_proven(&passing, None).contains("paros-replay"));
    }

    #[test]
    fn a_counterexample_that_no_longer_replays_names_the_scenario_and_step() {
        let mut report = amnesia_report();
        report.counterexample[2] = "deliver m4 A3->P1 Promise(1.P1)".into();
        let error = replay_counterexample(&report).unwrap_err();
        assert!(
            error.starts_with(
                "the counterexample of scenario `act1-amnesia-control` no longer replays: \
                 step 3 (`deliver m4 A3->P1 Promise(1.P1)`): "
            ),
            "{error}"
        );
    }

    #[test]
    fn a_counterexample_that_no_longer_breaks_its_property_fails() {
        // Proves a walk that still replays but stops short of the violation is refused too.
        let mut report = amnesia_report();
        report.counterexample.pop();
        let error = replay_counterexample(&report).unwrap_err();
        assert!(
            error.contains("scenario `act1-amnesia-control` no longer ends in its violation")
                && error.contains("step 13 breaks nothing"),
            "{error}"
        );
    }

    #[test]
    fn verdicts_say_how_they_were_reached() {
        // Proves exhaustive and seeded verdicts read differently, as the verdict standard requires.
        assert!(
            verdict_sentence(&report(Verdict::Pass, Mode::Exhaustive)).starts_with(
                "Every reachable state of <code>act1-duel</code> was visited: 12,345 states"
            )
        );
        let seeded = verdict_sentence(&report(Verdict::Incomplete, Mode::Simulation));
        assert!(
            seeded.starts_with("200 seeded runs") && seeded.contains("evidence, not proof"),
            "{seeded}"
        );
    }

    #[test]
    fn only_honest_reports_are_published() {
        // Proves an unexpected VIOLATION, a seeded PASS and a silent negative control fail.
        assert!(validate(&report(Verdict::Pass, Mode::Exhaustive)).is_ok());
        assert!(validate(&report(Verdict::Incomplete, Mode::Simulation)).is_ok());
        assert!(validate(&report(Verdict::Violation, Mode::Exhaustive)).is_err());
        assert!(validate(&report(Verdict::Pass, Mode::Simulation)).is_err());
        let mut control = report(Verdict::Violation, Mode::Exhaustive);
        control.negative_control = true;
        control.control_property = Some("agreement".into());
        control.violations = vec!["agreement: two values chosen".into()];
        assert!(validate(&control).is_ok());
        control.verdict = Verdict::Pass;
        assert!(validate(&control).is_err());
    }

    #[test]
    fn a_control_must_break_the_property_it_names() {
        // Proves a control that broke another property, or names none, is not published.
        let mut control = report(Verdict::Violation, Mode::Exhaustive);
        control.negative_control = true;
        control.violations = vec!["agreement: two values chosen".into()];
        control.control_property = Some("linearizability".into());
        let refused = validate(&control).unwrap_err();
        assert!(refused.contains("must break linearizability"), "{refused}");
        control.control_property = None;
        assert!(
            validate(&control)
                .unwrap_err()
                .contains("names no property")
        );
        control.control_property = Some("agreement".into());
        assert!(validate(&control).is_ok());
    }

    #[test]
    fn figures_parse_inside_sentences_and_explain_malformed_ones() {
        // Proves the inline form is found with its range, an escaped one is text, and every
        // malformed shape, unknown field or block embed inside a sentence has a reason.
        let text = r#"took {{ figure "act2-long" "steps" }} steps, \{{ figure "x" "y" }}"#;
        let found = find_figures(text);
        assert_eq!(found.len(), 1, "{found:?}");
        let (range, parsed) = &found[0];
        assert_eq!(&text[range.clone()], r#"{{ figure "act2-long" "steps" }}"#);
        assert_eq!(
            parsed,
            &Ok(Figure {
                scenario: "act2-long".into(),
                field: Field::Steps
            })
        );
        let reason = |text: &str| find_figures(text).remove(0).1.unwrap_err();
        assert!(reason(r#"{{ figure "act2-long" "speed" }}"#).contains("unknown figure `speed`"));
        assert!(reason(r#"{{ figure "act2-long" }}"#).contains("expected `{{ figure"));
        assert!(reason(r#"{{ figure act2-long steps }}"#).contains("expected `{{ figure"));
        assert!(
            reason(r#"{{ proven "act2-long" }}"#).contains("`proven` is a paragraph of its own")
        );
        assert!(reason(r#"{{ figure "act2-long" "steps""#).contains("must end with `}}`"));
        assert_eq!(
            parse(r#"{{ figure "act2-long" "steps" }} steps were taken."#),
            None
        );
    }

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

    #[test]
    fn methods_lose_the_indentation_of_their_impl() {
        // Proves the shared indent goes and relative indentation and blank lines stay.
        assert_eq!(
            dedent("    fn a() {\n\n        b();\n    }"),
            "fn a() {\n\n    b();\n}"
        );
    }

    #[test]
    fn plot_is_deterministic_svg() {
        // Proves the plot is the same bytes every time and shows each figure.
        let report = report(Verdict::Pass, Mode::Exhaustive);
        assert_eq!(plot(&report), plot(&report));
        assert!(plot(&report).contains(">12,345</text>"));
    }
}
