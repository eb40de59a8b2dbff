//! The arrows run one way (ARCHITECTURE.md): no import cycle between the server's top-level
//! modules. Reads `src/`, draws an edge from a module to each other top-level module it names
//! (`crate::x`, `use crate::{x, ..}`; comments and test modules aside), and fails on any
//! cycle. An edge listed in `CLUSTER_PLUGS` that no longer exists fails too, so the list
//! stays true (it is empty, and may only stay so).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Edges that may close a cycle: none. The rooms, bots and pools leave room for a transport,
/// a placement, another node's search and a pairing authority, which the cluster plugs in
/// (`room::Transport`, `rooms::Placement`, `bot::Elsewhere`, `pools::Authority`).
const CLUSTER_PLUGS: &[(&str, &str)] = &[];

/// Each top-level module and the top-level modules it names.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files: BTreeMap<String, Vec<std::path::PathBuf>> = BTreeMap::new();
    for entry in std::fs::read_dir(src).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            let mut all = Vec::new();
            let mut stack = vec![path];
            while let Some(dir) = stack.pop() {
                for e in std::fs::read_dir(dir).unwrap() {
                    let p = e.unwrap().path();
                    if p.is_dir() {
                        stack.push(p);
                    } else if p.extension().is_some_and(|x| x == "rs") {
                        all.push(p);
                    }
                }
            }
            files.entry(name).or_default().extend(all);
        } else if path.extension().is_some_and(|x| x == "rs") {
            files.entry(name).or_default().push(path);
        }
    }
    let modules: BTreeSet<String> = files.keys().cloned().collect();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, paths) in &files {
        let out = edges.entry(module.clone()).or_default();
        for path in paths {
            let text = std::fs::read_to_string(path).unwrap();
            // Test modules may reach anywhere; they are not layers.
            let code = text.split("#[cfg(test)]\nmod ").next().unwrap_or_default();
            let code: String = code
                .lines()
                .filter(|l| !l.trim_start().starts_with("//"))
                .collect::<Vec<_>>()
                .join("\n");
            for name in named(&code) {
                if modules.contains(&name) && name != *module {
                    out.insert(name);
                }
            }
        }
    }
    edges
}

/// The modules `code` names as `crate::x` or inside `use crate::{x, ...}`.
fn named(code: &str) -> BTreeSet<String> {
    let ident = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect()
    };
    let mut out = BTreeSet::new();
    for (i, _) in code.match_indices("crate::") {
        let rest = &code[i + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            // `use crate::{a, b::c, d::{e, f}}`: the first segment of each top-level item.
            let (mut depth, mut item_start) = (0, true);
            for (j, c) in group.char_indices() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => item_start = true,
                    c if item_start && !c.is_whitespace() => {
                        out.insert(ident(&group[j..]));
                        item_start = false;
                    }
                    _ => {}
                }
            }
        } else {
            out.insert(ident(rest));
        }
    }
    out
}

/// The modules on a cycle of `edges`, by strongly connected components (Tarjan's).
fn cycles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'a> {
        edges: &'a BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        found: Vec<Vec<String>>,
    }
    fn visit<'a>(w: &mut Walk<'a>, v: &'a str) {
        let n = w.index.len();
        w.index.insert(v, n);
        w.low.insert(v, n);
        w.stack.push(v);
        for next in w.edges.get(v).into_iter().flatten() {
            let next = next.as_str();
            if !w.index.contains_key(next) {
                visit(w, next);
                let low = w.low[v].min(w.low[next]);
                w.low.insert(v, low);
            } else if w.stack.contains(&next) {
                let low = w.low[v].min(w.index[next]);
                w.low.insert(v, low);
            }
        }
        if w.low[v] == w.index[v] {
            let mut component = Vec::new();
            while let Some(top) = w.stack.pop() {
                component.push(top.to_owned());
                if top == v {
                    break;
                }
            }
            if component.len() > 1 {
                component.sort();
                w.found.push(component);
            }
        }
    }
    let mut w = Walk {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !w.index.contains_key(v.as_str()) {
            visit(&mut w, v);
        }
    }
    w.found
}

#[test]
fn the_server_modules_import_one_way() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut edges = graph(&src);
    for (from, to) in CLUSTER_PLUGS {
        assert!(
            edges.get_mut(*from).is_some_and(|e| e.remove(*to)),
            "{from} no longer names {to}: take the edge out of CLUSTER_PLUGS"
        );
    }
    let found = cycles(&edges);
    assert!(
        found.is_empty(),
        "import cycles between the server's modules: {found:?}\n{}",
        found
            .iter()
            .flatten()
            .map(|m| format!("  {m} -> {:?}", edges[m]))
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_cycle_finder_finds_a_planted_cycle() {
    fn edge(edges: &mut BTreeMap<String, BTreeSet<String>>, a: &str, b: &str) {
        edges.entry(a.into()).or_default().insert(b.into());
        edges.entry(b.into()).or_default();
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edge(&mut edges, "store", "wallclock");
    edge(&mut edges, "room", "store");
    assert!(cycles(&edges).is_empty());
    edge(&mut edges, "store", "room");
    assert_eq!(
        cycles(&edges),
        vec![vec!["room".to_owned(), "store".to_owned()]]
    );
    assert_eq!(
        named("use crate::{room::{A, B}, store, ids::x};\nlet t = crate::wallclock::now_ms();"),
        ["ids", "room", "store", "wallclock"]
            .into_iter()
            .map(str::to_owned)
            .collect()
    );
}
