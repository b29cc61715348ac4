//! What a scenario's report may say on a page: whether it may be published at all
//! ([`validate`]), and its verdict in one honest sentence that says how it was reached.

use paros_sim::report::{Mode, Report, Verdict};

use crate::html::{count, escape};

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

/// How a report was reached, in words.
pub fn mode_in_words(mode: Mode) -> &'static str {
    match mode {
        Mode::Exhaustive => "exhaustive search",
        Mode::Simulation => "seeded simulation",
    }
}

/// The faults a report injected, in words.
pub fn faults_in_words(report: &Report) -> String {
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A report of the duel with round figures.
    pub(crate) fn report(verdict: Verdict, mode: Mode) -> Report {
        Report {
            states: 12345,
            transitions: 40000,
            depth: 14,
            seeds: 200,
            steps: 90000,
            ..Report::empty("act1-duel", "one value is chosen", mode, verdict)
        }
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
}
