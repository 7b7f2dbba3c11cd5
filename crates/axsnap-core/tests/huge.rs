//! Huge trees: 300,000 nodes in three shapes (a list of 100,000 links, a
//! chain nested 300,000 deep, 300,000 siblings). Each snapshot takes bounded
//! time, the capped one stays within its budget, and the note it ends with
//! accounts for every ref it left out.

mod common;

use axsnap_core::cdp::{AxNode, AxValue, FrameInput, Scalar};
use axsnap_core::{snapshot, Defaults, Options, RefTable, Snapshot, SnapshotInput};
use common::{refs_in, refs_in_note};
use serde_json::json;
use std::time::{Duration, Instant};

const NODES: usize = 300_000;
/// Generous for an unoptimised build on a busy machine: the point is linear
/// time (a walk quadratic in depth took minutes here).
const BOUND: Duration = Duration::from_secs(60);

struct Builder {
    nodes: Vec<AxNode>,
}

impl Builder {
    fn new() -> Self {
        let mut b = Builder { nodes: Vec::with_capacity(NODES + 4) };
        b.add(None, "RootWebArea", "Huge");
        b
    }

    /// Adds a node under `parent`; its id is its index.
    fn add(&mut self, parent: Option<usize>, role: &str, name: &str) -> usize {
        let id = self.nodes.len();
        let text = |v: &str| AxValue { value: Scalar::Text(v.to_string()), ..Default::default() };
        self.nodes.push(AxNode {
            node_id: id.to_string(),
            role: Some(text(role)),
            name: (!name.is_empty()).then(|| text(name)),
            backend_dom_node_id: Some(id as i64 + 1),
            ..Default::default()
        });
        if let Some(p) = parent {
            self.nodes[p].child_ids.push(id.to_string());
        }
        id
    }

    fn input(self) -> SnapshotInput {
        SnapshotInput { frames: vec![FrameInput { key: "main".into(), nodes: self.nodes, ..Default::default() }] }
    }
}

/// A snapshot with the extension's defaults (12,000 characters), timed.
fn timed(input: &SnapshotInput, options: serde_json::Value) -> Snapshot {
    let options = Options::from_value(&options, Defaults::Agent).unwrap();
    let t = Instant::now();
    let snap = snapshot(input, &[], &options, &mut RefTable::new()).unwrap();
    let took = t.elapsed();
    eprintln!("{} nodes: {took:?}, {} chars", input.frames[0].nodes.len(), snap.text.len());
    assert!(took < BOUND, "{} nodes took {took:?}", input.frames[0].nodes.len());
    assert_eq!(snap.stats.nodes_in, input.frames[0].nodes.len());
    snap
}

/// The capped snapshot stays within its budget, ends with a note, and the
/// refs it shows plus those its notes count are all `actionable` of them.
fn capped_accounts_for_every_ref(snap: &Snapshot, actionable: usize, note_says: &str) {
    assert!(snap.text.chars().count() <= 12_000, "{} chars", snap.text.chars().count());
    let last = snap.text.lines().last().unwrap();
    assert!(last.starts_with('…') && last.contains(note_says), "last line: {last}");
    let shown = refs_in(&snap.text).len();
    let left_out: usize = snap.text.lines().filter(|l| l.starts_with('…') || l.trim_start().starts_with('…')).map(refs_in_note).sum();
    assert!(shown > 0 && shown < actionable, "{shown} refs shown");
    assert_eq!(shown + left_out, actionable, "shown {shown} + left out {left_out}\n{last}");
}

#[test]
fn a_list_of_100000_links() {
    let mut b = Builder::new();
    let list = b.add(Some(0), "list", "");
    let mut links = 0;
    while b.nodes.len() < NODES {
        let item = b.add(Some(list), "listitem", "");
        let name = format!("Link {links}");
        let link = b.add(Some(item), "link", &name);
        b.add(Some(link), "StaticText", &name);
        links += 1;
    }
    let input = b.input();
    let snap = timed(&input, json!({}));
    capped_accounts_for_every_ref(&snap, links, "more like these");
    // Uncapped, every link keeps its ref.
    let full = timed(&input, json!({"full": true}));
    assert_eq!(refs_in(&full.text).len(), links);
    assert!(full.text.contains(&format!("[Link {}]", links - 1)));
}

#[test]
fn a_chain_nested_300000_deep() {
    let mut b = Builder::new();
    let mut parent = 0;
    let mut buttons = 0;
    while b.nodes.len() < NODES {
        parent = b.add(Some(parent), "generic", "");
        if parent % 3 == 0 {
            b.add(Some(parent), "button", &format!("B{parent}"));
            buttons += 1;
        } else if parent % 3 == 1 {
            b.add(Some(parent), "StaticText", &format!("text {parent}"));
        }
    }
    let snap = timed(&b.input(), json!({}));
    capped_accounts_for_every_ref(&snap, buttons, "not shown");
}

#[test]
fn three_hundred_thousand_siblings() {
    let mut b = Builder::new();
    let mut buttons = 0;
    while b.nodes.len() < NODES {
        let i = b.nodes.len();
        if i % 2 == 0 {
            b.add(Some(0), "button", &format!("b{i}"));
            buttons += 1;
        } else {
            b.add(Some(0), "StaticText", &format!("w{i}"));
        }
    }
    let snap = timed(&b.input(), json!({}));
    capped_accounts_for_every_ref(&snap, buttons, "cut at 12000 chars");
}
