//! Hashes the sources of paros-core and paros-sim at build time, so each report can name the
//! exact inputs that produced it (`scenarios::input_hash`). The hash is FNV-1a over every file's
//! path and bytes, in sorted path order; it is a cache key, not a security measure.

use std::fs;
use std::path::{Path, PathBuf};

fn main() {
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let roots = [manifest.join("../core/src"), manifest.join("src")];
    let mut files = Vec::new();
    for root in &roots {
        // Cargo reruns this script when any file under the folder changes.
        println!("cargo:rerun-if-changed={}", root.display());
        collect(root, &mut files);
    }
    files.sort();
    let mut hash = FNV_OFFSET;
    for file in &files {
        let relative = file.strip_prefix(&manifest).unwrap_or(file);
        hash = fnv1a(hash, relative.to_string_lossy().as_bytes());
        hash = fnv1a(hash, &fs::read(file).expect("a source file is readable"));
    }
    println!("cargo:rustc-env=PAROS_SOURCES_HASH={hash:016x}");
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

fn collect(folder: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}
