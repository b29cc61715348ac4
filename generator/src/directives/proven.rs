//! `{{ proven "act1-duel" }}`: a scenario's report, its verdict in words that say how it was
//! reached (every state visited, or N seeded runs), a table of figures and an SVG plot.
//!
//! A counterexample is listed as text, and replayed natively through paros-play's `Replay` at
//! build time ([`replay_counterexample`]): one that no longer replays, or no longer ends in the
//! violation the report printed, fails the build with the scenario and the step. The page also
//! gets the replay's mount point (`.paros-replay`), where the game's `mount.js` steps through it
//! on the stage.

use std::fmt::Write;

use paros_play::Replay;
use paros_sim::report::{Mode, Report};

use crate::diagnostic::Problem;
use crate::directive::{Call, Context, Directive, Form, Rendered};
use crate::html::{count, escape};
use crate::verdict::{faults_in_words, verdict_sentence};

/// The `proven` directive.
pub struct ProvenEmbed;

impl Directive for ProvenEmbed {
    fn form(&self) -> Form {
        Form::Paragraph {
            keyword: "proven",
            arguments: &["scenario"],
        }
    }

    fn render(&self, call: &Call<'_>, context: &Context<'_>) -> Result<Rendered, Problem> {
        let scenario = &call.arguments[0];
        let report = context.report(scenario)?;
        let replay = replay_counterexample(&report)?;
        Ok(Rendered {
            output: render_proven(&report, replay),
            loads_game: replay.is_some(),
            cites: Some(scenario.clone()),
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::tests::report;
    use paros_sim::report::Verdict;

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
    fn plot_is_deterministic_svg() {
        // Proves the plot is the same bytes every time and shows each figure.
        let report = report(Verdict::Pass, Mode::Exhaustive);
        assert_eq!(plot(&report), plot(&report));
        assert!(plot(&report).contains(">12,345</text>"));
    }
}
