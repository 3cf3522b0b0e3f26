//! The architecture as the tree shows it: the game's vocabulary at `src/`'s root, every
//! other module in a folder named for its layer, each folder saying what it owns and
//! what it may use, no layer using one above it, the three generators using none of
//! each other's code, and no cycle between modules.
//!
//! A dependency is a `crate::` or `super::` path in a module's code (its `#[cfg(test)]`
//! part left out: a test may use anything). A submodule's use of its own ancestors does
//! not count: a folder's `mod.rs` is the home its parts belong to.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The game's vocabulary, and the safe reading and replacing of files every layer does:
/// the only files besides `lib.rs` and `main.rs` at the root.
const VOCABULARY: &[&str] = &[
    "depth", "epd", "fen", "files", "moves", "named", "piece", "position", "square",
];

type Module = Vec<String>;

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every library module with its source, keyed by its path below the crate.
fn modules() -> BTreeMap<Module, String> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut out = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&src).expect("below src");
        let mut parts: Module = rel
            .with_extension("")
            .iter()
            .map(|p| p.to_string_lossy().into_owned())
            .collect();
        if parts[0] == "bin" || parts == ["main"] {
            continue;
        }
        if parts.last().is_some_and(|p| p == "mod") || parts == ["lib"] {
            parts.pop();
        }
        let text = std::fs::read_to_string(&file).expect("readable");
        out.insert(parts, code_of(&text));
    }
    out
}

/// The text without comments and without its tests.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let line = line.split("//").next().unwrap_or("");
        code.push_str(line);
        code.push('\n');
    }
    code
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The paths named after `crate::` or `super::`, groups (`{a, b::c}`) spelled out.
fn paths_in(code: &str, here: &Module) -> Vec<Module> {
    let mut out = Vec::new();
    for (start, word) in [("crate::", "crate"), ("super::", "super")] {
        let mut rest = code;
        while let Some(at) = rest.find(start) {
            let before = rest[..at].chars().next_back();
            rest = &rest[at + start.len()..];
            if before.is_some_and(is_ident) {
                continue;
            }
            let base: Module = if word == "crate" {
                Vec::new()
            } else {
                here[..here.len().saturating_sub(1)].to_vec()
            };
            expand(rest, base, &mut out);
        }
    }
    out
}

/// Reads `a::b::{c, d::e}` at the start of `text` onto `base`.
fn expand(text: &str, mut base: Module, out: &mut Vec<Module>) {
    let mut rest = text;
    loop {
        let len = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
        if len == 0 {
            break;
        }
        base.push(rest[..len].to_owned());
        rest = &rest[len..];
        if let Some(next) = rest.strip_prefix("::") {
            rest = next;
            if let Some(group) = rest.strip_prefix('{') {
                let end = group.find('}').unwrap_or(group.len());
                for item in group[..end].split(',') {
                    expand(item.trim(), base.clone(), out);
                }
                break;
            }
        } else {
            break;
        }
    }
    out.push(base);
}

fn dependencies() -> BTreeMap<Module, BTreeSet<Module>> {
    let mods = modules();
    let mut edges = BTreeMap::new();
    for (here, code) in &mods {
        let mut to = BTreeSet::new();
        for path in paths_in(code, here) {
            let Some(target) = (0..=path.len())
                .rev()
                .map(|n| path[..n].to_vec())
                .find(|m| mods.contains_key(m))
            else {
                continue;
            };
            if target != *here && !here.starts_with(&target) {
                to.insert(target);
            }
        }
        edges.insert(here.clone(), to);
    }
    edges
}

/// A cycle reachable from `at`, if there is one, found depth first.
fn cycle(
    edges: &BTreeMap<Module, BTreeSet<Module>>,
    at: &Module,
    stack: &mut Vec<Module>,
    done: &mut BTreeSet<Module>,
) -> Option<Vec<Module>> {
    if let Some(i) = stack.iter().position(|m| m == at) {
        let mut found = stack[i..].to_vec();
        found.push(at.clone());
        return Some(found);
    }
    if done.contains(at) {
        return None;
    }
    stack.push(at.clone());
    for next in edges.get(at).into_iter().flatten() {
        if let Some(found) = cycle(edges, next, stack, done) {
            return Some(found);
        }
    }
    stack.pop();
    done.insert(at.clone());
    None
}

#[test]
fn no_module_depends_on_itself_through_others() {
    let edges = dependencies();
    assert!(edges.len() > 40, "the reader found {} modules", edges.len());
    let mut done = BTreeSet::new();
    for module in edges.keys() {
        if let Some(found) = cycle(&edges, module, &mut Vec::new(), &mut done) {
            let names: Vec<String> = found.iter().map(|m| m.join("::")).collect();
            panic!("module cycle: {}", names.join(" -> "));
        }
    }
}

/// Which layers each layer may use besides itself, as each folder's `mod.rs` says: the
/// vocabulary at the root (`""`) uses nothing above it, and every layer only what is
/// below it. The crate root (`lib.rs`) re-exports and is left out.
const MAY_USE: &[(&str, &[&str])] = &[
    ("", &[]),
    ("generators", &[""]),
    ("cases", &[""]),
    ("diagnose", &["", "generators"]),
    ("diff", &["", "generators", "cases", "diagnose"]),
    ("subject", &["", "generators", "cases", "diagnose", "diff"]),
    (
        "job",
        &["", "generators", "cases", "diagnose", "diff", "subject"],
    ),
    (
        "cli",
        &[
            "",
            "generators",
            "cases",
            "diagnose",
            "diff",
            "subject",
            "job",
        ],
    ),
];

/// The generators compared against each other, which may not use one another's code:
/// a shared helper would hide a shared bug.
const INDEPENDENT: &[&str] = &["mailbox", "bitboard", "naive"];

/// A module's layer: `""` for the vocabulary at the root, else its folder.
fn layer_of(module: &Module) -> Option<&str> {
    match module.as_slice() {
        [] => None,
        [one] if VOCABULARY.contains(&one.as_str()) => Some(""),
        [first, ..] => Some(first.as_str()),
    }
}

/// Every import that breaks [`MAY_USE`] or [`INDEPENDENT`], one sentence each.
fn forbidden_imports(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Vec<String> {
    let mut out = Vec::new();
    for (from, tos) in edges {
        let Some(here) = layer_of(from) else {
            continue;
        };
        let allowed = MAY_USE.iter().find(|(l, _)| *l == here).map(|(_, a)| *a);
        for to in tos {
            let Some(there) = layer_of(to) else {
                continue;
            };
            let name = |m: &Module| {
                if m.len() == 1 && layer_of(m) == Some("") {
                    m[0].clone()
                } else {
                    m.join("::")
                }
            };
            match allowed {
                None => out.push(format!(
                    "{} is in a layer tests/layout.rs does not know ({here}): add it to MAY_USE",
                    name(from)
                )),
                Some(allowed) if there != here && !allowed.contains(&there) => out.push(format!(
                    "{} uses {}: the {} layer may not use the {} layer",
                    name(from),
                    name(to),
                    if here.is_empty() { "vocabulary" } else { here },
                    there
                )),
                Some(_) => {}
            }
            if let ([g1, a, ..], [g2, b, ..]) = (from.as_slice(), to.as_slice()) {
                let independent = |x: &String| INDEPENDENT.contains(&x.as_str());
                if g1 == "generators"
                    && g2 == "generators"
                    && a != b
                    && independent(a)
                    && independent(b)
                {
                    out.push(format!(
                        "{} uses {}: the generators share no code of how pieces move",
                        name(from),
                        name(to)
                    ));
                }
            }
        }
    }
    out
}

#[test]
fn no_layer_uses_one_above_it_and_no_generator_another() {
    let found = forbidden_imports(&dependencies());
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The rule is not empty: an upward import, a generator that borrows another's code and
/// a layer nobody declared are each caught.
#[test]
fn an_upward_import_is_caught() {
    let module = |m: &str| -> Module { m.split("::").map(str::to_owned).collect() };
    let table: &[(&str, &str, &str)] = &[
        (
            "generators::naive::rules",
            "diff::oracle",
            "may not use the diff layer",
        ),
        ("fen", "generators", "the vocabulary layer may not use"),
        ("diff::campaign", "job::check", "may not use the job layer"),
        ("subject::crosscheck", "cli", "may not use the cli layer"),
        (
            "generators::mailbox",
            "generators::naive::rules",
            "share no code",
        ),
        ("newlayer::thing", "position", "does not know"),
    ];
    for &(from, to, says) in table {
        let edges = BTreeMap::from([(module(from), BTreeSet::from([module(to)]))]);
        let found = forbidden_imports(&edges);
        assert!(
            found.len() == 1 && found[0].contains(says),
            "{from} -> {to}: {found:?}"
        );
    }
    let fine = BTreeMap::from([
        (
            module("job::check"),
            BTreeSet::from([module("diff::finding"), module("position")]),
        ),
        (
            module("generators::planted"),
            BTreeSet::from([module("generators::naive")]),
        ),
    ]);
    assert_eq!(forbidden_imports(&fine), Vec::<String>::new());
}

#[test]
fn the_reader_sees_known_dependencies() {
    // A reader that missed paths would find no cycle anywhere; these are certain.
    let edges = dependencies();
    let has = |from: &str, to: &str| {
        let from: Module = from.split("::").map(str::to_owned).collect();
        let to: Module = to.split("::").map(str::to_owned).collect();
        edges.get(&from).is_some_and(|e| e.contains(&to))
    };
    assert!(has("fen", "position"));
    assert!(has("diff::oracle", "generators::face"));
    assert!(has(
        "subject::external::detect",
        "subject::external::driver"
    ));
    assert!(has("job::check", "diff::campaign"));
}

#[test]
fn the_root_holds_the_vocabulary_and_each_layer_says_what_it_owns() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut layers = Vec::new();
    for entry in std::fs::read_dir(&src).expect("src") {
        let path = entry.expect("entry").path();
        let name = path
            .file_stem()
            .expect("name")
            .to_string_lossy()
            .into_owned();
        if path.is_dir() {
            if name != "bin" {
                layers.push(path);
            }
        } else {
            assert!(
                VOCABULARY.contains(&name.as_str()) || name == "lib" || name == "main",
                "src/{name}.rs is not vocabulary: it belongs in a layer's folder"
            );
        }
    }
    assert!(layers.len() >= 5, "{layers:?}");
    for layer in layers {
        let text = std::fs::read_to_string(layer.join("mod.rs")).expect("a layer has mod.rs");
        let doc: String = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        assert!(
            doc.contains("May use"),
            "{}: the module comment says what the layer owns and what it may use",
            layer.display()
        );
    }
}

/// A generator put into the registry but not into [`INDEPENDENT`] would be compared with
/// the others while free to share their code: the import check would not look at it.
#[test]
fn every_registered_generator_is_held_independent() {
    let registered: BTreeSet<&str> = xqdiff::generators::names().into_iter().collect();
    let held: BTreeSet<&str> = INDEPENDENT.iter().copied().collect();
    assert_eq!(
        registered, held,
        "the registry's generators and INDEPENDENT in tests/layout.rs differ"
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/generators");
    for name in INDEPENDENT {
        assert!(
            root.join(name).is_dir() || root.join(format!("{name}.rs")).is_file(),
            "{name} is not a module of its own under src/generators, so the import \
             check cannot tell its code from the others'"
        );
    }
}

#[test]
fn every_list_of_generators_is_the_registry() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let names = xqdiff::generators::names();
    // Each generator folder is registered, and each registered generator has its folder.
    let mut folders: Vec<String> = std::fs::read_dir(root.join("src/generators"))
        .expect("generators")
        .filter_map(|e| {
            let path = e.ok()?.path();
            let name = path.file_name()?.to_string_lossy().into_owned();
            path.join("mod.rs").is_file().then_some(name)
        })
        .collect();
    folders.sort();
    let mut registered: Vec<String> = names.iter().map(|n| n.to_string()).collect();
    registered.sort();
    assert_eq!(
        folders, registered,
        "src/generators/*/ against the registry"
    );
    // The visitor sees the same generators in the same order.
    struct Names(Vec<&'static str>, Vec<String>);
    impl xqdiff::generators::EachGenerator for Names {
        fn visit<G: xqdiff::MoveGen + 'static>(&mut self, g: &G) {
            self.0.push(g.name());
            // A generic generator's own name, not its last type argument's.
            let full = std::any::type_name::<G>();
            let path = full.split('<').next().unwrap_or(full);
            self.1
                .push(path.rsplit("::").next().unwrap_or(path).to_owned());
        }
    }
    let mut seen = Names(Vec::new(), Vec::new());
    xqdiff::generators::for_each(&mut seen);
    assert_eq!(seen.0, names);
    let types = seen.1;
    // The mutation run covers every registered generator.
    let mutants = std::fs::read_to_string(root.join(".cargo/mutants.toml")).expect("mutants");
    for name in &names {
        assert!(
            mutants.contains(&format!("\"src/generators/{name}/**/*.rs\"")),
            ".cargo/mutants.toml does not mutate {name}"
        );
    }
    // No other source file names the generators one by one: each iterates the registry.
    let mut files = Vec::new();
    rust_files(&root.join("src"), &mut files);
    for dir in ["tests", "fuzz/fuzz_targets"] {
        rust_files(&root.join(dir), &mut files);
    }
    for file in files {
        let rel = file
            .strip_prefix(root)
            .expect("in the crate")
            .to_string_lossy()
            .into_owned();
        if rel.starts_with("src/generators/") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable");
        // A unit test may set one generator against others on purpose.
        let text = if rel.starts_with("src/") {
            code_of(&text)
        } else {
            text
        };
        let listed = types.iter().filter(|t| text.contains(t.as_str())).count();
        assert!(
            listed < types.len(),
            "{rel} names every generator itself: iterate generators::registry() or for_each"
        );
    }
}

/// The modules the crate root makes public, and whether each is hidden from the docs.
fn public_modules(lib: &str) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut hidden = false;
    for line in lib.lines().map(str::trim) {
        if line == "#[doc(hidden)]" {
            hidden = true;
        } else if let Some(name) = line
            .strip_prefix("pub mod ")
            .and_then(|r| r.strip_suffix(';'))
        {
            out.push((name.to_owned(), hidden));
            hidden = false;
        } else if !line.starts_with("//") {
            hidden = false;
        }
    }
    out
}

/// Every module the root offers that its docs do not give a reason for, by name.
fn undocumented_public(lib: &str) -> Vec<String> {
    let docs: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .collect::<Vec<_>>()
        .join("\n");
    let offered = docs.split("# What the crate offers").nth(1).unwrap_or("");
    public_modules(lib)
        .into_iter()
        .filter(|(name, hidden)| !hidden && !offered.contains(&format!("[`{name}`]")))
        .map(|(name, _)| name)
        .collect()
}

/// A public module is part of the crate's interface: the root's docs say why a user
/// needs it, or it stays `pub(crate)`. The checker itself is shown to catch one.
#[test]
fn every_public_module_is_offered_for_a_reason() {
    let lib = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("src/lib.rs"))
        .expect("lib.rs");
    assert!(
        public_modules(&lib).len() >= 6,
        "the reader found too few modules"
    );
    assert_eq!(undocumented_public(&lib), Vec::<String>::new());
    let grown = lib.replace("pub(crate) mod files;", "pub mod files;");
    assert_ne!(grown, lib, "lib.rs no longer declares `files`");
    assert_eq!(undocumented_public(&grown), ["files"]);
}
