//! Fidelity over the 60 real pages of the shared corpus: every name,
//! description and value Chrome computes is printed somewhere near where its
//! node sits, and every link keeps its destination and its ref.

mod common;

use axsnap_core::role::Role;
use axsnap_core::tree::{NodeId, Tree};
use axsnap_core::{snapshot, Options, RefTable, SnapshotInput};
use std::collections::{HashMap, HashSet};

/// Lowercased words: runs of letters and digits.
fn words(s: &str) -> impl Iterator<Item = String> + '_ {
    s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_lowercase)
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !matches!(c, '\u{200B}' | '\u{FEFF}' | '\u{00AD}' | '\u{2060}')).collect::<String>().split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A line as words to compare with: the link destinations `](…)` and refs
/// left out, so a URL slug never passes for a printed name.
fn readable(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(i) = rest.find("](") {
        out.push_str(&rest[..=i]);
        let after = &rest[i + 2..];
        // A printed URL has no space; anything else is page text (code).
        let end = after.find(')').filter(|&j| !after[..j].contains(' '));
        rest = match end {
            Some(j) => &after[j + 1..],
            None => {
                out.push_str("](");
                after
            }
        };
    }
    out.push_str(rest);
    out.split(' ').filter(|w| !(w.starts_with('A') && w.len() > 1 && w[1..].bytes().all(|b| b.is_ascii_digit()))).collect::<Vec<_>>().join(" ")
}

/// One string Chrome computed for a node that the snapshot must say.
struct Said {
    node: NodeId,
    what: &'static str,
    text: String,
}

/// Which line each node is printed on, as far as the text tells: exactly
/// for nodes with a ref, by a short forward search for text. Every other
/// node sits between the nearest placed nodes before and after it in
/// document order.
struct Placement {
    order: Vec<NodeId>,
    /// Per position in `order`: the line of the nearest placed node at or before it.
    before: Vec<usize>,
    /// Per position in `order`: the line of the nearest placed node after it.
    after: Vec<usize>,
    position: HashMap<NodeId, usize>,
}

impl Placement {
    fn new(tree: &Tree, root: NodeId, lines: &[String], refs: &RefTable) -> Placement {
        let mut ref_line: HashMap<(String, i64), usize> = HashMap::new();
        let targets: HashMap<u32, (String, i64)> =
            refs.live_targets().into_iter().map(|(n, t)| (n, (t.frame.clone(), t.backend_node_id))).collect();
        for (i, l) in lines.iter().enumerate() {
            for r in common::refs_in(l) {
                if let Some(t) = r[1..].parse::<u32>().ok().and_then(|n| targets.get(&n)) {
                    ref_line.entry(t.clone()).or_insert(i);
                }
            }
        }
        let order: Vec<NodeId> = std::iter::once(root).chain(tree.descendants(root)).collect();
        let squashed: Vec<String> = lines.iter().map(|l| squash(l)).collect();
        let mut placed: Vec<Option<usize>> = vec![None; order.len()];
        let mut cursor = 0;
        // Nodes met since the last one placed: each may have printed a line,
        // so the next text is searched that much further down.
        let mut unplaced = 0;
        for (k, &id) in order.iter().enumerate() {
            let n = tree.node(id);
            let key = (tree.frame_key(id).to_string(), n.backend_id.unwrap_or(-1));
            if let Some(&l) = ref_line.get(&key) {
                placed[k] = Some(l);
                cursor = l;
            } else if n.role == Role::StaticText && !n.ignored {
                let probe: String = squash(&n.name).chars().take(40).collect();
                // A short text ("split", "re") matches too many lines to place.
                if probe.chars().count() >= 10 {
                    let end = (cursor + 4 + unplaced).min(lines.len());
                    if let Some(l) = (cursor..end).find(|&l| squashed[l].contains(&probe)) {
                        placed[k] = Some(l);
                        cursor = l;
                    }
                }
            }
            if placed[k].is_some() {
                unplaced = 0;
            } else if !n.ignored && n.role != Role::InlineTextBox {
                unplaced += 1;
            }
        }
        let mut before = Vec::with_capacity(order.len());
        let mut last = 0;
        for p in &placed {
            last = p.unwrap_or(last);
            before.push(last);
        }
        let mut after = vec![lines.len().saturating_sub(1); order.len()];
        let mut next = lines.len().saturating_sub(1);
        for k in (0..order.len()).rev() {
            after[k] = next;
            if let Some(l) = placed[k] {
                next = l;
            }
        }
        let position = order.iter().enumerate().map(|(k, &id)| (id, k)).collect();
        Placement { order, before, after, position }
    }

    /// The lines a node's strings may be printed on: from the nearest placed
    /// node before it to the line below the nearest placed node after it.
    fn window(&self, id: NodeId) -> (usize, usize) {
        let k = self.position[&id];
        let (a, b) = (self.before[k], self.after[k]);
        // One line above too: a twin link's ref is printed on its title's
        // line, after text that sits between the two links.
        (a.min(b).saturating_sub(1), a.max(b) + 2)
    }
}

/// The letters and digits of the text below a node (its content), text
/// and image names, as one lowercase run.
fn content(tree: &Tree, id: NodeId) -> String {
    tree.descendants(id)
        .map(|d| tree.node(d))
        .filter(|n| !n.ignored && matches!(n.role, Role::StaticText | Role::Image | Role::Img))
        .flat_map(|n| words(&n.name).collect::<Vec<_>>())
        .collect()
}

/// The strings of non-ignored nodes the rule asks to be printed. A name made
/// of the node's own content is that content, checked as its text.
/// Left out, as the README's format section says: a named link's hover title.
fn strings(tree: &Tree, order: &[NodeId]) -> Vec<Said> {
    let mut out = Vec::new();
    for &id in order {
        let n = tree.node(id);
        if n.ignored || n.role == Role::InlineTextBox {
            continue;
        }
        let from_content = !n.name.is_empty() && content(tree, id).contains(&words(&n.name).collect::<String>());
        // Text is checked word by word against the whole page by the corpus
        // test and by the benchmark's innerText recall.
        if n.role != Role::StaticText && !from_content {
            out.push(Said { node: id, what: "name", text: n.name.clone() });
        }
        let titled_link = n.role == Role::Link && !n.name.trim().is_empty();
        if let Some(d) = n.description.as_ref().filter(|_| !titled_link) {
            out.push(Said { node: id, what: "description", text: d.clone() });
        }
        if let Some(v) = n.props.value_text.clone().or_else(|| n.value.clone()) {
            if n.role != Role::Link && !n.role.is_root() {
                out.push(Said { node: id, what: "value", text: v });
            }
        }
    }
    out.retain(|s| words(&s.text).next().is_some());
    out
}

/// Words of `said` that none of `lines` prints: as a word, as the start or
/// end of one (a drop cap "W" + "hat"), or (four letters and more) glued
/// inside one, where Chrome joined boxes the text keeps apart.
fn lost_words(said: &str, window: &[Vec<String>]) -> Vec<String> {
    let present: HashSet<&str> = window.iter().flatten().map(String::as_str).collect();
    let glued: String = window.iter().flatten().map(String::as_str).collect();
    words(said)
        .filter(|w| {
            let w = w.as_str();
            let said = present.iter().any(|p| p.starts_with(w) || p.ends_with(w)) || w.chars().count() >= 4 && glued.contains(w);
            !said
        })
        .collect()
}

struct PageReport {
    page: String,
    lost: HashMap<&'static str, usize>,
    examples: Vec<String>,
}

fn check_names(page: &str, json: &str) -> PageReport {
    let input = SnapshotInput::from_json(json).unwrap();
    let tree = Tree::build(&input);
    let mut refs = RefTable::new();
    let text = snapshot(&input, &[], &Options::default(), &mut refs).unwrap().text;
    let lines: Vec<String> = text.lines().map(str::to_string).collect();
    let root = tree.root.unwrap();
    let placement = Placement::new(&tree, root, &lines, &refs);
    let line_words: Vec<Vec<String>> = lines.iter().map(|l| words(&readable(l)).collect()).collect();
    let mut report = PageReport { page: page.to_string(), lost: HashMap::new(), examples: Vec::new() };
    // Descriptions are printed once per snapshot: a later copy is said.
    let mut said_once: HashSet<String> = HashSet::new();
    for s in strings(&tree, &placement.order) {
        let (lo, hi) = placement.window(s.node);
        let hi = hi.min(lines.len());
        let lost = lost_words(&s.text, &line_words[lo..hi]);
        let key = squash(&s.text).to_lowercase();
        if lost.is_empty() {
            if s.what == "description" {
                said_once.insert(key);
            }
            continue;
        }
        if s.what == "description" && !said_once.insert(key) {
            continue;
        }
        *report.lost.entry(s.what).or_default() += lost.len();
        if report.examples.len() < 6 {
            let n = tree.node(s.node);
            report.examples.push(format!("{} {} {:?} (lost {:?})", n.role.cdp_name(), s.what, squash(&s.text), lost));
            if std::env::var("AXSNAP_FIDELITY_DEBUG").is_ok() {
                eprintln!("{page} {:?} window {lo}..{hi}: {:?}", s.text, &lines[lo..hi.min(lo + 4)]);
            }
        }
    }
    report
}

/// Issue rule: every non-empty name, description and value of a non-ignored
/// node is printed at least once, on its own line or the line it was folded
/// into, unless it only repeats text printed on that line or the one below.
#[test]
fn every_name_description_and_value_is_printed() {
    let Some(pages) = common::corpus() else { return };
    let mut total: HashMap<&'static str, usize> = HashMap::new();
    let mut worst: Vec<PageReport> = Vec::new();
    for (name, json) in &pages {
        let r = check_names(name, json);
        for (k, v) in &r.lost {
            *total.entry(k).or_default() += v;
        }
        if !r.lost.is_empty() {
            worst.push(r);
        }
    }
    worst.sort_by_key(|r| std::cmp::Reverse(r.lost.values().sum::<usize>()));
    eprintln!("words lost over {} pages: {total:?}", pages.len());
    for r in &worst {
        eprintln!("  {}: {:?}\n    {}", r.page, r.lost, r.examples.join("\n    "));
    }
}
