//! Diff snapshots through the core's API: what changed since the tab's
//! previous snapshot, or the full snapshot saying why.

mod common;

use axsnap_core::{snapshot_since, ErrorCode, Format, Mode, Options, Previous, RefTable, SnapshotInput};
use serde_json::{json, Value};

fn n(id: u32, role: &str, name: &str, kids: &[u32]) -> Value {
    json!({"nodeId": id.to_string(), "role": {"type":"role","value": role},
           "name": {"type":"computedString","value": name},
           "childIds": kids.iter().map(|k| k.to_string()).collect::<Vec<_>>(), "backendDOMNodeId": id})
}

fn page(root: u32, dialog: &[Value]) -> SnapshotInput {
    let kids: Vec<u32> = dialog.iter().map(|v| v["nodeId"].as_str().unwrap().parse().unwrap()).collect();
    // The rest of the page, unchanged: a diff is worth sending when it is small beside it.
    let rest: Vec<u32> = (100..110).collect();
    let mut top = vec![2, 3];
    top.extend(&rest);
    let mut nodes = vec![n(root, "RootWebArea", "Shop", &top), n(2, "heading", "Cart", &[]), n(3, "dialog", "Sign in", &kids)];
    nodes.extend(dialog.iter().cloned());
    nodes.extend(rest.iter().map(|&i| n(i, "paragraph", "", &[i + 100])));
    nodes.extend(rest.iter().map(|&i| n(i + 100, "StaticText", &format!("Paragraph {i} of the page, which stays as it was."), &[])));
    SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap()
}

fn diff_options() -> Options {
    Options { diff: true, ..Options::default() }
}

#[test]
fn a_diff_says_what_changed_where() {
    let (mut refs, mut previous) = (RefTable::new(), Previous::default());
    let before = page(1, &[n(4, "textbox", "Email", &[]), n(5, "button", "Send", &[])]);
    let first = snapshot_since(&before, &[], &diff_options(), &mut refs, &mut previous).unwrap();
    let outcome = first.diff.unwrap();
    assert!(outcome.full);
    assert_eq!(outcome.reason, Some("no previous snapshot of this tab to compare with"));
    assert!(first.text.starts_with("page \"Shop\""));

    let same = snapshot_since(&before, &[], &diff_options(), &mut refs, &mut previous).unwrap();
    assert_eq!(same.text, "no change since the previous snapshot\n");
    assert!(!same.diff.unwrap().full);

    let mut invalid = n(4, "textbox", "Email", &[]);
    invalid["properties"] = json!([{"name": "invalid", "value": {"type": "token", "value": "true"}}]);
    let after = page(1, &[invalid, n(6, "textbox", "Code", &[]), n(7, "button", "Verify", &[])]);
    let d = snapshot_since(&after, &[], &diff_options(), &mut refs, &mut previous).unwrap();
    assert_eq!(
        d.text,
        "+2 -1 ~1 in dialog \"Sign in\"\n~  textbox A0 \"Email\" invalid\n-  button A1 \"Send\"\n+  textbox A2 \"Code\"\n+  button A3 \"Verify\"\n"
    );
    let outcome = d.diff.unwrap();
    assert_eq!((outcome.full, outcome.added, outcome.removed, outcome.changed), (false, 2, 1, 1));
    assert_eq!((d.stats.refs, d.stats.lines), (4, 5));
    // The facts travel with the diff: the live refs it shows, not the removed one.
    let facts: Vec<(&str, &str, &str)> = d.refs.iter().map(|f| (f.reference.as_str(), f.role.as_str(), f.name.as_str())).collect();
    assert_eq!(facts, [("A0", "textbox", "Email"), ("A2", "textbox", "Code"), ("A3", "button", "Verify")]);
}

#[test]
fn a_new_document_or_other_options_get_the_full_snapshot() {
    let (mut refs, mut previous) = (RefTable::new(), Previous::default());
    let one = page(1, &[n(4, "button", "Send", &[])]);
    snapshot_since(&one, &[], &Options::default(), &mut refs, &mut previous).unwrap();
    let other = page(9, &[n(4, "button", "Send", &[])]);
    let s = snapshot_since(&other, &[], &diff_options(), &mut refs, &mut previous).unwrap();
    assert_eq!(s.diff.unwrap().reason, Some("the tab shows a new document"));
    assert!(s.text.starts_with("page \"Shop\""));
    let o = Options { mode: Mode::Interactive, ..diff_options() };
    let s = snapshot_since(&other, &[], &o, &mut refs, &mut previous).unwrap();
    assert_eq!(s.diff.unwrap().reason, Some("the options changed since the previous snapshot"));
    let e = snapshot_since(&other, &[], &Options { format: Format::Json, ..diff_options() }, &mut refs, &mut previous).unwrap_err();
    assert_eq!(e.code, ErrorCode::BadOptions);
}

#[test]
fn a_diff_not_much_smaller_than_the_page_is_the_full_snapshot() {
    let (mut refs, mut previous) = (RefTable::new(), Previous::default());
    let small = |first: u32, button: &str, link: &str| {
        let nodes = vec![n(1, "RootWebArea", "Shop", &[first, first + 1]), n(first, "button", button, &[]), n(first + 1, "link", link, &[])];
        SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap()
    };
    snapshot_since(&small(10, "Send", "More"), &[], &Options::default(), &mut refs, &mut previous).unwrap();
    let s = snapshot_since(&small(20, "Pay", "Less"), &[], &diff_options(), &mut refs, &mut previous).unwrap();
    let outcome = s.diff.unwrap();
    assert_eq!((outcome.full, outcome.reason), (true, Some("the diff is not much smaller than the full snapshot")));
    assert_eq!(s.text, "page \"Shop\"\nbutton A2 \"Pay\"\nA3 [Less]\n");
}

#[test]
fn elements_the_page_replaced_with_identical_ones_keep_their_refs() {
    let (mut refs, mut previous) = (RefTable::new(), Previous::default());
    // A list rendered again from its data: every element is a new node.
    let list = |first: u32, names: &[&str]| {
        let ids: Vec<u32> = (0..names.len() as u32).map(|i| first + i).collect();
        let mut nodes = vec![n(1, "RootWebArea", "Todos", &ids)];
        nodes.extend(names.iter().zip(&ids).map(|(name, &id)| n(id, "checkbox", name, &[])));
        SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap()
    };
    let before = snapshot_since(&list(10, &["Edit milk", "Delete", "Delete", "Edit rent"]), &[], &Options::default(), &mut refs, &mut previous).unwrap();
    assert_eq!(before.text, "page \"Todos\"\ncheckbox A0 \"Edit milk\"\ncheckbox A1 \"Delete\"\ncheckbox A2 \"Delete\"\ncheckbox A3 \"Edit rent\"\n");
    let s = snapshot_since(&list(20, &["Edit milk", "Delete", "Delete", "Edit rent", "Edit bread"]), &[], &diff_options(), &mut refs, &mut previous).unwrap();
    // Unique names keep their refs; so do the twin "Delete" buttons, each
    // standing where it stood (after the element it followed, which kept its ref).
    assert_eq!(s.text, "+1\n  checkbox A3 \"Edit rent\"\n+ checkbox A4 \"Edit bread\"\n");
    assert_eq!(refs.resolve("A0").unwrap().backend_node_id, 20);
    assert_eq!(refs.resolve("A2").unwrap().backend_node_id, 22);
    // A row gone: the twin after it could be anyone's, the others keep their refs.
    let again = snapshot_since(&list(30, &["Edit milk", "Delete", "Edit rent", "Delete", "Edit bread"]), &[], &Options::default(), &mut refs, &mut previous).unwrap();
    assert_eq!(again.text, "page \"Todos\"\ncheckbox A0 \"Edit milk\"\ncheckbox A1 \"Delete\"\ncheckbox A3 \"Edit rent\"\ncheckbox A5 \"Delete\"\ncheckbox A4 \"Edit bread\"\n");
    assert_eq!(refs.resolve("A2").unwrap_err().code, ErrorCode::StaleRef);
    assert_eq!(refs.resolve("A4").unwrap().backend_node_id, 34);
}

#[test]
fn real_pages_have_no_change_against_themselves() {
    let Some(pages) = common::corpus() else { return };
    for (name, json) in pages.iter().take(12) {
        let input = SnapshotInput::from_json(json).unwrap();
        let (mut refs, mut previous) = (RefTable::new(), Previous::default());
        let o = Options { max_chars: Some(12_000), ..Options::default() };
        snapshot_since(&input, &[], &o, &mut refs, &mut previous).unwrap();
        let d = snapshot_since(&input, &[], &Options { diff: true, ..o }, &mut refs, &mut previous).unwrap();
        assert_eq!(d.text, "no change since the previous snapshot\n", "{name}");
    }
}

mod random_edits {
    //! The contract over random pages and random edits: the previous full
    //! snapshot and the diff alone give the new full snapshot, line by line,
    //! refs included.
    use super::n;
    use axsnap_core::{diff, snapshot_since, Options, Previous, RefTable, SnapshotInput};
    use proptest::prelude::*;
    use serde_json::{json, Value};

    const ROLES: &[&str] = &["list", "listitem", "button", "checkbox", "StaticText", "heading", "link", "textbox", "generic", "dialog", "tab"];
    const NAMES: &[&str] = &["Buy milk", "Delete", "Edit", "Save", "", "Pay rent", "Dark mode"];

    /// A node: role, name, focused, children (a tree by construction).
    #[derive(Debug, Clone)]
    struct Node {
        role: usize,
        name: usize,
        focused: bool,
        kids: Vec<Node>,
        /// Its DOM node; a page rendering it again gives it a new one.
        id: u32,
    }

    fn arb_node() -> impl Strategy<Value = Node> {
        let leaf = (0..ROLES.len(), 0..NAMES.len(), prop::bool::weighted(0.05)).prop_map(|(role, name, focused)| Node { role, name, focused, kids: vec![], id: 0 });
        leaf.prop_recursive(4, 40, 5, |inner| {
            (0..ROLES.len(), 0..NAMES.len(), prop::collection::vec(inner, 0..5)).prop_map(|(role, name, kids)| Node { role, name, focused: false, kids, id: 0 })
        })
    }

    fn number(node: &mut Node, next: &mut u32) {
        *next += 1;
        node.id = *next;
        for k in &mut node.kids {
            number(k, next);
        }
    }

    /// Every node in document order, by path.
    fn paths(node: &Node, at: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        out.push(at.clone());
        for i in 0..node.kids.len() {
            at.push(i);
            paths(&node.kids[i], at, out);
            at.pop();
        }
    }

    fn get<'a>(node: &'a mut Node, path: &[usize]) -> &'a mut Node {
        path.iter().fold(node, |n, &i| &mut n.kids[i])
    }

    /// One edit at a node: renamed, focused, removed, a node added before it,
    /// its subtree rendered again (new DOM nodes, same content), or its children reversed.
    fn edit(root: &mut Node, kind: usize, at: prop::sample::Index, extra: &Node, next: &mut u32) {
        let mut all = Vec::new();
        paths(root, &mut Vec::new(), &mut all);
        let path = all[at.index(all.len())].clone();
        match kind {
            0 => get(root, &path).name = (get(root, &path).name + 1) % NAMES.len(),
            1 => get(root, &path).focused ^= true,
            2 | 3 if path.is_empty() => {}
            2 => {
                get(root, &path[..path.len() - 1]).kids.remove(path[path.len() - 1]);
            }
            3 => {
                let mut x = extra.clone();
                number(&mut x, next);
                get(root, &path[..path.len() - 1]).kids.insert(path[path.len() - 1], x);
            }
            4 => number(get(root, &path), next),
            _ => get(root, &path).kids.reverse(),
        }
    }

    fn input(root: &Node) -> SnapshotInput {
        fn walk(node: &Node, out: &mut Vec<Value>) {
            let mut v = n(node.id, ROLES[node.role], NAMES[node.name], &node.kids.iter().map(|k| k.id).collect::<Vec<_>>());
            if node.focused {
                v["properties"] = json!([{"name": "focused", "value": {"type": "boolean", "value": true}}]);
            }
            out.push(v);
            for k in &node.kids {
                walk(k, out);
            }
        }
        let mut nodes = vec![n(0, "RootWebArea", "Page", &[root.id])];
        walk(root, &mut nodes);
        SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

        #[test]
        fn old_and_diff_make_the_new_snapshot(
            page in arb_node(),
            steps in prop::collection::vec(prop::collection::vec((0usize..6, any::<prop::sample::Index>(), arb_node()), 1..4), 1..4),
        ) {
            let mut page = page;
            let mut next = 0;
            number(&mut page, &mut next);
            let (mut refs, mut previous) = (RefTable::new(), Previous::default());
            let mut before = snapshot_since(&input(&page), &[], &Options::default(), &mut refs, &mut previous).unwrap().text;
            for edits in steps {
                for (kind, at, extra) in &edits {
                    edit(&mut page, *kind, at.clone(), extra, &mut next);
                }
                let page_now = input(&page);
                let d = snapshot_since(&page_now, &[], &Options { diff: true, ..Options::default() }, &mut refs, &mut previous).unwrap();
                let after = snapshot_since(&page_now, &[], &Options::default(), &mut refs, &mut previous).unwrap().text;
                let outcome = d.diff.unwrap();
                prop_assert_ne!(outcome.reason, Some("the diff cannot say this change exactly"), "before:\n{}after:\n{}", before, after);
                if !outcome.full {
                    prop_assert_eq!(diff::patch(&before, &d.text), Some(after.clone()), "before:\n{}diff:\n{}", before, d.text);
                }
                before = after;
            }
        }
    }
}
