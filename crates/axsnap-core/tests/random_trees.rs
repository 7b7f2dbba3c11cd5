//! Property tests on random trees: no panic, unique refs, and a ref table
//! that agrees with the text.

mod common;

use axsnap_core::tree::Tree;
use axsnap_core::{packed, snapshot, Format, Mode, Options, RefTable, SnapshotInput};
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeSet;

const ROLES: &[&str] = &[
    "generic", "none", "StaticText", "InlineTextBox", "link", "button", "textbox", "heading", "list",
    "listitem", "table", "row", "cell", "paragraph", "image", "Iframe", "navigation", "LineBreak",
    "ListMarker", "checkbox", "strange-role", "LabelText", "columnheader", "RootWebArea",
];

/// `(role index, name, ignored, focusable, child offsets, backend id shape)`
type Spec = (usize, String, bool, bool, Vec<usize>, Option<u8>);

fn arb_node() -> impl Strategy<Value = Spec> {
    (
        0..ROLES.len(),
        // Shared names and URLs make echoes, card titles and twin links common.
        prop_oneof!["[a-zA-Z \n]{0,12}", Just("Title".to_string()), Just("Go on".to_string()), Just("·".to_string())],
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(0usize..40, 0..4),
        prop::option::of(0u8..4),
    )
}

fn build(spec: Vec<Spec>) -> Value {
    let len = spec.len();
    let nodes: Vec<Value> = spec
        .into_iter()
        .enumerate()
        .map(|(i, (role, name, ignored, focusable, kids, backend))| {
            // Children point forward mostly, but cycles and dangling ids are allowed.
            let kids: Vec<String> = kids.iter().map(|k| ((i + k) % (len + 3)).to_string()).collect();
            let mut n = json!({"nodeId": i.to_string(), "ignored": ignored,
                "role": {"type": "role", "value": ROLES[role]}, "name": {"type": "computedString", "value": name},
                "childIds": kids,
                "properties": [{"name": "focusable", "value": {"type": "booleanOrUndefined", "value": focusable}}]});
            if backend != Some(0) {
                n["backendDOMNodeId"] = json!(i * 10 + backend.unwrap_or(1) as usize);
            }
            if role == 6 {
                n["value"] = json!({"type": "string", "value": "•••"});
            }
            if ROLES[role] == "link" {
                let url = ["https://site.test/a", "https://site.test/b", "#top"][i % 3];
                n["properties"].as_array_mut().unwrap().push(json!({"name": "url", "value": {"type": "string", "value": url}}));
            }
            n
        })
        .collect();
    json!({ "nodes": nodes })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn random_trees_never_panic_and_refs_agree(spec in prop::collection::vec(arb_node(), 1..40)) {
        let input = SnapshotInput::from_value(build(spec)).unwrap();
        // Packed as the extension packs it, the input builds the same tree.
        prop_assert_eq!(Tree::build(&packed::pack(&input).unwrap()), Tree::build(&input));
        for mode in [Mode::Full, Mode::Interactive] {
            let mut refs = RefTable::new();
            let o = Options { mode, ..Options::default() };
            let text = match snapshot(&input, &[], &o, &mut refs) {
                Ok(s) => s.text,
                Err(e) => { prop_assert_eq!(e.code.as_str(), "bad_input"); continue; }
            };
            let live: BTreeSet<String> = refs.live_targets().iter().map(|(n, _)| format!("A{n}")).collect();
            let printed: BTreeSet<String> = common::refs_in(&text).into_iter().collect();
            // Names may themselves contain "A1"-like words only if generated; ours cannot.
            prop_assert_eq!(&live, &printed, "{}", text);
            for r in &live {
                prop_assert!(refs.resolve(r).is_ok());
            }
            let o = Options { mode, format: Format::Json, ..Options::default() };
            let json = snapshot(&input, &[], &o, &mut RefTable::new()).unwrap();
            let rows: Vec<Value> = serde_json::from_str(&json.text).unwrap();
            let in_json = common::refs_in_rows(&rows);
            let unique: BTreeSet<&str> = in_json.iter().copied().collect();
            prop_assert_eq!(in_json.len(), unique.len());
            prop_assert_eq!(&unique, &live.iter().map(String::as_str).collect(), "JSON and text show the same refs");
            prop_assert!(!json.text.contains('•'));
            prop_assert!(!text.contains("•"));
            // Capped, both formats fit the cap, and every ref is either shown
            // or counted by a note saying what was left out.
            for cap in [300, 700, 2000] {
                let o = Options { mode, max_chars: Some(cap), max_url: Some(12), ..Options::default() };
                let capped = snapshot(&input, &[], &o, &mut RefTable::new()).unwrap();
                prop_assert!(capped.stats.chars <= cap, "{} > {cap}: {}", capped.stats.chars, capped.text);
                let shown = common::refs_in(&capped.text);
                prop_assert_eq!(capped.stats.refs, shown.len());
                let notes: Vec<&str> = capped.text.lines().map(str::trim_start).filter(|l| l.starts_with("… ")).collect();
                prop_assert_eq!(shown.len() + notes.iter().map(|n| common::refs_in_note(n)).sum::<usize>(), live.len(), "{}", capped.text);
                let o = Options { format: Format::Json, ..o };
                let capped = snapshot(&input, &[], &o, &mut RefTable::new()).unwrap();
                prop_assert!(capped.stats.chars <= cap, "{} > {cap}: {}", capped.stats.chars, capped.text);
                let rows: Vec<Value> = serde_json::from_str(&capped.text).unwrap();
                let shown = common::refs_in_rows(&rows).len();
                prop_assert_eq!(capped.stats.refs, shown);
                let noted: usize = rows.iter().filter(|r| r[1] == "note").map(|r| common::refs_in_note(r[2].as_str().unwrap())).sum();
                prop_assert_eq!(shown + noted, live.len(), "{}", capped.text);
            }
        }
    }

    #[test]
    fn arbitrary_bytes_are_an_error_not_a_panic(s in ".{0,200}") {
        let result = SnapshotInput::from_json(&s).and_then(|i| snapshot(&i, &[], &Options::default(), &mut RefTable::new()));
        prop_assert_eq!(result.map(|_| ()).map_err(|e| e.code), Err(axsnap_core::ErrorCode::BadInput));
    }
}

#[test]
fn very_deep_trees_do_not_overflow_the_stack() {
    let depth = 20_000;
    let mut nodes: Vec<Value> = (0..depth)
        .map(|i| json!({"nodeId": i.to_string(), "role": {"type":"role","value":"generic"}, "childIds": [(i + 1).to_string()], "backendDOMNodeId": i}))
        .collect();
    nodes.push(json!({"nodeId": depth.to_string(), "role": {"type":"role","value":"button"}, "name": {"type":"computedString","value":"Deep"}, "backendDOMNodeId": depth}));
    let input = SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap();
    let s = snapshot(&input, &[], &Options::default(), &mut RefTable::new()).unwrap();
    assert!(s.text.contains("button A0 \"Deep\""), "{}", s.text);
}
