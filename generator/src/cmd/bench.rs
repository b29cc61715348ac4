//! `paros-book bench` (hidden): renders synthetic books of 30 and 300 chapters and measures
//! a full build, the time from an edit to the reload message, and the page's JS gzipped.
//!
//! Compiling paros-core and the wasm package is left out: the synthetic books use a prepared
//! sources folder, as the comparison with mdBook asks.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, bail};
use paros_book::synthetic;

/// Options of `bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Chapter counts to measure.
    #[arg(long, value_delimiter = ',', default_value = "30,300")]
    chapters: Vec<usize>,
    /// Full builds per book (the median is reported).
    #[arg(long, default_value_t = 5)]
    builds: usize,
    /// Edits per book for edit-to-reload (the median is reported).
    #[arg(long, default_value_t = 10)]
    edits: usize,
    /// Where the synthetic books go.
    #[arg(long, default_value = "target/book-bench")]
    folder: PathBuf,
    /// The theme to use.
    #[arg(long, default_value = "theme")]
    theme: PathBuf,
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Runs `bench`.
pub fn run(args: Args) -> anyhow::Result<()> {
    let me = std::env::current_exe().context("finding paros-book")?;
    println!(
        "| chapters | full build median (s) | CPU median (s) | peak RSS (MB) | edit-to-reload median (ms) | site (MB) | search index (KB, gzip KB) |"
    );
    println!("|---:|---:|---:|---:|---:|---:|---:|");
    for &count in &args.chapters {
        let folder = args.folder.join(format!("book-{count}"));
        synthetic::write_book(&folder, count, &args.theme)?;
        let mut times = Vec::new();
        let mut cpu_times = Vec::new();
        let mut peak_kilobytes = 0u64;
        for _ in 0..args.builds {
            let (seconds, kilobytes, cpu) = timed_build(&me, &folder)?;
            times.push(seconds);
            cpu_times.push(cpu);
            peak_kilobytes = peak_kilobytes.max(kilobytes);
        }
        let reload = edit_to_reload(&me, &folder, args.edits)?;
        let site = folder.join("site");
        let index = site.join(paros_book::outputs::SEARCH_INDEX);
        println!(
            "| {count} | {:.3} | {:.3} | {:.0} | {:.1} | {:.1} | {:.0}, {:.0} |",
            median(times),
            median(cpu_times),
            peak_kilobytes as f64 / 1024.0,
            reload,
            folder_bytes(&site) as f64 / 1e6,
            std::fs::metadata(&index)
                .map(|meta| meta.len())
                .unwrap_or(0) as f64
                / 1024.0,
            gzip_bytes(&index)? as f64 / 1024.0,
        );
    }
    let static_folder = args
        .folder
        .join(format!("book-{}/site/static", args.chapters[0]));
    for script in ["book.js", "search.js"] {
        let path = static_folder.join(script);
        println!(
            "{script}: {} bytes, {} gzipped",
            std::fs::metadata(&path)?.len(),
            gzip_bytes(&path)?
        );
    }
    Ok(())
}

/// Wall seconds, peak resident kilobytes and CPU seconds (user + system) of one build.
fn timed_build(me: &Path, folder: &Path) -> anyhow::Result<(f64, u64, f64)> {
    let started = Instant::now();
    let output = Command::new("/usr/bin/time")
        .args(["-f", "%M %U %S"])
        .arg(me)
        .args(["build", "--root"])
        .arg(folder)
        .arg("--sources")
        .arg(folder.join("sources"))
        .output()
        .context("running /usr/bin/time paros-book build")?;
    let seconds = started.elapsed().as_secs_f64();
    if !output.status.success() {
        bail!(
            "the synthetic build failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
    }
    let stderr = String::from_utf8_lossy(&output.stderr);
    let figures: Vec<&str> = stderr
        .lines()
        .last()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let kilobytes = figures
        .first()
        .and_then(|figure| figure.parse().ok())
        .unwrap_or(0);
    let cpu: f64 = figures
        .iter()
        .skip(1)
        .filter_map(|figure| figure.parse::<f64>().ok())
        .sum();
    Ok((seconds, kilobytes, cpu))
}

fn edit_to_reload(me: &Path, folder: &Path, edits: usize) -> anyhow::Result<f64> {
    let mut child = Command::new(me)
        .args(["serve", "--port", "0", "--root"])
        .arg(folder)
        .arg("--sources")
        .arg(folder.join("sources"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .context("starting paros-book serve")?;
    let result = (|| {
        let mut lines = BufReader::new(child.stdout.take().context("serve's stdout")?).lines();
        let line = lines.next().context("serve printed nothing")??;
        let address = line
            .rsplit("http://")
            .next()
            .context("no address")?
            .trim_end_matches('/')
            .to_string();
        let mut stream = TcpStream::connect(&address).context("connecting to serve")?;
        stream.set_read_timeout(Some(Duration::from_secs(10)))?;
        write!(
            stream,
            "GET /__paros/events HTTP/1.1\r\nHost: {address}\r\nAccept: text/event-stream\r\n\r\n"
        )?;
        wait_for(&mut stream, "event: hello")?;
        let chapter = folder.join("chapters/chapter-001.md");
        let original = std::fs::read_to_string(&chapter)?;
        let mut times = Vec::new();
        for edit in 0..edits {
            let started = Instant::now();
            std::fs::write(&chapter, format!("{original}\nEdit number {edit}.\n"))?;
            wait_for(&mut stream, "event: reload")?;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            std::thread::sleep(Duration::from_millis(100));
        }
        std::fs::write(&chapter, original)?;
        Ok(median(times))
    })();
    let _ = child.kill();
    let _ = child.wait();
    result
}

fn wait_for(stream: &mut TcpStream, needle: &str) -> anyhow::Result<()> {
    let mut seen = Vec::new();
    let mut buffer = [0u8; 4096];
    loop {
        let read = stream
            .read(&mut buffer)
            .context("reading server-sent events")?;
        if read == 0 {
            bail!("the event stream closed");
        }
        seen.extend_from_slice(&buffer[..read]);
        if String::from_utf8_lossy(&seen).contains(needle) {
            return Ok(());
        }
    }
}

fn folder_bytes(folder: &Path) -> u64 {
    walkdir::WalkDir::new(folder)
        .into_iter()
        .filter_map(Result::ok)
        .filter_map(|entry| entry.metadata().ok())
        .filter(|meta| meta.is_file())
        .map(|meta| meta.len())
        .sum()
}

fn gzip_bytes(path: &Path) -> anyhow::Result<usize> {
    let output = Command::new("gzip")
        .arg("-9c")
        .arg(path)
        .output()
        .context("running gzip")?;
    Ok(output.stdout.len())
}
