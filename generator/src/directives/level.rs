//! `{{ level "act1/choose-a-value" }}`: mounts the level inline (the game's `mount.js` finds
//! `.paros-level`), links to `play/#<id>`, and states what the simulator says about the level's
//! scenario.

use crate::diagnostic::Problem;
use crate::directive::{Call, Context, Directive, Form, Rendered};
use crate::html::escape;
use crate::levels::Level;
use crate::verdict::verdict_sentence;
use paros_sim::report::Report;

/// The `level` directive.
pub struct LevelEmbed;

impl Directive for LevelEmbed {
    fn form(&self) -> Form {
        Form::Paragraph {
            keyword: "level",
            arguments: &["id"],
        }
    }

    fn render(&self, call: &Call<'_>, context: &Context<'_>) -> Result<Rendered, Problem> {
        let id = &call.arguments[0];
        let level = context.levels.get(id).ok_or_else(|| {
            let nearest = context.levels.nearest(id);
            if context.levels.is_empty() {
                format!("unknown level `{id}`: the level catalog is empty")
            } else {
                format!("unknown level `{id}`; nearest: {}", nearest.join(", "))
            }
        })?;
        let report = context
            .report(&level.scenario)
            .map_err(|message| format!("level `{id}`: {message}"))?;
        Ok(Rendered {
            output: render_level(level, &report, call.root),
            loads_game: true,
            cites: Some(level.scenario.clone()),
        })
    }
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
