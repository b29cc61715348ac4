//! A synthetic book for benchmarks: N chapters of about 3,100 words, 10 Rust code blocks and
//! 20 headings each, the shape of the mdBook anchor. Deterministic: the same N gives the same
//! bytes.

use std::fmt::Write;
use std::path::Path;

use anyhow::Context;

const VOCABULARY: &[&str] = &[
    "ballot",
    "acceptor",
    "proposer",
    "promise",
    "quorum",
    "value",
    "chosen",
    "learner",
    "prepare",
    "accept",
    "slot",
    "leader",
    "majority",
    "message",
    "network",
    "crash",
    "restart",
    "durable",
    "record",
    "floor",
    "trim",
    "point",
    "replica",
    "log",
    "command",
    "client",
    "reply",
    "read",
    "lease",
    "phase",
    "round",
    "vote",
    "higher",
    "lower",
    "safe",
    "live",
    "order",
    "agreement",
    "validity",
    "state",
    "machine",
    "apply",
    "gap",
    "noop",
    "heartbeat",
    "tick",
    "timeout",
    "election",
    "configuration",
    "matchmaker",
    "grid",
    "row",
    "column",
    "flexible",
    "proxy",
    "batch",
    "pipeline",
    "window",
    "snapshot",
    "recovery",
    "disk",
    "write",
    "fsync",
    "commit",
    "index",
    "prefix",
    "suffix",
    "nack",
    "retry",
    "duel",
    "race",
    "partition",
    "delay",
    "duplicate",
    "drop",
    "deliver",
    "queue",
    "world",
    "seed",
    "checker",
    "invariant",
    "proof",
    "lemma",
    "induction",
    "history",
    "linearizable",
    "watermark",
    "fresh",
    "stale",
    "old",
    "new",
    "every",
    "some",
    "no",
    "one",
    "two",
    "three",
    "many",
    "few",
    "always",
    "never",
    "only",
    "also",
    "because",
    "therefore",
    "since",
    "until",
    "after",
    "before",
    "while",
    "once",
    "again",
    "each",
    "other",
];

/// A small deterministic generator (SplitMix64).
struct Words(u64);

impl Words {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut mixed = self.0;
        mixed = (mixed ^ (mixed >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        mixed = (mixed ^ (mixed >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        mixed ^ (mixed >> 31)
    }

    fn word(&mut self) -> &'static str {
        VOCABULARY[(self.next() % VOCABULARY.len() as u64) as usize]
    }

    fn sentence(&mut self, length: usize) -> String {
        let mut sentence = String::new();
        for index in 0..length {
            let word = self.word();
            if index == 0 {
                let mut chars = word.chars();
                sentence.extend(chars.next().map(|c| c.to_ascii_uppercase()));
                sentence.push_str(chars.as_str());
            } else {
                sentence.push(' ');
                sentence.push_str(word);
            }
        }
        sentence.push('.');
        sentence
    }
}

/// The markdown of chapter `number`.
pub fn chapter(number: usize) -> String {
    let mut words = Words(number as u64 * 7919 + 1);
    let mut text = format!("# Chapter {number}\n\n");
    let mut written = 0;
    for section in 0..20 {
        let _ = writeln!(
            text,
            "## Section {section}: {} {}\n",
            words.word(),
            words.word()
        );
        // 155 words per section, in sentences of 12 or so, one per line.
        let mut section_words = 0;
        while section_words < 155 {
            let length = 8 + (words.next() % 9) as usize;
            text.push_str(&words.sentence(length));
            text.push('\n');
            section_words += length;
        }
        written += section_words;
        text.push('\n');
        if section % 2 == 1 {
            let block = section / 2;
            let _ = write!(
                text,
                "```rust\n/// Step {block} of chapter {number}.\nfn step_{number}_{block}(ballot: u64, promised: Option<u64>) -> bool {{\n    \
                 let floor = promised.unwrap_or(0);\n    if ballot > floor {{\n        return true;\n    }}\n    \
                 let {name} = \"{name}\";\n    println!(\"refused {{}} below {{}}: {{}}\", ballot, floor, {name});\n    false\n}}\n```\n\n",
                name = words.word()
            );
        }
    }
    debug_assert!(written >= 3100);
    text
}

/// Writes a book of `chapter_count` chapters under `folder`, with the theme from `theme` and a
/// sources folder (`folder/sources`) holding a few symbols.
pub fn write_book(folder: &Path, chapter_count: usize, theme: &Path) -> anyhow::Result<()> {
    let chapters = folder.join("chapters");
    std::fs::create_dir_all(&chapters)
        .with_context(|| format!("creating {}", chapters.display()))?;
    let mut summary = String::from("# Synthetic book\n\n");
    for number in 1..=chapter_count {
        let _ = writeln!(summary, "- [Chapter {number}](chapter-{number:03}.md)");
        std::fs::write(
            chapters.join(format!("chapter-{number:03}.md")),
            chapter(number),
        )
        .context("writing a chapter")?;
    }
    std::fs::write(chapters.join("SUMMARY.md"), summary).context("writing SUMMARY.md")?;
    let theme_copy = folder.join("theme");
    if theme_copy.exists() {
        std::fs::remove_dir_all(&theme_copy).context("clearing the old theme copy")?;
    }
    crate::site::copy_folder(theme, &theme_copy, crate::site::keep_all)?;
    let sources = folder.join("sources");
    std::fs::create_dir_all(sources.join("reports")).context("creating the sources folder")?;
    std::fs::write(
        sources.join("symbols.json"),
        r#"[{"path":"Acceptor","kind":"struct"}]"#,
    )
    .context("writing symbols")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chapters_have_the_anchor_shape() {
        // Proves the synthetic chapter matches the benchmark's description.
        let text = chapter(7);
        let prose_words: usize = text
            .lines()
            .filter(|line| !line.starts_with('#') && !line.starts_with("```"))
            .map(|line| line.split_whitespace().count())
            .sum();
        assert!(prose_words >= 3100, "{prose_words} words");
        assert_eq!(text.matches("```rust").count(), 10);
        assert_eq!(
            text.lines().filter(|line| line.starts_with('#')).count(),
            21
        );
        assert_eq!(chapter(7), text);
    }
}
