//! Writing the site: a whole build goes to a fresh folder beside the output and is swapped in at
//! the end, so a failed build never leaves half a site; `serve` updates single files by
//! writing a temporary file and renaming it over the old one.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use walkdir::WalkDir;

/// A folder copied into the site.
#[derive(Clone, Debug)]
pub struct Copy {
    /// The folder to copy.
    pub from: PathBuf,
    /// Where it goes, relative to the site root (`""` for the root).
    pub to: String,
    /// File names (relative to `from`) left out.
    pub skip: fn(&str) -> bool,
}

/// Keeps every file.
pub fn keep_all(_: &str) -> bool {
    false
}

/// Writes `files` and `copies` into a new folder, then swaps it in place of `out`.
pub fn write_site(
    out: &Path,
    files: &BTreeMap<String, Vec<u8>>,
    copies: &[Copy],
) -> anyhow::Result<()> {
    let name = out
        .file_name()
        .context("the output folder has no name")?
        .to_string_lossy()
        .to_string();
    let parent = out
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
    let staging = parent.join(format!(".{name}.new"));
    let retired = parent.join(format!(".{name}.old"));
    for leftover in [&staging, &retired] {
        if leftover.exists() {
            fs::remove_dir_all(leftover)
                .with_context(|| format!("removing {}", leftover.display()))?;
        }
    }
    fs::create_dir_all(&staging).with_context(|| format!("creating {}", staging.display()))?;
    let result = fill(&staging, files, copies);
    if let Err(error) = result {
        let _ = fs::remove_dir_all(&staging);
        return Err(error);
    }
    if out.exists() {
        fs::rename(out, &retired)
            .with_context(|| format!("moving the old site {} aside", out.display()))?;
    }
    fs::rename(&staging, out)
        .with_context(|| format!("moving the new site into {}", out.display()))?;
    if retired.exists() {
        fs::remove_dir_all(&retired).with_context(|| format!("removing {}", retired.display()))?;
    }
    Ok(())
}

fn fill(folder: &Path, files: &BTreeMap<String, Vec<u8>>, copies: &[Copy]) -> anyhow::Result<()> {
    for copy in copies {
        copy_folder(&copy.from, &folder.join(&copy.to), copy.skip)?;
    }
    for (path, bytes) in files {
        let target = safe_join(folder, path)?;
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        fs::write(&target, bytes).with_context(|| format!("writing {}", target.display()))?;
    }
    Ok(())
}

/// Joins a site path onto `folder`, refusing absolute paths and `..`.
fn safe_join(folder: &Path, path: &str) -> anyhow::Result<PathBuf> {
    if path.starts_with('/') || path.split('/').any(|part| part == ".." || part.is_empty()) {
        bail!("refusing to write outside the site: `{path}`");
    }
    Ok(folder.join(path))
}

/// The files of a folder to copy, in sorted order, each with its path relative to `from`.
/// Symbolic links are followed while they stay inside `from`; one that leaves it is an error
/// naming the file, so nothing from elsewhere is ever published.
fn files_to_copy(from: &Path, skip: fn(&str) -> bool) -> anyhow::Result<Vec<(PathBuf, PathBuf)>> {
    let label = from.display().to_string();
    let mut files = Vec::new();
    for entry in WalkDir::new(from).follow_links(true).sort_by_file_name() {
        let entry = entry.with_context(|| format!("reading {}", from.display()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry
            .path()
            .strip_prefix(from)
            .expect("walk stays under its root");
        if skip(&relative.to_string_lossy().replace('\\', "/")) {
            continue;
        }
        if let Some(why) = crate::confine::escapes(from, &label, entry.path()) {
            bail!("{}: {why}", entry.path().display());
        }
        files.push((entry.path().to_path_buf(), relative.to_path_buf()));
    }
    Ok(files)
}

/// Checks every copy as [`write_site`] would make it, writing nothing.
pub fn check_copies(copies: &[Copy]) -> anyhow::Result<()> {
    for copy in copies {
        files_to_copy(&copy.from, copy.skip)?;
    }
    Ok(())
}

/// Copies a folder's files in sorted order, refusing any whose real path leaves it.
pub fn copy_folder(from: &Path, to: &Path, skip: fn(&str) -> bool) -> anyhow::Result<()> {
    for (source, relative) in files_to_copy(from, skip)? {
        let target = to.join(relative);
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        fs::copy(&source, &target)
            .with_context(|| format!("copying {} to {}", source.display(), target.display()))?;
    }
    Ok(())
}

/// Replaces single files of a live site, each by writing a temporary file and renaming it, so a
/// reader never sees half a page.
pub fn write_in_place(out: &Path, files: &BTreeMap<String, Vec<u8>>) -> anyhow::Result<()> {
    for (path, bytes) in files {
        let target = safe_join(out, path)?;
        if let Some(parent) = target.parent() {
            fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        let temporary = target.with_extension("partial");
        fs::write(&temporary, bytes).with_context(|| format!("writing {}", temporary.display()))?;
        fs::rename(&temporary, &target)
            .with_context(|| format!("replacing {}", target.display()))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_paths_outside_the_site() {
        // Proves a generated path cannot escape the output folder.
        assert!(safe_join(Path::new("/tmp/site"), "../etc/passwd").is_err());
        assert!(safe_join(Path::new("/tmp/site"), "/etc/passwd").is_err());
        assert!(safe_join(Path::new("/tmp/site"), "a/b.html").is_ok());
    }
}
