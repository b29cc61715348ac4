//! Fixture books driven through the `paros-book` binary: expected output, byte-identical
//! builds, the bad-input corpus, `serve` keeping the last good site, and path traversal.
//!
//! The fixtures use a prepared sources folder (`--sources`), so these tests need neither
//! rustdoc nor the wasm toolchain; `tests/repository.rs` covers the real paros-core.

use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

const BINARY: &str = env!("CARGO_BIN_EXE_paros-book");
const MANIFEST: &str = env!("CARGO_MANIFEST_DIR");

fn tests_dir() -> PathBuf {
    Path::new(MANIFEST).join("tests")
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir::WalkDir::new(from).sort_by_file_name() {
        let entry = entry.unwrap();
        let target = to.join(entry.path().strip_prefix(from).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).unwrap();
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

/// A fresh copy of the basic fixture book with the real theme, under cargo's temporary folder.
fn fixture_book(name: &str) -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "book-{name}-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&folder);
    let basic = tests_dir().join("books/basic");
    copy_tree(&basic.join("chapters"), &folder.join("chapters"));
    copy_tree(&basic.join("sources"), &folder.join("sources"));
    copy_tree(&Path::new(MANIFEST).join("../theme"), &folder.join("theme"));
    folder
}

/// Files of a bad case, by path under the book (the `expected` file excluded).
fn overlay(case: &str) -> BTreeMap<PathBuf, Vec<u8>> {
    let case_dir = tests_dir().join("bad").join(case);
    let mut files = BTreeMap::new();
    for entry in walkdir::WalkDir::new(&case_dir).sort_by_file_name() {
        let entry = entry.unwrap();
        let relative = entry.path().strip_prefix(&case_dir).unwrap().to_path_buf();
        if entry.file_type().is_file() && relative != Path::new("expected") {
            files.insert(relative, std::fs::read(entry.path()).unwrap());
        }
    }
    if case == "invalid-utf8" {
        let mut intro = b"# Introduction\n\n## Links between chapters\n\nBytes ".to_vec();
        intro.extend_from_slice(&[0xff, 0xfe]);
        intro.extend_from_slice(b" here.\n");
        files.insert(PathBuf::from("chapters/intro.md"), intro);
    }
    files
}

fn bad_cases() -> Vec<(String, String)> {
    let mut cases: Vec<(String, String)> = std::fs::read_dir(tests_dir().join("bad"))
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().to_string();
            (
                name,
                std::fs::read_to_string(path.join("expected")).unwrap(),
            )
        })
        .collect();
    cases.sort();
    assert!(cases.len() >= 12, "the corpus lost cases: {cases:?}");
    cases
}

fn write_files(book: &Path, files: &BTreeMap<PathBuf, Vec<u8>>) {
    for (path, bytes) in files {
        std::fs::write(book.join(path), bytes).unwrap();
    }
}

fn run(book: &Path, arguments: &[&str]) -> Output {
    Command::new(BINARY)
        .args(arguments)
        .arg("--root")
        .arg(book)
        .arg("--sources")
        .arg(book.join("sources"))
        .output()
        .unwrap()
}

fn build(book: &Path, out: &Path) -> Output {
    run(
        book,
        &[
            "build",
            "--out",
            out.to_str().unwrap(),
            "--site-url",
            "/paros/",
        ],
    )
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

fn tree(folder: &Path) -> BTreeMap<String, Vec<u8>> {
    walkdir::WalkDir::new(folder)
        .sort_by_file_name()
        .into_iter()
        .map(Result::unwrap)
        .filter(|entry| entry.file_type().is_file())
        .map(|entry| {
            (
                entry
                    .path()
                    .strip_prefix(folder)
                    .unwrap()
                    .to_string_lossy()
                    .to_string(),
                std::fs::read(entry.path()).unwrap(),
            )
        })
        .collect()
}

#[test]
fn fixture_book_renders_as_expected() {
    // Proves the rendered pages equal the reviewed expected output (PAROS_BLESS=1 rewrites it),
    // and spells out the properties that matter most.
    let book = fixture_book("expected");
    let out = book.join("site");
    let output = build(&book, &out);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );

    let expected_dir = tests_dir().join("books/basic/expected");
    let pages = [
        "intro.html",
        "part/one.html",
        "part/two.html",
        "protocol-names.html",
        "play/index.html",
        "404.html",
        "search-index.json",
    ];
    for page in pages {
        let actual = read(&out.join(page));
        let expected_path = expected_dir.join(page);
        if std::env::var_os("PAROS_BLESS").is_some() {
            std::fs::create_dir_all(expected_path.parent().unwrap()).unwrap();
            std::fs::write(&expected_path, &actual).unwrap();
        }
        assert_eq!(
            actual,
            read(&expected_path),
            "{page} differs from tests/books/basic/expected (PAROS_BLESS=1 to accept)"
        );
    }

    // The level map counts the catalog's levels against the designed ones, links each playable
    // level and its chapter, and names the designed levels the catalog lacks.
    let after = read(&out.join("after.html"));
    assert!(after.contains("<td>I</td><td>one value</td><td>the two phases</td><td>2 of 3</td>"));
    assert!(after.contains("<td>II</td><td>a log</td><td>slots</td><td>0 of 1</td>"));
    assert!(after.contains("<a href=\"play/#act1/the-duel\"><code>act1/the-duel</code></a>"));
    assert!(after.contains("<a href=\"part/two.html\">Two values</a>"));
    assert!(after.contains("<li>Act I: A third level</li>\n<li>Act II: Later</li>"));
    assert!(
        !out.join("level-map.toml").exists(),
        "the map is a source, not published"
    );

    let intro = read(&out.join("intro.html"));
    assert!(intro.contains(r#"<a href="api/paros_core/struct.Acceptor.html#method.on_prepare"><code>Acceptor::on_prepare</code></a>"#));
    assert!(
        intro.contains(r#"<a href="api/paros_core/fn.promise_rule.html">promise rule</a>"#),
        "glossary link"
    );
    assert!(
        intro.contains(r#"<a href="part/one.html#the-rules">rules</a>"#),
        "chapter link rewritten"
    );
    assert!(
        intro.contains(r##"<h2 id="the-end"><a class="anchor" href="#the-end""##),
        "heading attribute id"
    );
    assert!(
        intro.contains(r#"data-page="intro.html" aria-current="page""#),
        "sidebar marks the page"
    );
    assert!(intro.contains(r#"<link rel="next" href="part/one.html">"#));

    let one = read(&out.join("part/one.html"));
    assert!(
        one.contains(r#"<link rel="stylesheet" href="../static/book.css">"#),
        "relative root from a folder"
    );
    assert!(one.contains(r#"href="../api/paros_core/struct.Ballot.html#method.next_above""#));
    assert!(one.contains(r#"<div class="paros-level" data-level="act1/choose-a-value"></div>"#));
    assert!(one.contains(r#"href="../play/#act1/choose-a-value""#));
    assert!(one.contains(r#"<script type="module" src="../play/mount.js"></script>"#));
    assert!(
        one.contains("Every reachable state of <code>act1-duel</code> was visited: 18,214 states")
    );
    assert!(one.contains("<svg class=\"proven-plot\""));
    assert!(
        one.contains("The duel was an exhaustive search of 18,214 states;")
            && one.contains(r#"{{ figure "not" "read" }} stays text"#),
        "figures read the report inside a sentence, and an escaped one stays text"
    );
    assert!(
        one.contains("<li><code>amnesia A1</code></li>"),
        "negative control shows its counterexample"
    );
    assert!(
        one.contains("<span class=\"hl-"),
        "code highlighted at build time"
    );
    assert!(one.contains("plain &lt;text&gt; stays escaped"));
    assert!(
        one.contains(r#"<figure class="code-embed" data-item="promise_rule">"#)
            && one.contains("Read from the fixture&#39;s source file.")
            && one.contains(r#"<a href="../api/paros_core/fn.promise_rule.html"><code>promise_rule</code></a> <span class="code-where">core/src/acceptor.rs, lines 4–7</span>"#),
        "a code embed shows the span's lines from the source file and links its API page"
    );
    assert!(
        one.contains(r#"href="../api/paros_core/struct.Acceptor.html#method.on_prepare"><code>Acceptor::on_prepare</code></a> <span class="code-where">core/src/acceptor.rs, lines 11–13</span>"#),
        "a method's embed links its anchor"
    );
    assert!(
        one.contains("<code>{{ any }}</code>")
            && one.contains("<code class=\"language-text\">{{#include shown-as-text.rs}}\n</code>"),
        "braces stay text in code, and mdBook's escape drops its backslash"
    );
    assert!(
        one.contains("<table>")
            && one.contains("<del>or not</del>")
            && one.contains("footnote-definition")
    );
    assert!(
        one.contains(r##"<a href="#the-rules">The rules</a>"##),
        "on this page"
    );
    assert!(
        one.contains(r#"<img src="../figures/phases.svg""#)
            && out.join("figures/phases.svg").is_file()
    );

    let two = read(&out.join("part/two.html"));
    assert!(
        two.contains(r#"id="two-values-1""#),
        "repeated heading ids get a suffix"
    );
    assert!(
        two.contains("{{ level &quot;not-an-embed&quot; }}")
            || two.contains("{{ level \"not-an-embed\" }}")
    );
    assert!(
        !two.contains("has_levels") && !two.contains("mount.js"),
        "no game script without a level"
    );

    let not_found = read(&out.join("404.html"));
    assert!(
        not_found.contains(r#"href="/paros/static/book.css""#),
        "404 uses the site URL"
    );
    let sidebar_draft = intro
        .contains(r#"<li class="draft depth-1"><span class="number">1.1.</span> A draft</li>"#);
    assert!(sidebar_draft, "drafts are listed, unlinked");
    assert!(read(&out.join("index.html")).contains("Fixture book"));
    assert!(out.join("static/highlight.css").is_file() && out.join("static/search.js").is_file());
}

#[test]
fn builds_are_byte_identical() {
    // Proves two builds of the same sources give the same bytes, file for file.
    let book = fixture_book("identical");
    let first = book.join("first");
    let second = book.join("second");
    assert!(build(&book, &first).status.success());
    assert!(build(&book, &second).status.success());
    let (first, second) = (tree(&first), tree(&second));
    assert_eq!(
        first.keys().collect::<Vec<_>>(),
        second.keys().collect::<Vec<_>>()
    );
    for (path, bytes) in &first {
        assert!(bytes == &second[path], "{path} differs between builds");
    }
}

#[test]
fn bad_inputs_fail_naming_file_line_and_column() {
    // Proves each bad input fails `check` with a message naming where the problem is.
    for (case, expected) in bad_cases() {
        let book = fixture_book(&case);
        write_files(&book, &overlay(&case));
        let output = run(&book, &["check"]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!output.status.success(), "{case}: check passed");
        assert!(
            stderr.contains(&expected),
            "{case}: expected `{expected}` in:\n{stderr}"
        );
        let located = stderr.lines().filter(|line| {
            let line = line.trim_start_matches("error: ");
            line.starts_with("chapters/") || line.starts_with("theme/")
        });
        assert_eq!(
            located.count(),
            1,
            "{case}: one problem, one message (no cascade):\n{stderr}"
        );
    }
}

#[test]
fn a_counterexample_that_no_longer_replays_fails_the_build() {
    // Proves `build`, not only `check`, replays every counterexample it shows: the fixture's
    // real one builds with its replay's mount point, a tampered step fails with the scenario
    // and the step, and the previous site stays.
    let book = fixture_book("replay");
    let out = book.join("site");
    let built = build(&book, &out);
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    let page = read(&out.join("part/one.html"));
    assert!(
        page.contains("<div class=\"paros-replay\" data-scenario=\"act1-amnesia-control\""),
        "{page}"
    );
    let report = book.join("sources/reports/act1-amnesia-control.json");
    let tampered = read(&report).replace("\"amnesia A1\"", "\"amnesia A4\"");
    std::fs::write(&report, tampered).unwrap();
    let output = build(&book, &out);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "the build passed:\n{stderr}");
    assert!(
        stderr.contains(
            "chapters/part/one.md:52:1: the counterexample of scenario `act1-amnesia-control` \
             no longer replays: step 10 (`amnesia A4`)"
        ),
        "{stderr}"
    );
    assert_eq!(read(&out.join("part/one.html")), page);
}

#[test]
fn a_level_naming_a_missing_symbol_fails_the_check() {
    // Proves the symbols a level declares are resolved against paros-core like chapter links:
    // the fixture's real ones pass, a renamed one fails naming the level and the symbol.
    let book = fixture_book("level-symbol");
    assert!(run(&book, &["check"]).status.success());
    let levels = book.join("sources/levels.json");
    let renamed = read(&levels).replace("\"promise_rule\"", "\"promise_rules\"");
    std::fs::write(&levels, renamed).unwrap();
    let output = run(&book, &["check"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "check passed:\n{stderr}");
    assert!(
        stderr
            .contains("level `act1/choose-a-value`: unknown symbol `promise_rules` in paros_core"),
        "{stderr}"
    );
}

#[test]
fn failed_build_keeps_the_previous_site() {
    // Proves a failing build leaves the last site whole and no staging folder behind.
    let book = fixture_book("swap");
    let out = book.join("site");
    assert!(build(&book, &out).status.success());
    let before = tree(&out);
    write_files(&book, &overlay("unknown-symbol"));
    let output = build(&book, &out);
    assert!(!output.status.success());
    assert_eq!(tree(&out), before);
    assert!(!book.join(".site.new").exists());
}

/// A running `serve`, killed when dropped.
struct Server {
    child: Child,
    address: String,
}

impl Server {
    fn start(book: &Path) -> Server {
        let mut child = Command::new(BINARY)
            .args(["serve", "--port", "0", "--root"])
            .arg(book)
            .arg("--sources")
            .arg(book.join("sources"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let line = lines.next().expect("serve prints its address").unwrap();
        let address = line
            .rsplit("http://")
            .next()
            .unwrap()
            .trim_end_matches('/')
            .to_string();
        Server { child, address }
    }

    /// Sends a raw request line (so the path is not normalised) and returns status and body.
    fn get(&self, path: &str) -> (u16, Vec<u8>) {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.address
        )
        .unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let split = response
            .windows(4)
            .position(|window| window == b"\r\n\r\n")
            .expect("headers end");
        let head = String::from_utf8_lossy(&response[..split]).to_string();
        let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
        let body = response[split + 4..].to_vec();
        let body = if head.to_lowercase().contains("transfer-encoding: chunked") {
            dechunk(&body)
        } else {
            body
        };
        (status, body)
    }

    fn events(&self) -> Events {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        write!(
            stream,
            "GET /__paros/events HTTP/1.1\r\nHost: {}\r\nAccept: text/event-stream\r\n\r\n",
            self.address
        )
        .unwrap();
        Events {
            stream,
            seen: String::new(),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn dechunk(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut rest = body;
    loop {
        let line_end = rest
            .windows(2)
            .position(|window| window == b"\r\n")
            .unwrap();
        let size =
            usize::from_str_radix(String::from_utf8_lossy(&rest[..line_end]).trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&rest[line_end + 2..line_end + 2 + size]);
        rest = &rest[line_end + 2 + size + 2..];
    }
}

/// The server-sent event stream of a `serve`.
struct Events {
    stream: TcpStream,
    seen: String,
}

impl Events {
    /// Waits for the next event named `name` and returns its data.
    fn next(&mut self, name: &str) -> String {
        let marker = format!("event: {name}\n");
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            if let Some(start) = self.seen.find(&marker) {
                let after = &self.seen[start + marker.len()..];
                if let Some(end) = after.find("\n\n") {
                    let data: Vec<&str> = after[..end]
                        .lines()
                        .filter_map(|line| line.strip_prefix("data: "))
                        .collect();
                    let data = data.join("\n");
                    self.seen = after[end..].to_string();
                    return data;
                }
            }
            assert!(
                Instant::now() < deadline,
                "no `{name}` event; saw:\n{}",
                self.seen
            );
            let mut buffer = [0u8; 8192];
            let read = self.stream.read(&mut buffer).expect("reading events");
            assert!(read > 0, "the event stream closed");
            self.seen
                .push_str(&String::from_utf8_lossy(&buffer[..read]).replace("\r\n", "\n"));
        }
    }
}

#[test]
fn serve_keeps_the_last_good_site_on_every_bad_edit() {
    // Proves each bad edit shows its file:line over server-sent events while the pages stay the
    // last good ones, and fixing it reloads with the new content.
    let book = fixture_book("serve");
    let server = Server::start(&book);
    let mut events = server.events();
    events.next("hello");
    let good_intro = server.get("/intro.html");
    assert_eq!(good_intro.0, 200);
    assert!(
        String::from_utf8_lossy(&good_intro.1).contains("/__paros/reload.js"),
        "served pages load the reload script"
    );

    for (case, expected) in bad_cases() {
        let files = overlay(&case);
        let originals: BTreeMap<PathBuf, Vec<u8>> = files
            .keys()
            .map(|path| (path.clone(), std::fs::read(book.join(path)).unwrap()))
            .collect();
        write_files(&book, &files);
        let message = events.next("error");
        assert!(
            message.contains(&expected),
            "{case}: expected `{expected}` in `{message}`"
        );
        assert_eq!(
            server.get("/intro.html"),
            good_intro,
            "{case}: the last good page is still served"
        );
        write_files(&book, &originals);
        events.next("reload");
    }

    // A good edit re-renders that chapter alone, and the page shows it.
    let site = book.join("target/book-serve/site");
    let modified = |page: &str| {
        std::fs::metadata(site.join(page))
            .unwrap()
            .modified()
            .unwrap()
    };
    let other_page_before = modified("part/two.html");
    let intro = book.join("chapters/intro.md");
    let text = read(&intro).replace("Nothing more.", "Nothing more, edited.");
    std::fs::write(&intro, text).unwrap();
    events.next("reload");
    let (status, body) = server.get("/intro.html");
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&body).contains("Nothing more, edited."));
    assert_eq!(
        modified("part/two.html"),
        other_page_before,
        "an untouched chapter is not rewritten"
    );
    // The print page, which holds every chapter, follows once the edits pause.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !String::from_utf8_lossy(&server.get("/print.html").1).contains("Nothing more, edited.") {
        assert!(
            Instant::now() < deadline,
            "print.html never showed the edit"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn serve_shows_a_failed_first_build_as_a_page_until_a_good_one() {
    // Proves that with no good build yet every path answers with the error (not a 404), and
    // the next good build replaces it with the site.
    let book = fixture_book("serve-first-failure");
    let files = overlay("unknown-symbol");
    let originals: BTreeMap<PathBuf, Vec<u8>> = files
        .keys()
        .map(|path| (path.clone(), std::fs::read(book.join(path)).unwrap()))
        .collect();
    write_files(&book, &files);
    let server = Server::start(&book);
    let mut events = server.events();
    events.next("error");
    for path in ["/", "/intro.html", "/no/such/page.html"] {
        let (status, body) = server.get(path);
        let body = String::from_utf8_lossy(&body);
        assert_eq!(status, 503, "{path}: {body}");
        assert!(
            body.contains("chapters/intro.md:5:17: unknown symbol `Acceptor::on_prepar`")
                && body.contains("the next good build replaces this page"),
            "{path}: {body}"
        );
    }
    write_files(&book, &originals);
    events.next("reload");
    let (status, body) = server.get("/intro.html");
    assert_eq!(status, 200);
    assert!(String::from_utf8_lossy(&body).contains("Nothing more."));
}

#[test]
fn a_source_linked_out_of_the_book_is_refused_naming_the_file() {
    // Proves a chapter, a figure and a theme file that are symbolic links to a file outside
    // the book fail both `check` and `build`, each naming the file and why, and publish nothing.
    for (file, named) in [
        ("chapters/intro.md", "chapters/intro.md:1:1: refused"),
        (
            "chapters/figures/phases.svg",
            "`figures/phases.svg`: refused",
        ),
        ("theme/static/book.css", "theme/static/book.css: refused"),
    ] {
        let book = fixture_book("symlink");
        let outside = book.with_extension("outside");
        std::fs::write(&outside, "a file outside the book").unwrap();
        std::fs::remove_file(book.join(file)).unwrap();
        std::os::unix::fs::symlink(&outside, book.join(file)).unwrap();
        for command in ["check", "build"] {
            let output = run(&book, &[command]);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert!(!output.status.success(), "{file}: {command} passed");
            assert!(
                stderr.contains(named) && stderr.contains("is a symbolic link to"),
                "{file}: {command}: expected `{named}` in:\n{stderr}"
            );
        }
        assert!(!book.join("site").exists(), "{file}: nothing is published");
    }
}

/// Runs `serve` on `book` with only `bin` on PATH and `bin/rustc` as rustc; returns its stderr
/// once it exits, or fails if it is still running after 20 s (it went on to serve).
fn serve_with_toolchain(book: &Path, bin: &Path) -> String {
    let mut child = Command::new(BINARY)
        .args(["serve", "--port", "0", "--root"])
        .arg(book)
        .env("RUSTC", bin.join("rustc"))
        .env("PATH", bin)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("serve did not stop before serving");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(!child.wait().unwrap().success(), "{stderr}");
    stderr
}

fn script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

#[test]
fn serve_without_the_wasm_target_adds_it_with_rustup_or_stops_naming_the_command() {
    // Proves, with a stand-in toolchain whose sysroot lacks wasm32: without rustup, serve stops
    // before serving with one line naming the command; with rustup, it says it runs that
    // command and runs it (here it fails, so serve stops and says so).
    let book = fixture_book("no-wasm-target");
    let bin = book.join("bin");
    let sysroot = book.join("sysroot");
    std::fs::create_dir_all(sysroot.join("lib/rustlib/x86_64-unknown-linux-gnu")).unwrap();
    std::fs::create_dir_all(&bin).unwrap();
    script(&bin.join("rustc"), &format!("echo {}", sysroot.display()));

    let stderr = serve_with_toolchain(&book, &bin);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("no wasm32-unknown-unknown target")
            && stderr.contains("run `rustup target add wasm32-unknown-unknown`"),
        "{stderr}"
    );

    let calls = book.join("rustup-calls");
    script(
        &bin.join("rustup"),
        &format!(
            "[ \"$1\" = --version ] && exit 0\necho \"$@\" >> {}\necho 'error: offline' >&2\nexit 1",
            calls.display()
        ),
    );
    let stderr = serve_with_toolchain(&book, &bin);
    assert!(
        stderr.contains("running `rustup target add wasm32-unknown-unknown`")
            && stderr.contains("failed")
            && stderr.contains("offline"),
        "{stderr}"
    );
    assert_eq!(read(&calls), "target add wasm32-unknown-unknown\n");
}

#[test]
fn serve_refuses_paths_outside_the_site() {
    // Proves `..`, its percent-encoded forms and symbolic links out of the site are refused.
    let book = fixture_book("traversal");
    std::fs::write(book.join("secret.txt"), "outside the site").unwrap();
    let server = Server::start(&book);
    assert_eq!(server.get("/intro.html").0, 200);
    let site = book.join("target/book-serve/site");
    std::os::unix::fs::symlink(&book, site.join("escape")).unwrap();
    for path in [
        "/../secret.txt",
        "/static/../../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/%2e%2e/secret.txt",
        "/static/..%2f..%2fsecret.txt",
        "/escape/secret.txt",
    ] {
        let (status, body) = server.get(path);
        assert!(
            status == 403 || status == 400 || status == 404,
            "{path}: status {status}"
        );
        assert!(
            !String::from_utf8_lossy(&body).contains("outside the site"),
            "{path} leaked the file"
        );
    }
    let (status, body) = server.get("/no-such-page.html");
    assert_eq!(status, 404);
    assert!(String::from_utf8_lossy(&body).contains("Page not found"));
}

#[test]
fn many_identical_errors_say_their_help_once_and_count_the_rest() {
    // Proves rustc's manner on a book written for mdBook: each of the twelve `{{#include}}`
    // lines is reported at its own line, their long help is said once with the count of the
    // rest, another error keeps its own help, and the last line counts every error.
    let book = fixture_book("repeated");
    copy_tree(
        &tests_dir().join("repeated-errors/chapters"),
        &book.join("chapters"),
    );
    let output = run(&book, &["check"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!output.status.success(), "check passed:\n{stderr}");
    let includes: Vec<&str> = stderr
        .lines()
        .filter(|line| line.contains("`{{#include ...}}` is an mdBook directive"))
        .collect();
    assert_eq!(includes.len(), 12, "{stderr}");
    for (index, line) in includes.iter().enumerate() {
        let at = format!("chapters/intro.md:{}:1: ", 8 + 4 * index);
        assert!(
            line.trim_start_matches("error: ").starts_with(&at),
            "{line}"
        );
    }
    assert_eq!(
        stderr.matches("to show paros-core's code write").count(),
        1,
        "the include's help is said once:\n{stderr}"
    );
    assert!(
        stderr.contains("  = note: ... and 11 more like this below, with the same help"),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "chapters/intro.md:55:28: unknown directive `{{chart...}}`\n  = help: the book knows"
        ),
        "{stderr}"
    );
    assert!(
        stderr
            .trim_end()
            .ends_with("error: aborting due to 13 previous errors"),
        "{stderr}"
    );
}

#[test]
fn a_number_that_only_coincides_with_a_figure_is_written_as_a_literal() {
    // Proves the escape named by the hand-written-figure error: the same sentence builds once
    // its number is a `literal`, and shows the number as written; a literal that is not a
    // number is refused.
    let book = fixture_book("literal");
    write_files(&book, &overlay("hand-written-figure"));
    let refused = run(&book, &["check"]);
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("is written `{{ literal \"18214\" }}`")
    );
    let intro = book.join("chapters/intro.md");
    let escaped = read(&intro).replace("18,214", "{{ literal \"18,214\" }}");
    std::fs::write(&intro, escaped).unwrap();
    let out = book.join("site");
    let output = build(&book, &out);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(read(&out.join("intro.html")).contains("The search visited 18,214 states."));
    let malformed = read(&intro).replace("\"18,214\"", "\"18k\"");
    std::fs::write(&intro, malformed).unwrap();
    let output = run(&book, &["check"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        !output.status.success()
            && stderr.contains(
                "chapters/intro.md:5:20: `{{ literal \"18k\" }}` holds a number written in digits"
            ),
        "{stderr}"
    );
}

#[test]
fn the_print_page_holds_every_chapter_in_reading_order() {
    // Proves print.html is the whole book: SUMMARY.md's chapters in order under their parts,
    // ids kept apart by chapter, links between chapters pointing into the page, each level a
    // still of its first stage with no mount point, and a link to it from every page.
    let book = fixture_book("print");
    let out = book.join("site");
    let output = build(&book, &out);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let print = read(&out.join("print.html"));
    let order: Vec<usize> = [
        r#"<section class="print-chapter" id="chapter-intro" data-page="intro.html">"#,
        r#"<h1 class="print-part">Part one</h1>"#,
        r#"<section class="print-chapter" id="chapter-part-one" data-page="part/one.html">"#,
        r#"<section class="print-chapter" id="chapter-part-two" data-page="part/two.html">"#,
        r#"<section class="print-chapter" id="chapter-after" data-page="after.html">"#,
    ]
    .iter()
    .map(|needle| {
        print
            .find(needle)
            .unwrap_or_else(|| panic!("{needle} missing"))
    })
    .collect();
    assert!(order.windows(2).all(|pair| pair[0] < pair[1]), "{order:?}");
    assert!(
        print.contains(r##"<h2 id="intro--the-end"><a class="anchor" href="#intro--the-end""##)
    );
    assert!(print.contains(r##"<a href="#part-one--the-rules">rules</a>"##));
    assert!(print.contains(r#"<img src="figures/phases.svg""#));
    assert!(
        !print.contains("class=\"paros-level\""),
        "no level waits for a script"
    );
    assert!(print.contains("<div class=\"level-still\""));
    assert!(print.contains(r#"href="play/#act1/choose-a-value""#));
    assert!(!print.contains("mount.js"), "the print page loads no game");
    for page in [
        "intro.html",
        "part/one.html",
        "index.html",
        "play/index.html",
    ] {
        let html = read(&out.join(page));
        assert!(
            html.contains("print.html\" title=\"Print this book\""),
            "{page} links the print page"
        );
    }
}
