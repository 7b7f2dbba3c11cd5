//! Invariants over the 60 real pages of the shared corpus.

mod common;

use axsnap_core::tree::Tree;
use axsnap_core::{is_actionable, snapshot, Format, Mode, Options, RefTable, SnapshotInput};
use std::collections::{BTreeSet, HashSet};

/// Every page packed as the extension packs it for the Wasm core builds
/// the tree its nodes read by serde build.
#[test]
fn packed_pages_build_the_trees_serde_builds() {
    let Some(pages) = common::corpus() else { return };
    for (name, json) in &pages {
        let input = SnapshotInput::from_json(json).unwrap();
        let packed = axsnap_core::packed::pack(&input).unwrap_or_else(|| panic!("{name}: not packed"));
        assert!(packed.frames.iter().all(|f| f.packed.is_some() && f.nodes.is_empty()), "{name}");
        assert_eq!(Tree::build(&packed), Tree::build(&input), "{name}");
    }
}

#[test]
fn every_actionable_node_has_exactly_one_ref_in_full_mode() {
    let Some(pages) = common::corpus() else { return };
    assert!(pages.len() >= 60, "expected the 60-page corpus, found {}", pages.len());
    for (name, json) in &pages {
        let input = SnapshotInput::from_json(json).unwrap();
        let tree = Tree::build(&input);
        let expected: HashSet<(String, i64)> = (0..tree.nodes.len() as u32)
            .filter(|&i| is_actionable(&tree, i))
            .map(|i| (tree.frame_key(i).to_string(), tree.node(i).backend_id.unwrap()))
            .collect();
        let mut refs = RefTable::new();
        let snap = snapshot(&input, &[], &Options::default(), &mut refs).unwrap();
        let live: HashSet<(String, i64)> = refs
            .live_targets()
            .into_iter()
            .map(|(_, t)| (t.frame.clone(), t.backend_node_id))
            .collect();
        assert_eq!(live, expected, "{name}: ref table differs from the actionable nodes");
        // Page text can itself say "A7" ("Page A7 of the print edition"), so
        // exactness is checked in the structured format, presence in text.
        let printed: BTreeSet<String> = common::refs_in(&snap.text).into_iter().collect();
        for (n, _) in refs.live_targets() {
            assert!(printed.contains(&format!("A{n}")), "{name}: A{n} not printed");
        }
        assert_eq!(snap.stats.refs, expected.len(), "{name}: stats.refs");
        let o = Options { format: Format::Json, ..Options::default() };
        let json = snapshot(&input, &[], &o, &mut RefTable::new()).unwrap();
        let rows: Vec<serde_json::Value> = serde_json::from_str(&json.text).unwrap();
        let in_json = common::refs_in_rows(&rows);
        let unique: BTreeSet<&str> = in_json.iter().copied().collect();
        assert_eq!(in_json.len(), unique.len(), "{name}: a ref is printed twice");
        assert_eq!(in_json.len(), expected.len(), "{name}: JSON refs differ from the actionable nodes");
    }
}

#[test]
fn output_is_deterministic_in_every_format_and_mode() {
    let Some(pages) = common::corpus() else { return };
    for (name, json) in &pages {
        let input = SnapshotInput::from_json(json).unwrap();
        for mode in [Mode::Full, Mode::Interactive] {
            for format in [Format::Text, Format::Json] {
                let o = Options { mode, format, ..Options::default() };
                let a = snapshot(&input, &[], &o, &mut RefTable::new()).unwrap();
                let b = snapshot(&input, &[], &o, &mut RefTable::new()).unwrap();
                assert_eq!(a, b, "{name} {mode:?} {format:?}");
                if format == Format::Json {
                    let v: serde_json::Value = serde_json::from_str(&a.text).unwrap();
                    assert!(v.is_array(), "{name}");
                }
            }
        }
    }
}

#[test]
fn interactive_mode_keeps_every_ref_of_full_mode() {
    let Some(pages) = common::corpus() else { return };
    for (name, json) in &pages {
        let input = SnapshotInput::from_json(json).unwrap();
        let full = snapshot(&input, &[], &Options::default(), &mut RefTable::new()).unwrap();
        let o = Options { mode: Mode::Interactive, ..Options::default() };
        let inter = snapshot(&input, &[], &o, &mut RefTable::new()).unwrap();
        let set = |t: &str| common::refs_in(t).into_iter().collect::<BTreeSet<_>>();
        let (f, i) = (set(&full.text), set(&inter.text));
        assert!(f.is_subset(&i) || f == i, "{name}: interactive lost {:?}", f.difference(&i).take(5).collect::<Vec<_>>());
        assert!(inter.stats.chars <= full.stats.chars, "{name}");
    }
}

#[test]
fn capped_output_fits_the_cap_and_says_what_it_left_out() {
    let Some(pages) = common::corpus() else { return };
    for (name, json) in &pages {
        let input = SnapshotInput::from_json(json).unwrap();
        let o = Options { max_chars: Some(12_000), ..Options::default() };
        let snap = snapshot(&input, &[], &o, &mut RefTable::new()).unwrap();
        assert!(snap.stats.chars <= 12_000, "{name}: {} chars", snap.stats.chars);
        let full = snapshot(&input, &[], &Options::default(), &mut RefTable::new()).unwrap();
        let last = snap.text.lines().last().unwrap();
        if full.stats.chars > 12_000 {
            let said = last.starts_with("… cut at 12000 chars") || snap.text.contains(" more like these (");
            assert!(said, "{name}: shortened without saying so");
        } else {
            assert_eq!(snap.text, full.text, "{name}: under the cap, nothing changes");
        }
        // Every URL reference used is defined, and only those.
        let used: BTreeSet<String> = snap.text.lines().filter(|l| !l.starts_with('[') || !l.contains("]: "))
            .flat_map(|l| l.match_indices("][").map(move |(i, _)| l[i + 2..].split(']').next().unwrap_or("").to_string()))
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()) && !n.is_empty())
            .collect();
        let defined: BTreeSet<String> = snap.text.lines()
            .filter_map(|l| l.strip_prefix('[')?.split_once("]: ").map(|(n, _)| n.to_string()))
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
            .collect();
        assert_eq!(used, defined, "{name}");
    }
}

#[test]
fn a_second_snapshot_of_the_same_page_keeps_every_ref() {
    let Some(pages) = common::corpus() else { return };
    for (name, json) in pages.iter().take(10) {
        let input = SnapshotInput::from_json(json).unwrap();
        let mut refs = RefTable::new();
        let a = snapshot(&input, &[], &Options::default(), &mut refs).unwrap();
        let b = snapshot(&input, &[], &Options::default(), &mut refs).unwrap();
        assert_eq!(a.text, b.text, "{name}");
    }
}

/// Faithful first: every word of the visible text is somewhere in the full
/// snapshot (as a word, or glued where Chrome joins two boxes). Text inside a
/// text field is its value, printed after the field's colon.
#[test]
fn every_visible_word_is_in_the_full_snapshot() {
    let Some(pages) = common::corpus() else { return };
    for (name, json) in &pages {
        let input = SnapshotInput::from_json(json).unwrap();
        let tree = Tree::build(&input);
        let text = snapshot(&input, &[], &Options::default(), &mut RefTable::new()).unwrap().text;
        // The page line says the title; the body must say its own words.
        let body = text.split_once('\n').map_or("", |(_, rest)| rest);
        let mut missing = BTreeSet::new();
        for id in 0..tree.nodes.len() as u32 {
            let node = tree.node(id);
            if node.role != axsnap_core::role::Role::StaticText || node.ignored {
                continue;
            }
            if tree.ancestors(id).any(|a| tree.node(a).role.is_text_field() || tree.node(a).props.editable) {
                continue;
            }
            for word in node.name.split(|c: char| !c.is_alphanumeric()).filter(|w| w.chars().count() >= 2) {
                if !body.contains(word) {
                    missing.insert(word.to_string());
                }
            }
        }
        assert!(missing.is_empty(), "{name}: words of the page missing from its snapshot: {missing:?}");
    }
}
