//! `serve`: build once, serve the site on 127.0.0.1, watch the sources and rebuild what an edit
//! touches, then tell open pages to reload over server-sent events.
//!
//! Architecture invariants:
//! - the site is written under `target/`, which is never watched, and watcher events are
//!   filtered to source files, so a build never triggers another build;
//! - a failed rebuild writes nothing: the last good site stays served, and pages show the error
//!   (`file:line:col`) in an overlay while the terminal prints it; until a build of this run
//!   succeeds there is no good site, so every path answers with the error as a page
//!   ([`Served::answer`]), replaced by the site once a build succeeds;
//! - static files are served only from inside the site folder: `..` (plain or percent-encoded)
//!   is refused, and so is any path whose real location (after symbolic links) is outside.

use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Context;
use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use notify::{EventKind, RecursiveMode, Watcher};
use tokio::sync::broadcast;
use tokio_stream::StreamExt;
use tower::ServiceExt;
use tower_http::services::ServeDir;

use crate::book::{Book, Inputs};
use crate::inputs::{self, Sources};
use crate::pipeline::{self, BuildPlan};
use crate::site::{self, Copy};

/// The script every served page loads: reload on `reload`, overlay on `error`.
const RELOAD_SCRIPT: &str = include_str!("reload.js");

/// Folders whose changes `serve` acts on, relative to the root.
pub const WATCHED: &[&str] = &["chapters", "theme", "core", "sim", "widgets"];

/// What `serve` needs.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// The build.
    pub plan: BuildPlan,
    /// Where the served site is written (under `target/`).
    pub out: PathBuf,
    /// Address to bind; 127.0.0.1 unless the author asks otherwise.
    pub host: IpAddr,
    /// Port; 0 picks a free one.
    pub port: u16,
}

/// The state of the last build, as pages see it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The site is up to date.
    Ok,
    /// The last build failed; the message names file:line:col.
    Failed(String),
}

/// What `serve` has built so far: the last build's status, and whether any build of this run
/// succeeded (only then does the output folder hold a site to serve).
#[derive(Clone, Debug)]
pub struct Served {
    status: Status,
    has_site: bool,
}

/// How a request for a page is answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// From the site: the current one, or the last good one while the latest build failed.
    Site,
    /// With this page, for every path: no build has succeeded yet.
    ErrorPage(String),
}

impl Served {
    /// Before the first build.
    pub fn new() -> Served {
        Served {
            status: Status::Ok,
            has_site: false,
        }
    }

    /// Records the outcome of a build.
    pub fn record(&mut self, status: Status) {
        self.has_site |= status == Status::Ok;
        self.status = status;
    }

    /// The last build's status.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The site once a build succeeded; before that, a failure shown as a page.
    pub fn answer(&self) -> Answer {
        match &self.status {
            Status::Failed(message) if !self.has_site => Answer::ErrorPage(error_page(message)),
            _ => Answer::Site,
        }
    }
}

impl Default for Served {
    fn default() -> Served {
        Served::new()
    }
}

/// The page every path shows while no build has succeeded: the error, escaped, and what
/// happens next. It listens for the next good build and reloads (not through the reload
/// script, whose overlay calls the page under it the last good one).
pub fn error_page(message: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>paros-book: the build failed</title>\n\
         <script>new EventSource(\"/__paros/events\")\
         .addEventListener(\"reload\", () => location.reload());</script>\n</head>\n<body>\n\
         <h1>The build failed</h1>\n<pre>{}</pre>\n\
         <p>Fix the error and save: the next good build replaces this page.</p>\n</body>\n</html>\n",
        crate::html::escape(message)
    )
}

#[derive(Clone)]
struct Shared {
    out: PathBuf,
    served: Arc<Mutex<Served>>,
    events: broadcast::Sender<Status>,
}

impl Shared {
    fn served(&self) -> std::sync::MutexGuard<'_, Served> {
        self.served
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// What an edit requires, from cheapest to dearest.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Chapters to re-render on their own (paths under `chapters/`).
    pub chapters: BTreeSet<String>,
    /// Re-render every page (SUMMARY, glossary, theme, assets).
    pub full: bool,
    /// Rebuild paros-core's symbols and API docs.
    pub symbols: bool,
    /// Forget cached reports.
    pub reports: bool,
    /// Rebuild the game's wasm package.
    pub wasm: bool,
    /// The simulator or the game's Rust changed: reports and the level catalog come from the
    /// code linked into this process, so only a restart picks those changes up.
    pub linked_code: bool,
}

/// Whether a watcher event's path is a source worth a rebuild: inside a watched folder, not
/// in a `target/` folder, not hidden, not an editor's scratch file.
pub fn is_source(root: &Path, path: &Path) -> bool {
    let Ok(relative) = path.strip_prefix(root) else {
        return false;
    };
    let mut components = relative
        .components()
        .map(|component| component.as_os_str().to_string_lossy());
    let Some(first) = components.next() else {
        return false;
    };
    if !WATCHED.contains(&first.as_ref()) {
        return false;
    }
    let parts: Vec<String> = relative
        .components()
        .map(|component| component.as_os_str().to_string_lossy().to_string())
        .collect();
    if parts
        .iter()
        .any(|part| part == "target" || part == "node_modules" || part.starts_with('.'))
    {
        return false;
    }
    let name = parts.last().map(String::as_str).unwrap_or("");
    !(name.ends_with('~')
        || name.ends_with(".swp")
        || name.ends_with(".swx")
        || name.ends_with(".partial")
        || name == "4913")
}

/// Sorts changed paths into the work they need.
pub fn classify(
    root: &Path,
    paths: &BTreeSet<PathBuf>,
    has_chapter: impl Fn(&str) -> bool,
) -> Work {
    let mut work = Work::default();
    for path in paths {
        let Ok(relative) = path.strip_prefix(root) else {
            continue;
        };
        let relative = relative.to_string_lossy().replace('\\', "/");
        let (folder, rest) = relative.split_once('/').unwrap_or((&relative, ""));
        match folder {
            "chapters" if rest.ends_with(".md") && has_chapter(rest) => {
                work.chapters.insert(rest.to_string());
            }
            "chapters" | "theme" => work.full = true,
            "core" => {
                work.symbols = true;
                work.reports = true;
                work.wasm = true;
                work.full = true;
            }
            "sim" => {
                work.reports = true;
                work.full = true;
                work.linked_code |= rest.ends_with(".rs");
            }
            "widgets" if rest.starts_with("www/") => work.full = true,
            "widgets" => {
                work.wasm = true;
                work.full = true;
                work.linked_code |= rest.ends_with(".rs");
            }
            _ => {}
        }
    }
    if work.full {
        work.chapters.clear();
    }
    work
}

/// The state the rebuild thread keeps between edits.
struct LiveBook {
    config: ServeConfig,
    inputs: Option<Inputs>,
    asset_copies: Vec<Copy>,
    book: Option<Book>,
}

impl LiveBook {
    fn full(&mut self, work: &Work) -> anyhow::Result<()> {
        let repository = matches!(self.config.plan.sources, Sources::Repository(_));
        if self.inputs.is_none() || (repository && (work.symbols || work.wasm)) {
            let (inputs, assets) =
                inputs::prepare(&self.config.plan.sources, self.config.plan.wanted)?;
            self.inputs = Some(inputs);
            self.asset_copies = assets.copies;
        }
        let inputs = self.inputs.as_ref().expect("prepared above");
        if work.reports {
            inputs.reports.clear();
        }
        let book = Book::load(
            self.config.plan.paths.clone(),
            self.config.plan.options.clone(),
            inputs,
        )?;
        let copies = pipeline::site_copies(&self.config.plan.paths, self.asset_copies.clone());
        let files = book.outputs(inputs)?;
        site::write_site(&self.config.out, &files, &copies)?;
        self.book = Some(book);
        Ok(())
    }

    /// Re-renders edited chapters and writes their pages. The search index is left for
    /// [`LiveBook::write_search_index`], after open pages have been told to reload: they do not
    /// need it, and over hundreds of chapters it takes longer than the page. The print page
    /// waits longer still, until the edits pause ([`LiveBook::write_print_page`]).
    fn chapters(&mut self, chapters: &BTreeSet<String>) -> anyhow::Result<bool> {
        let (Some(book), Some(inputs)) = (self.book.as_mut(), self.inputs.as_ref()) else {
            self.full(&Work {
                full: true,
                ..Work::default()
            })?;
            return Ok(false);
        };
        let mut pages = BTreeMap::new();
        let mut rendered = || -> anyhow::Result<()> {
            for chapter in chapters {
                book.update_chapter(chapter, inputs)?;
            }
            for chapter in chapters {
                let (path, bytes) = book.chapter_page(chapter)?;
                pages.insert(path, bytes);
            }
            Ok(())
        };
        if let Err(error) = rendered() {
            // Chapters before the failing one may already be updated in memory but not on
            // disk: forget the book so the next good edit renders everything.
            self.book = None;
            return Err(error);
        }
        site::write_in_place(&self.config.out, &pages)?;
        Ok(true)
    }

    fn write_search_index(&self) -> anyhow::Result<()> {
        let (Some(book), Some(inputs)) = (&self.book, &self.inputs) else {
            return Ok(());
        };
        let (path, bytes) = book.search_index_file(inputs);
        site::write_in_place(&self.config.out, &BTreeMap::from([(path, bytes)]))
    }

    /// Writes the print page, the whole book on one page, after edits to chapters.
    fn write_print_page(&self) -> anyhow::Result<()> {
        let Some(book) = &self.book else {
            return Ok(());
        };
        let (path, bytes) = book.print_page()?;
        site::write_in_place(&self.config.out, &BTreeMap::from([(path, bytes)]))
    }

    /// Applies the work; `Ok(true)` when the search index is still to be written.
    fn apply(&mut self, work: &Work) -> anyhow::Result<bool> {
        if work.full || self.book.is_none() {
            self.full(work)?;
            Ok(false)
        } else {
            self.chapters(&work.chapters)
        }
    }
}

fn set_status(shared: &Shared, status: Status) {
    shared.served().record(status.clone());
    let _ = shared.events.send(status);
}

/// Serves the book until the process ends.
pub fn serve(config: ServeConfig, open: bool) -> anyhow::Result<()> {
    let root = config.plan.paths.root.clone();
    let (status_sender, _) = broadcast::channel(16);
    let shared = Shared {
        out: config.out.clone(),
        served: Arc::new(Mutex::new(Served::new())),
        events: status_sender,
    };

    let mut live = LiveBook {
        config: config.clone(),
        inputs: None,
        asset_copies: Vec::new(),
        book: None,
    };
    let started = Instant::now();
    match live.full(&Work {
        full: true,
        ..Work::default()
    }) {
        Ok(()) => {
            eprintln!(
                "paros-book: built in {:.2} s",
                started.elapsed().as_secs_f64()
            );
            set_status(&shared, Status::Ok);
        }
        Err(error) => {
            eprintln!("error: {error:#}");
            eprintln!("paros-book: every page shows this error until the next good build");
            set_status(&shared, Status::Failed(format!("{error:#}")));
        }
    }

    let (changes, changed) = mpsc::channel::<PathBuf>();
    let watch_root = root.clone();
    let mut watcher = notify::recommended_watcher(move |result: notify::Result<notify::Event>| {
        let Ok(event) = result else { return };
        let relevant = matches!(
            event.kind,
            EventKind::Create(_)
                | EventKind::Modify(_)
                | EventKind::Remove(_)
                | EventKind::Access(notify::event::AccessKind::Close(
                    notify::event::AccessMode::Write
                ))
        );
        if relevant {
            for path in event.paths {
                if is_source(&watch_root, &path) {
                    let _ = changes.send(path);
                }
            }
        }
    })
    .context("starting the file watcher")?;
    for folder in WATCHED {
        let path = root.join(folder);
        if path.is_dir() {
            watcher
                .watch(&path, RecursiveMode::Recursive)
                .with_context(|| format!("watching {}", path.display()))?;
        }
    }

    let rebuild_shared = shared.clone();
    std::thread::spawn(move || rebuild_loop(live, changed, rebuild_shared));

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the runtime")?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(SocketAddr::new(config.host, config.port))
            .await
            .with_context(|| format!("binding {}:{}", config.host, config.port))?;
        let address = listener.local_addr().context("reading the bound address")?;
        let url = format!("http://{address}/");
        println!("paros-book: serving {url}");
        if open {
            let _ = std::process::Command::new("xdg-open").arg(&url).spawn();
        }
        axum::serve(listener, router(shared))
            .await
            .context("serving")
    })?;
    drop(watcher);
    Ok(())
}

/// How long the edits must pause before the print page, which holds every chapter, is
/// written again: while an author types, each save costs only its chapter's page.
const PRINT_PAGE_AFTER: Duration = Duration::from_millis(300);

/// The next changed path; with the print page stale, writes it first if no change comes
/// within [`PRINT_PAGE_AFTER`]. `None` once the watcher is gone.
fn next_change(
    live: &LiveBook,
    changed: &mpsc::Receiver<PathBuf>,
    print_stale: &mut bool,
) -> Option<PathBuf> {
    if *print_stale {
        match changed.recv_timeout(PRINT_PAGE_AFTER) {
            Ok(path) => return Some(path),
            Err(mpsc::RecvTimeoutError::Disconnected) => return None,
            Err(mpsc::RecvTimeoutError::Timeout) => {
                *print_stale = false;
                if let Err(error) = live.write_print_page() {
                    eprintln!("error: {error:#}");
                }
            }
        }
    }
    changed.recv().ok()
}

fn rebuild_loop(mut live: LiveBook, changed: mpsc::Receiver<PathBuf>, shared: Shared) {
    let root = live.config.plan.paths.root.clone();
    let mut print_stale = false;
    while let Some(first) = next_change(&live, &changed, &mut print_stale) {
        let mut paths = BTreeSet::from([first]);
        // Editors save in several steps; wait until the burst is over.
        while let Ok(path) = changed.recv_timeout(Duration::from_millis(15)) {
            paths.insert(path);
        }
        let work = classify(&root, &paths, |source| {
            live.book
                .as_ref()
                .is_some_and(|book| book.has_chapter(source))
        });
        if work == Work::default() {
            continue;
        }
        if work.linked_code {
            eprintln!(
                "paros-book: the simulator or the game changed; restart serve to use them for reports and the level map"
            );
        }
        let started = Instant::now();
        match live.apply(&work) {
            Ok(search_index_pending) => {
                let what = if work.full {
                    "the book".to_string()
                } else {
                    work.chapters.iter().cloned().collect::<Vec<_>>().join(", ")
                };
                eprintln!(
                    "paros-book: rebuilt {what} in {} ms",
                    started.elapsed().as_millis()
                );
                set_status(&shared, Status::Ok);
                if search_index_pending {
                    if let Err(error) = live.write_search_index() {
                        eprintln!("error: {error:#}");
                    }
                    print_stale = true;
                }
            }
            Err(error) => {
                eprintln!("error: {error:#}");
                eprintln!("paros-book: still serving the last good site");
                set_status(&shared, Status::Failed(format!("{error:#}")));
            }
        }
    }
}

fn router(shared: Shared) -> Router {
    Router::new()
        .route("/__paros/events", get(events))
        .route("/__paros/reload.js", get(reload_script))
        .fallback(static_file)
        .with_state(shared)
}

async fn reload_script() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        RELOAD_SCRIPT,
    )
}

fn status_event(status: &Status) -> Event {
    match status {
        Status::Ok => Event::default().event("ok").data("ok"),
        Status::Failed(message) => Event::default()
            .event("error")
            .data(message.replace('\r', "")),
    }
}

async fn events(State(shared): State<Shared>) -> impl IntoResponse {
    let current = shared.served().status().clone();
    let first = match &current {
        Status::Ok => Event::default().event("hello").data("ok"),
        failed => status_event(failed),
    };
    let updates = tokio_stream::wrappers::BroadcastStream::new(shared.events.subscribe())
        .filter_map(|status| {
            status.ok().map(|status| match status {
                Status::Ok => Event::default().event("reload").data("reload"),
                failed => status_event(&failed),
            })
        });
    let stream = tokio_stream::once(first)
        .chain(updates)
        .map(Ok::<Event, Infallible>);
    Sse::new(stream).keep_alive(KeepAlive::default())
}

/// Decodes `%XX` escapes; `None` for a malformed escape or a result that is not UTF-8.
pub fn percent_decode(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = path.get(index + 1..index + 3)?;
            decoded.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            decoded.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(decoded).ok()
}

/// The file a request path names inside `site`, or `None` when the path tries to leave it.
pub fn resolve_request(site: &Path, raw_path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(raw_path)?;
    if decoded.contains('\\') || decoded.contains('\0') {
        return None;
    }
    let mut path = site.to_path_buf();
    for segment in decoded.split('/') {
        match segment {
            "" | "." => {}
            ".." => return None,
            other => path.push(other),
        }
    }
    // A path that exists must really be inside the site once symbolic links are followed.
    if let Ok(real) = std::fs::canonicalize(&path) {
        let site_real = std::fs::canonicalize(site).ok()?;
        if !real.starts_with(&site_real) {
            return None;
        }
    }
    Some(path)
}

async fn static_file(State(shared): State<Shared>, request: Request) -> Response {
    let answer = shared.served().answer();
    if let Answer::ErrorPage(page) = answer {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            page,
        )
            .into_response();
    }
    if resolve_request(&shared.out, request.uri().path()).is_none() {
        return (StatusCode::FORBIDDEN, "refused: the path leaves the site\n").into_response();
    }
    let response = match ServeDir::new(&shared.out).oneshot(request).await {
        Ok(response) => response.map(Body::new),
        Err(error) => match error {},
    };
    if response.status() != StatusCode::NOT_FOUND {
        let mut response = response;
        response
            .headers_mut()
            .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        return response;
    }
    let page = tokio::fs::read(shared.out.join("404.html"))
        .await
        .unwrap_or_else(|_| b"not found\n".to_vec());
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        page,
    )
        .into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn traversal_is_refused_plain_and_encoded() {
        // Proves `..` cannot leave the site however it is spelled.
        let site = std::env::temp_dir();
        assert!(resolve_request(&site, "/../etc/passwd").is_none());
        assert!(resolve_request(&site, "/%2e%2e/etc/passwd").is_none());
        assert!(resolve_request(&site, "/a/%2E%2E/%2e%2e/etc/passwd").is_none());
        assert!(resolve_request(&site, "/a/..%2f..%2fetc").is_none());
        assert!(resolve_request(&site, "/%zz").is_none());
        assert_eq!(
            resolve_request(&site, "/a/b.html"),
            Some(site.join("a/b.html"))
        );
    }

    #[test]
    fn the_error_page_is_served_until_a_build_succeeds_then_the_last_good_site() {
        // Proves the states: a first build that fails answers every path with its error,
        // escaped; a good build replaces it with the site; a later failure keeps the site.
        let mut served = Served::new();
        served.record(Status::Failed("chapters/a.md:1:2: <b> & `x`".into()));
        let Answer::ErrorPage(page) = served.answer() else {
            panic!("no site yet: the error page is served");
        };
        assert!(
            page.contains("chapters/a.md:1:2: &lt;b&gt; &amp; `x`"),
            "{page}"
        );
        assert!(!page.contains("<b>"), "the message is escaped");
        assert!(page.contains("the next good build replaces this page"));
        assert!(page.contains("/__paros/events"), "it reloads by itself");
        served.record(Status::Failed("still broken".into()));
        assert!(
            matches!(served.answer(), Answer::ErrorPage(page) if page.contains("still broken"))
        );
        served.record(Status::Ok);
        assert_eq!(served.answer(), Answer::Site);
        served.record(Status::Failed("broken again".into()));
        assert_eq!(
            served.answer(),
            Answer::Site,
            "the last good site stays served"
        );
        assert_eq!(served.status(), &Status::Failed("broken again".into()));
    }

    #[test]
    fn only_sources_trigger_rebuilds() {
        // Proves build output, hidden files and editor scratch files never start a build.
        let root = Path::new("/book");
        assert!(is_source(root, Path::new("/book/chapters/intro.md")));
        assert!(is_source(root, Path::new("/book/core/src/lib.rs")));
        assert!(!is_source(
            root,
            Path::new("/book/target/book-serve/site/intro.html")
        ));
        assert!(!is_source(root, Path::new("/book/site/intro.html")));
        assert!(!is_source(root, Path::new("/book/chapters/.intro.md.swp")));
        assert!(!is_source(root, Path::new("/book/chapters/intro.md~")));
        assert!(!is_source(root, Path::new("/book/widgets/target/x")));
        assert!(!is_source(root, Path::new("/book/chapters/4913")));
    }

    #[test]
    fn edits_are_classified_by_what_they_touch() {
        // Proves a chapter edit re-renders only that chapter, and code edits rebuild their inputs.
        let root = Path::new("/book");
        let paths = |list: &[&str]| {
            list.iter()
                .map(|path| root.join(path))
                .collect::<BTreeSet<_>>()
        };
        let known = |source: &str| source == "intro.md";
        let work = classify(root, &paths(&["chapters/intro.md"]), known);
        assert_eq!(work.chapters, BTreeSet::from(["intro.md".to_string()]));
        assert!(!work.full);
        assert!(classify(root, &paths(&["chapters/SUMMARY.md"]), known).full);
        assert!(classify(root, &paths(&["chapters/new.md"]), known).full);
        let theme = classify(
            root,
            &paths(&["theme/chapter.html", "chapters/intro.md"]),
            known,
        );
        assert!(theme.full && theme.chapters.is_empty());
        let core = classify(root, &paths(&["core/src/lib.rs"]), known);
        assert!(core.symbols && core.reports && core.wasm && core.full);
        let sim = classify(root, &paths(&["sim/src/lib.rs"]), known);
        assert!(sim.reports && sim.linked_code);
        assert!(!classify(root, &paths(&["widgets/www/mount.js"]), known).linked_code);
    }
}
