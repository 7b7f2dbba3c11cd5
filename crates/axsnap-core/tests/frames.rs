//! Several frames stitched into one snapshot.

use axsnap_core::{snapshot, Options, RefTable, SnapshotInput};
use serde_json::{json, Value};

fn node(id: u32, role: &str, name: &str, kids: &[u32]) -> Value {
    json!({"nodeId": id.to_string(), "role": {"type":"role","value": role},
           "name": {"type":"computedString","value": name},
           "childIds": kids.iter().map(|k| k.to_string()).collect::<Vec<_>>(), "backendDOMNodeId": id})
}

fn input() -> SnapshotInput {
    SnapshotInput::from_value(json!({"frames": [
        {"key": "top", "nodes": [node(1, "RootWebArea", "Main", &[2, 3, 4]), node(2, "button", "Top", &[]),
                                  node(3, "Iframe", "Same site", &[]), node(4, "Iframe", "Cross site", &[])]},
        {"key": "f-same", "parent": "top", "owner": 3, "nodes": [node(1, "RootWebArea", "Inner", &[2]), node(2, "button", "Inner", &[])]},
        {"key": "s-oopif", "parent": "top", "owner": 4, "nodes": [node(1, "RootWebArea", "Ad", &[2]), node(2, "link", "Buy", &[])]},
    ]}))
    .unwrap()
}

#[test]
fn child_frames_nest_under_their_iframes_with_unique_refs() {
    let mut refs = RefTable::new();
    let s = snapshot(&input(), &[], &Options::default(), &mut refs).unwrap();
    assert_eq!(
        s.text,
        "page \"Main\"\nbutton A0 \"Top\"\niframe \"Same site\"\n button A1 \"Inner\"\niframe \"Cross site\"\n A2 [Buy]\n"
    );
    assert_eq!(refs.resolve("A1").unwrap().frame, "f-same");
    assert_eq!(refs.resolve("A2").unwrap().frame, "s-oopif");
    assert_eq!(refs.resolve("A2").unwrap().backend_node_id, 2);
}

#[test]
fn frame_without_known_owner_is_appended_to_its_parent() {
    let mut v: Value = json!({"frames": [
        {"key": "top", "nodes": [node(1, "RootWebArea", "Main", &[2]), node(2, "button", "Top", &[])]},
        {"key": "lost", "parent": "top", "owner": 99, "nodes": [node(1, "RootWebArea", "X", &[2]), node(2, "button", "In", &[])]},
    ]});
    v["frames"][1]["owner"] = json!(99);
    let s = snapshot(&SnapshotInput::from_value(v).unwrap(), &[], &Options::default(), &mut RefTable::new()).unwrap();
    assert_eq!(s.text, "page \"Main\"\nbutton A0 \"Top\"\nbutton A1 \"In\"\n");
}

#[test]
fn navigating_one_frame_keeps_the_refs_of_the_others() {
    let mut refs = RefTable::new();
    snapshot(&input(), &[], &Options::default(), &mut refs).unwrap();
    let mut v: Value = json!({"frames": [
        {"key": "top", "nodes": [node(1, "RootWebArea", "Main", &[2, 3, 4]), node(2, "button", "Top", &[]),
                                  node(3, "Iframe", "Same site", &[]), node(4, "Iframe", "Cross site", &[])]},
        {"key": "f-same", "parent": "top", "owner": 3, "nodes": [node(1, "RootWebArea", "Inner", &[2]), node(2, "button", "Inner", &[])]},
        {"key": "s-oopif", "parent": "top", "owner": 4, "nodes": [node(7, "RootWebArea", "Ad 2", &[8]), node(8, "link", "Sell", &[])]},
    ]});
    v["frames"][2]["nodes"][0]["properties"] = json!([{"name":"url","value":{"type":"string","value":"https://ads.example/2"}}]);
    let s = snapshot(&SnapshotInput::from_value(v).unwrap(), &[], &Options::default(), &mut refs).unwrap();
    assert!(s.text.contains("button A0 \"Top\""), "{}", s.text);
    assert!(s.text.contains("button A1 \"Inner\""), "{}", s.text);
    assert!(s.text.contains("A3 [Sell]"), "{}", s.text);
    assert_eq!(refs.resolve("A2").unwrap_err().code.as_str(), "stale_ref");
}

/// Refs carry their frame's document: with the caller's loader ids, a frame
/// that shows a new document (even with the same backend ids) never hands
/// its old refs to the new elements.
#[test]
fn refs_belong_to_the_document_the_caller_names() {
    let page = |doc: &str| {
        SnapshotInput::from_value(json!({"frames": [
            {"key": "top", "document": "loader-top", "nodes": [node(1, "RootWebArea", "Main", &[2, 3]), node(2, "button", "Top", &[]), node(3, "Iframe", "Pay", &[])]},
            {"key": "pay", "parent": "top", "owner": 3, "document": doc, "nodes": [node(1, "RootWebArea", "Pay", &[2]), node(2, "textbox", "Card", &[])]},
        ]}))
        .unwrap()
    };
    let mut refs = RefTable::new();
    snapshot(&page("loader-1"), &[], &Options::default(), &mut refs).unwrap();
    assert_eq!(refs.resolve("A0").unwrap().document, "loader-top");
    assert_eq!(refs.resolve("A1").unwrap().document, "loader-1");
    let s = snapshot(&page("loader-2"), &[], &Options::default(), &mut refs).unwrap();
    assert!(s.text.contains("textbox A2 \"Card\""), "{}", s.text);
    assert_eq!(refs.resolve("A1").unwrap_err().code, axsnap_core::ErrorCode::StaleRef);
    assert_eq!(refs.resolve("A2").unwrap().document, "loader-2");
    assert_eq!(refs.resolve("A0").unwrap().document, "loader-top", "the top frame kept its refs");
}
