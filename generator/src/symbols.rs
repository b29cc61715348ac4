//! The symbol index: every public item of paros-core, by path, with its page in the API docs.
//!
//! Built from rustdoc's JSON by walking from the crate root through public modules and
//! re-exports, so each path is where the HTML docs put the item (a `pub use` of an item from a
//! private module is documented at the re-export). Methods are not in rustdoc's `paths`: they
//! are reached through each type's `impls`.
//!
//! Resolution follows rustdoc's intra-doc links, relative to the crate root: `Acceptor`,
//! `Acceptor::on_prepare`, `crate::promise_rule`, with disambiguators (`fn@`, `struct@`, ...,
//! a trailing `()` or `!`). A name that is not a full path may name the unique item whose path
//! ends with it (`on_prepare`); when several do, it is ambiguous.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, bail};
use rustdoc_types::{Crate, Id, Item, ItemEnum, StructKind};
use serde::{Deserialize, Serialize};

/// What an item is; decides its URL and which disambiguators match it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A module.
    Module,
    /// A struct.
    Struct,
    /// An enum.
    Enum,
    /// A union.
    Union,
    /// A trait.
    Trait,
    /// A free function.
    Function,
    /// A type alias.
    TypeAlias,
    /// A constant.
    Constant,
    /// A static.
    Static,
    /// A macro.
    Macro,
    /// A method or associated function with a body.
    Method,
    /// A trait's required method.
    TyMethod,
    /// An associated constant.
    AssocConst,
    /// An associated type.
    AssocType,
    /// An enum variant.
    Variant,
    /// A struct or union field.
    Field,
}

impl Kind {
    /// rustdoc's word for the kind, used in disambiguators and messages.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Module => "mod",
            Kind::Struct => "struct",
            Kind::Enum => "enum",
            Kind::Union => "union",
            Kind::Trait => "trait",
            Kind::Function => "fn",
            Kind::TypeAlias => "type",
            Kind::Constant => "const",
            Kind::Static => "static",
            Kind::Macro => "macro",
            Kind::Method | Kind::TyMethod => "method",
            Kind::AssocConst => "const",
            Kind::AssocType => "type",
            Kind::Variant => "variant",
            Kind::Field => "field",
        }
    }

    fn page_prefix(self) -> &'static str {
        match self {
            Kind::Struct => "struct",
            Kind::Enum => "enum",
            Kind::Union => "union",
            Kind::Trait => "trait",
            Kind::Function => "fn",
            Kind::TypeAlias => "type",
            Kind::Constant => "constant",
            Kind::Static => "static",
            Kind::Macro => "macro",
            _ => "",
        }
    }

    fn anchor_prefix(self) -> &'static str {
        match self {
            Kind::Method => "method",
            Kind::TyMethod => "tymethod",
            Kind::AssocConst => "associatedconstant",
            Kind::AssocType => "associatedtype",
            Kind::Variant => "variant",
            Kind::Field => "structfield",
            _ => "",
        }
    }

    /// Whether a disambiguator word (`fn`, `struct`, `value`, ...) admits this kind.
    fn admits(self, word: &str) -> bool {
        match word {
            "value" => matches!(
                self,
                Kind::Function
                    | Kind::Method
                    | Kind::TyMethod
                    | Kind::Constant
                    | Kind::Static
                    | Kind::AssocConst
            ),
            "type" => matches!(
                self,
                Kind::Struct
                    | Kind::Enum
                    | Kind::Union
                    | Kind::Trait
                    | Kind::TypeAlias
                    | Kind::AssocType
            ),
            "fn" | "function" => matches!(self, Kind::Function | Kind::Method | Kind::TyMethod),
            "method" => matches!(self, Kind::Method | Kind::TyMethod),
            "mod" | "module" => self == Kind::Module,
            "const" | "constant" => matches!(self, Kind::Constant | Kind::AssocConst),
            "tyalias" | "typealias" => self == Kind::TypeAlias,
            other => self.word() == other,
        }
    }
}

/// Where an item's source is: rustdoc's span, as whole lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceSpan {
    /// The file, relative to the workspace root (`core/src/acceptor.rs`).
    pub file: String,
    /// The item's first line, from 1.
    pub first_line: usize,
    /// The item's last line, included.
    pub last_line: usize,
}

impl SourceSpan {
    fn of(item: &Item) -> Option<SourceSpan> {
        let span = item.span.as_ref()?;
        Some(SourceSpan {
            file: span.filename.to_string_lossy().replace('\\', "/"),
            first_line: span.begin.0,
            last_line: span.end.0,
        })
    }
}

/// One documented item.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Symbol {
    /// Path from the crate root, without the crate name: `Acceptor::on_prepare`.
    pub path: String,
    /// What the item is.
    pub kind: Kind,
    /// Where its source is, when rustdoc says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<SourceSpan>,
}

impl Symbol {
    /// An item without a known source span.
    pub fn new(path: impl Into<String>, kind: Kind) -> Symbol {
        Symbol {
            path: path.into(),
            kind,
            span: None,
        }
    }

    /// The item's page and anchor under the API docs: `paros_core/struct.Acceptor.html#method.on_prepare`.
    pub fn url(&self, crate_name: &str) -> String {
        let segments: Vec<&str> = self.path.split("::").collect();
        let anchor = self.kind.anchor_prefix();
        let (page_segments, fragment) = if anchor.is_empty() {
            (&segments[..], None)
        } else {
            let (last, parent) = segments.split_last().expect("a path has a segment");
            (parent, Some(format!("{anchor}.{last}")))
        };
        let mut url = String::from(crate_name);
        match page_segments.split_last() {
            None => url.push_str("/index.html"),
            Some((last, modules)) => {
                for module in modules {
                    url.push('/');
                    url.push_str(module);
                }
                // The page of a variant or method belongs to its parent type, whose kind the
                // anchor implies only loosely: the parent page is looked up by the caller.
                url.push('/');
                if self.kind == Kind::Module {
                    url.push_str(last);
                    url.push_str("/index.html");
                } else if anchor.is_empty() {
                    url.push_str(&format!("{}.{last}.html", self.kind.page_prefix()));
                } else {
                    url.push_str(&format!("{{parent}}.{last}.html"));
                }
            }
        }
        if let Some(fragment) = fragment {
            url.push('#');
            url.push_str(&fragment);
        }
        url
    }
}

/// The result of resolving a link target.
#[derive(Debug, PartialEq, Eq)]
pub enum Resolution<'index> {
    /// Exactly one item.
    Found(&'index Symbol),
    /// No item; the nearest existing names.
    Unknown {
        /// Up to three existing paths.
        nearest: Vec<String>,
    },
    /// Several items; their paths and kinds.
    Ambiguous {
        /// `kind@path` of each.
        candidates: Vec<String>,
    },
}

/// Every public item of one crate.
#[derive(Clone, Debug, Default)]
pub struct SymbolIndex {
    /// The crate's name with underscores (`paros_core`).
    pub crate_name: String,
    /// Items by path.
    by_path: BTreeMap<String, Vec<Symbol>>,
    /// The folder the spans' files are relative to (the workspace root).
    source_root: PathBuf,
}

/// The rustdoc JSON format this build reads.
pub const FORMAT_VERSION: u32 = rustdoc_types::FORMAT_VERSION;

impl SymbolIndex {
    /// An index of the given items (for fixtures and tests).
    pub fn from_symbols(crate_name: &str, symbols: Vec<Symbol>) -> SymbolIndex {
        let mut index = SymbolIndex {
            crate_name: crate_name.to_string(),
            ..SymbolIndex::default()
        };
        for symbol in symbols {
            index.insert(symbol);
        }
        index
    }

    fn insert(&mut self, symbol: Symbol) {
        let entries = self.by_path.entry(symbol.path.clone()).or_default();
        if !entries.iter().any(|existing| existing.kind == symbol.kind) {
            entries.push(symbol);
        }
    }

    /// Every item, sorted by path.
    pub fn symbols(&self) -> impl Iterator<Item = &Symbol> {
        self.by_path.values().flatten()
    }

    /// The URL of `symbol` relative to the API docs folder.
    pub fn url(&self, symbol: &Symbol) -> String {
        let url = symbol.url(&self.crate_name);
        if !url.contains("{parent}") {
            return url;
        }
        let parent_path = symbol
            .path
            .rsplit_once("::")
            .map_or("", |(parent, _)| parent);
        let parent_kind = self
            .by_path
            .get(parent_path)
            .and_then(|entries| {
                entries
                    .iter()
                    .find(|entry| !entry.kind.page_prefix().is_empty())
            })
            .map_or(Kind::Struct, |entry| entry.kind);
        url.replace("{parent}", parent_kind.page_prefix())
    }

    /// Reads rustdoc's JSON, checking its format version first.
    pub fn from_rustdoc_json(bytes: &[u8]) -> anyhow::Result<SymbolIndex> {
        #[derive(Deserialize)]
        struct Version {
            format_version: u32,
        }
        let version: Version =
            serde_json::from_slice(bytes).context("reading rustdoc's JSON format_version")?;
        if version.format_version != FORMAT_VERSION {
            bail!(
                "rustdoc JSON has format_version {found}, but paros-book reads {FORMAT_VERSION}: use the toolchain \
                 pinned in rust-toolchain.toml, or move the `rustdoc-types` pin in generator/Cargo.toml to \
                 the release whose minor version is {found}",
                found = version.format_version
            );
        }
        let krate: Crate = serde_json::from_slice(bytes).context("parsing rustdoc's JSON")?;
        let root = krate
            .index
            .get(&krate.root)
            .context("rustdoc JSON has no root module")?;
        let crate_name = root.name.clone().context("the root module has no name")?;
        let mut index = SymbolIndex {
            crate_name,
            ..SymbolIndex::default()
        };
        let mut visited = HashSet::new();
        walk_module(&krate, &krate.root, "", &mut index, &mut visited);
        Ok(index)
    }

    /// The same index, reading the spans' files under `root`.
    pub fn with_source_root(mut self, root: &Path) -> SymbolIndex {
        self.source_root = root.to_path_buf();
        self
    }

    /// The lines of `span`, read from its file under the source root. A file outside the root,
    /// or lines past the file's end (a rustdoc JSON older than the source), is an error.
    pub fn source_lines(&self, span: &SourceSpan) -> Result<String, String> {
        let relative = Path::new(&span.file);
        if !relative
            .components()
            .all(|part| matches!(part, Component::Normal(_)))
        {
            return Err(format!(
                "its source file `{}` is not inside the workspace",
                span.file
            ));
        }
        let path = self.source_root.join(relative);
        if let Some(why) = crate::confine::escapes(&self.source_root, "the workspace", &path) {
            return Err(format!("its source file `{}`: {why}", span.file));
        }
        let text = std::fs::read_to_string(&path)
            .map_err(|error| format!("cannot read its source file `{}`: {error}", span.file))?;
        let lines: Vec<&str> = text.lines().collect();
        if span.first_line == 0 || span.last_line < span.first_line || span.last_line > lines.len()
        {
            return Err(format!(
                "its span, lines {} to {} of `{}`, is not in the file's {} lines: the rustdoc JSON \
                 is older than the source",
                span.first_line,
                span.last_line,
                span.file,
                lines.len()
            ));
        }
        Ok(lines[span.first_line - 1..span.last_line].join("\n"))
    }

    /// Resolves a link target written in a chapter.
    pub fn resolve(&self, target: &str) -> Resolution<'_> {
        let (disambiguator, path) = split_disambiguator(target);
        let path = path
            .strip_prefix("crate::")
            .or_else(|| path.strip_prefix(&format!("{}::", self.crate_name)))
            .unwrap_or(path);
        let admits = |symbol: &&Symbol| disambiguator.is_none_or(|word| symbol.kind.admits(word));
        let exact: Vec<&Symbol> = self
            .by_path
            .get(path)
            .into_iter()
            .flatten()
            .filter(admits)
            .collect();
        let matches = if exact.is_empty() {
            let suffix = format!("::{path}");
            self.symbols()
                .filter(|symbol| symbol.path.ends_with(&suffix))
                .filter(admits)
                .collect()
        } else {
            exact
        };
        match matches.as_slice() {
            [one] => Resolution::Found(one),
            [] => Resolution::Unknown {
                nearest: self.nearest(path),
            },
            several => Resolution::Ambiguous {
                candidates: several
                    .iter()
                    .map(|symbol| format!("{}@{}", symbol.kind.word(), symbol.path))
                    .collect(),
            },
        }
    }

    /// The one item `name` names, or why it names none or several, as the book's errors say it.
    pub fn find(&self, name: &str) -> Result<&Symbol, String> {
        match self.resolve(name) {
            Resolution::Found(symbol) => Ok(symbol),
            Resolution::Unknown { nearest } => Err(format!(
                "unknown symbol `{name}` in {}; nearest: {}",
                self.crate_name,
                nearest.join(", ")
            )),
            Resolution::Ambiguous { candidates } => Err(format!(
                "ambiguous symbol `{name}`: it names {}; add the disambiguator, as in `{}`",
                candidates.join(", "),
                candidates[0]
            )),
        }
    }

    /// Up to three existing paths closest to `wanted` by edit distance.
    pub fn nearest(&self, wanted: &str) -> Vec<String> {
        let wanted_lower = wanted.to_lowercase();
        let mut scored: Vec<(usize, &str)> = self
            .by_path
            .keys()
            .map(|path| {
                let lower = path.to_lowercase();
                let last = lower.rsplit("::").next().unwrap_or(&lower);
                let distance = edit_distance(&wanted_lower, &lower)
                    .min(edit_distance(&wanted_lower, last) + 1);
                (distance, path.as_str())
            })
            .collect();
        scored.sort();
        scored
            .into_iter()
            .take(3)
            .map(|(_, path)| path.to_string())
            .collect()
    }
}

/// Splits `fn@path`, `path()` and `path!` into the disambiguator word and the path.
fn split_disambiguator(target: &str) -> (Option<&str>, &str) {
    let target = target.trim().trim_matches('`');
    if let Some((word, path)) = target.split_once('@') {
        return (Some(word), path);
    }
    if let Some(path) = target.strip_suffix("()") {
        return (Some("fn"), path);
    }
    if let Some(path) = target.strip_suffix('!') {
        return (Some("macro"), path);
    }
    (None, target)
}

/// Whether `text` reads as a Rust path a chapter may link (`Acceptor::on_prepare`, `fn@x`).
pub fn looks_like_path(text: &str) -> bool {
    let (_, path) = split_disambiguator(text);
    !path.is_empty()
        && path.split("::").all(|segment| {
            let mut chars = segment.chars();
            chars
                .next()
                .is_some_and(|first| first.is_alphabetic() || first == '_')
                && chars.all(|c| c.is_alphanumeric() || c == '_')
        })
}

/// Levenshtein distance over characters.
pub fn edit_distance(left: &str, right: &str) -> usize {
    let right: Vec<char> = right.chars().collect();
    let mut previous: Vec<usize> = (0..=right.len()).collect();
    let mut current = vec![0; right.len() + 1];
    for (row, left_char) in left.chars().enumerate() {
        current[0] = row + 1;
        for (column, right_char) in right.iter().enumerate() {
            let substitution = previous[column] + usize::from(left_char != *right_char);
            current[column + 1] = substitution
                .min(previous[column + 1] + 1)
                .min(current[column] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[right.len()]
}

fn join(prefix: &str, name: &str) -> String {
    if prefix.is_empty() {
        name.to_string()
    } else {
        format!("{prefix}::{name}")
    }
}

fn walk_module(
    krate: &Crate,
    module_id: &Id,
    prefix: &str,
    index: &mut SymbolIndex,
    visited: &mut HashSet<(Id, String)>,
) {
    if !visited.insert((*module_id, prefix.to_string())) {
        return;
    }
    let Some(ItemEnum::Module(module)) = krate.index.get(module_id).map(|item| &item.inner) else {
        return;
    };
    for item_id in &module.items {
        let Some(item) = krate.index.get(item_id) else {
            continue;
        };
        if let ItemEnum::Use(use_item) = &item.inner {
            let Some(target_id) = use_item.id else {
                continue;
            };
            if !krate.index.contains_key(&target_id) {
                continue;
            }
            if use_item.is_glob {
                walk_module(krate, &target_id, prefix, index, visited);
            } else {
                add_item(
                    krate,
                    &target_id,
                    &join(prefix, &use_item.name),
                    index,
                    visited,
                );
            }
            continue;
        }
        if let Some(name) = &item.name {
            add_item(krate, item_id, &join(prefix, name), index, visited);
        }
    }
}

fn add_item(
    krate: &Crate,
    id: &Id,
    path: &str,
    index: &mut SymbolIndex,
    visited: &mut HashSet<(Id, String)>,
) {
    let Some(item) = krate.index.get(id) else {
        return;
    };
    let span = SourceSpan::of(item);
    let mut push = |path: String, kind: Kind| {
        index.insert(Symbol {
            path,
            kind,
            span: span.clone(),
        })
    };
    match &item.inner {
        ItemEnum::Module(_) => {
            push(path.to_string(), Kind::Module);
            walk_module(krate, id, path, index, visited);
        }
        ItemEnum::Struct(structure) => {
            push(path.to_string(), Kind::Struct);
            if let StructKind::Plain { fields, .. } = &structure.kind {
                add_named_children(krate, fields, path, Kind::Field, index);
            }
            add_impls(krate, &structure.impls, path, index);
        }
        ItemEnum::Union(union) => {
            push(path.to_string(), Kind::Union);
            add_named_children(krate, &union.fields, path, Kind::Field, index);
            add_impls(krate, &union.impls, path, index);
        }
        ItemEnum::Enum(enumeration) => {
            push(path.to_string(), Kind::Enum);
            add_named_children(krate, &enumeration.variants, path, Kind::Variant, index);
            add_impls(krate, &enumeration.impls, path, index);
        }
        ItemEnum::Trait(trait_item) => {
            push(path.to_string(), Kind::Trait);
            for child_id in &trait_item.items {
                let Some(child) = krate.index.get(child_id) else {
                    continue;
                };
                let Some(name) = &child.name else { continue };
                let kind = match &child.inner {
                    ItemEnum::Function(function) if function.has_body => Kind::Method,
                    ItemEnum::Function(_) => Kind::TyMethod,
                    ItemEnum::AssocConst { .. } => Kind::AssocConst,
                    ItemEnum::AssocType { .. } => Kind::AssocType,
                    _ => continue,
                };
                index.insert(Symbol {
                    path: join(path, name),
                    kind,
                    span: SourceSpan::of(child),
                });
            }
        }
        ItemEnum::Function(_) => push(path.to_string(), Kind::Function),
        ItemEnum::TypeAlias(_) => push(path.to_string(), Kind::TypeAlias),
        ItemEnum::Constant { .. } => push(path.to_string(), Kind::Constant),
        ItemEnum::Static(_) => push(path.to_string(), Kind::Static),
        ItemEnum::Macro(_) => push(path.to_string(), Kind::Macro),
        _ => {}
    }
}

fn add_named_children(
    krate: &Crate,
    ids: &[Id],
    parent: &str,
    kind: Kind,
    index: &mut SymbolIndex,
) {
    for id in ids {
        let Some(item) = krate.index.get(id) else {
            continue;
        };
        if let Some(name) = &item.name {
            index.insert(Symbol {
                path: join(parent, name),
                kind,
                span: SourceSpan::of(item),
            });
        }
    }
}

/// Adds the items of inherent impls first, then of trait impls written in this crate, so an
/// inherent method wins over a trait method of the same name.
fn add_impls(krate: &Crate, impl_ids: &[Id], parent: &str, index: &mut SymbolIndex) {
    let mut inherent_first: Vec<(bool, &Id)> = impl_ids
        .iter()
        .filter_map(|id| match krate.index.get(id).map(|item| &item.inner) {
            Some(ItemEnum::Impl(implementation))
                if !implementation.is_synthetic && implementation.blanket_impl.is_none() =>
            {
                Some((implementation.trait_.is_some(), id))
            }
            _ => None,
        })
        .collect();
    inherent_first.sort_by_key(|(is_trait, _)| *is_trait);
    let mut seen: HashMap<String, ()> = HashMap::new();
    for (_, impl_id) in inherent_first {
        let Some(ItemEnum::Impl(implementation)) = krate.index.get(impl_id).map(|item| &item.inner)
        else {
            continue;
        };
        for child_id in &implementation.items {
            let Some(child) = krate.index.get(child_id) else {
                continue;
            };
            let Some(name) = &child.name else { continue };
            let kind = match &child.inner {
                ItemEnum::Function(_) => Kind::Method,
                ItemEnum::AssocConst { .. } => Kind::AssocConst,
                ItemEnum::AssocType { .. } => Kind::AssocType,
                _ => continue,
            };
            if seen.insert(name.clone(), ()).is_none() {
                index.insert(Symbol {
                    path: join(parent, name),
                    kind,
                    span: SourceSpan::of(child),
                });
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> SymbolIndex {
        let symbols = [
            ("Acceptor", Kind::Struct),
            ("Acceptor::on_prepare", Kind::Method),
            ("Acceptor::handle", Kind::Method),
            ("Proposer::handle", Kind::Method),
            ("Proposer", Kind::Struct),
            ("Message", Kind::Enum),
            ("Message::Prepare", Kind::Variant),
            ("QuorumSystem", Kind::Trait),
            ("QuorumSystem::is_quorum", Kind::TyMethod),
            ("promise_rule", Kind::Function),
            ("quorum", Kind::Module),
            ("quorum", Kind::Function),
        ];
        SymbolIndex::from_symbols(
            "paros_core",
            symbols
                .iter()
                .map(|(path, kind)| Symbol::new(*path, *kind))
                .collect(),
        )
    }

    fn found_url(index: &SymbolIndex, target: &str) -> String {
        match index.resolve(target) {
            Resolution::Found(symbol) => index.url(symbol),
            other => panic!("{target}: {other:?}"),
        }
    }

    #[test]
    fn urls_follow_rustdoc_pages_and_anchors() {
        // Proves each kind lands on the page and anchor rustdoc's HTML uses.
        let index = index();
        assert_eq!(
            found_url(&index, "Acceptor"),
            "paros_core/struct.Acceptor.html"
        );
        assert_eq!(
            found_url(&index, "Acceptor::on_prepare"),
            "paros_core/struct.Acceptor.html#method.on_prepare"
        );
        assert_eq!(
            found_url(&index, "Message::Prepare"),
            "paros_core/enum.Message.html#variant.Prepare"
        );
        assert_eq!(
            found_url(&index, "QuorumSystem::is_quorum"),
            "paros_core/trait.QuorumSystem.html#tymethod.is_quorum"
        );
        assert_eq!(
            found_url(&index, "crate::promise_rule"),
            "paros_core/fn.promise_rule.html"
        );
        assert_eq!(
            found_url(&index, "paros_core::promise_rule()"),
            "paros_core/fn.promise_rule.html"
        );
        assert_eq!(
            found_url(&index, "mod@quorum"),
            "paros_core/quorum/index.html"
        );
        assert_eq!(
            found_url(&index, "on_prepare"),
            "paros_core/struct.Acceptor.html#method.on_prepare"
        );
    }

    #[test]
    fn ambiguity_and_unknowns_are_reported_with_candidates() {
        // Proves the two failure modes name what exists.
        let index = index();
        match index.resolve("quorum") {
            Resolution::Ambiguous { candidates } => {
                assert_eq!(candidates, ["mod@quorum", "fn@quorum"])
            }
            other => panic!("{other:?}"),
        }
        match index.resolve("handle") {
            Resolution::Ambiguous { candidates } => {
                assert_eq!(
                    candidates,
                    ["method@Acceptor::handle", "method@Proposer::handle"]
                );
            }
            other => panic!("{other:?}"),
        }
        match index.resolve("Acceptor::on_prepar") {
            Resolution::Unknown { nearest } => assert_eq!(nearest[0], "Acceptor::on_prepare"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn another_format_version_says_what_to_do() {
        // Proves a toolchain whose rustdoc writes another JSON format fails with the fix.
        let error = SymbolIndex::from_rustdoc_json(br#"{"format_version": 1}"#).unwrap_err();
        let message = format!("{error:#}");
        assert!(message.contains("format_version 1"), "{message}");
        assert!(message.contains("rust-toolchain.toml"), "{message}");
    }

    #[test]
    fn paths_are_recognised() {
        // Proves prose and file links are not mistaken for symbols.
        assert!(looks_like_path("Acceptor::on_prepare"));
        assert!(looks_like_path("fn@promise_rule"));
        assert!(looks_like_path("select_value()"));
        assert!(!looks_like_path("chapter.md"));
        assert!(!looks_like_path("https://example.org"));
        assert!(!looks_like_path("two words"));
    }

    #[test]
    fn edit_distance_counts_edits() {
        // Proves the distance used for suggestions.
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }
}
