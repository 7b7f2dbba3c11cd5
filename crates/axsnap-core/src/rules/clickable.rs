//! Elements a page makes clickable without saying so: `div`s and `span`s
//! with click listeners or their own `cursor: pointer` and no interactive
//! role, the way much of the web builds its buttons; and the places an
//! HTML5 drag drops onto (a board's column with `dragover` and `drop`
//! listeners), which an empty column shows nothing else to drop onto. The
//! extension reads those DOM facts ([`crate::cdp::ClickFact`]); this module
//! decides which of them get a ref and the role hint `clickable` (or
//! `droptarget`, for one that only takes drops).

use super::{Action, Rule};
use crate::role::Role;
use crate::tree::{Node, NodeId, Tree};

/// Which nodes are clickables, given the nodes the tree itself makes
/// actionable. A node with a click fact qualifies unless
/// - it is actionable already, or inside an actionable node (the control's
///   own ref covers its parts);
/// - it holds an actionable node (a card around its link, a combobox's
///   frame around its input: the controls inside are the targets);
/// - it only listens, has no pointer cursor, and holds another clickable
///   candidate (a framework's delegated listener on a container; a column
///   taking drops whose heading is clickable: the heading stands for it);
/// - a clickable encloses it (only the outermost of nested pointer
///   elements: an icon in a pointer `div` is part of it), unless it is a
///   control of its own inside a clickable card or a link: it listens or
///   sets its own pointer, and its box is at most half the card's (a
///   favourite heart, a card's `…` menu; the card's label text inherits
///   its pointer and has no listener, and a wrapper filling the card is
///   the card).
pub fn find(tree: &Tree, actionable: &[bool]) -> Vec<bool> {
    let n = tree.nodes.len();
    let candidate: Vec<bool> = (0..n as NodeId).map(|i| is_candidate(tree, i) && !actionable[i as usize]).collect();
    if !candidate.iter().any(|&c| c) {
        return vec![false; n];
    }
    let holds_actionable = crate::distill::holds(tree, actionable);
    let holds_candidate = crate::distill::holds(tree, &candidate);
    let mut clickable = vec![false; n];
    // Pre-order from every root, carrying what encloses each node.
    let mut stack: Vec<(NodeId, Inside)> = (0..n as NodeId).filter(|&i| tree.node(i).parent.is_none()).map(|i| (i, Inside::Nothing)).collect();
    let mut seen = vec![false; n];
    while let Some((id, inside)) = stack.pop() {
        let i = id as usize;
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        let node = tree.node(id);
        let delegating = (node.props.listener || node.props.drop) && !node.props.pointer && node.children.iter().any(|&c| holds_candidate[c as usize]);
        let free = match inside {
            Inside::Nothing => true,
            Inside::Control => false,
            Inside::Card(area) => (node.props.listener || node.props.pointer) && node.props.area > 0.0 && node.props.area * 2.0 <= area,
        };
        clickable[i] = candidate[i] && free && !holds_actionable[i] && !delegating;
        // A focusable container of controls (a popup with tabindex=-1) is
        // not itself the target: what is inside it still may be.
        let container = !node.role.is_control() && !node.props.editable && node.children.iter().any(|&c| holds_actionable[c as usize]);
        let card = clickable[i] || actionable[i] && node.role == Role::Link;
        let below = match inside {
            Inside::Control => Inside::Control,
            _ if card && node.props.area > 0.0 => Inside::Card(node.props.area),
            _ if clickable[i] || actionable[i] && !container => Inside::Control,
            outer => outer,
        };
        stack.extend(node.children.iter().rev().map(|&c| (c, below)));
    }
    clickable
}

/// What encloses a node, for [`find`].
#[derive(Clone, Copy)]
enum Inside {
    Nothing,
    /// A control: its ref covers its parts.
    Control,
    /// A clickable or a link whose box has this area: a small control of its own inside still gets a ref.
    Card(f64),
}

/// A node with a click fact that could be a control: not the document, not
/// a frame, not a label (its click goes to its control, which has a ref),
/// not hidden.
/// A listener alone counts only on an element with no role of its own (a
/// `div`, a `span`, an icon): frameworks attach listeners to headings and
/// table rows that a reader still reads as text, unless the page also shows
/// a pointer over them. Drops are taken by containers too (a column that is
/// a list or a section).
fn is_candidate(tree: &Tree, id: NodeId) -> bool {
    let node = tree.node(id);
    let plain = matches!(
        node.role,
        Role::Generic | Role::None | Role::Presentation | Role::Image | Role::Img | Role::Other(_)
    );
    let container = matches!(node.role, Role::List | Role::Group | Role::Section | Role::Region);
    (node.props.pointer || node.props.listener && plain || node.props.drop && (plain || container))
        && node.backend_id.is_some()
        && !node.role.is_root()
        && !matches!(node.role, Role::Iframe | Role::IframePresentational | Role::LabelText)
        // Hidden from everyone (aria-hidden, behind a modal) unless its
        // content is shown: a plain span Chrome leaves out holds shown text.
        && (!node.ignored || node.children.iter().any(|&c| !tree.node(c).ignored))
}

/// The role a clickable prints: its own when that says something (a column
/// header, a list item, an image), else the hint: `clickable`, or
/// `droptarget` for an element that takes drops and shows no sign of
/// taking clicks (a drag goes there; a click does nothing).
pub fn hint(node: &Node) -> &Role {
    match node.role {
        Role::Generic | Role::None | Role::Presentation | Role::StaticText | Role::Paragraph | Role::Group
        | Role::Section | Role::LabelText | Role::Strong | Role::Emphasis | Role::Other(_) => {
            if node.props.drop && !node.props.pointer && !node.props.listener { &Role::DropTarget } else { &Role::Clickable }
        }
        _ => &node.role,
    }
}

pub const KEEP_CLICKABLE: Rule = Rule {
    name: "keep-clickable",
    why: "an element the page makes clickable (listener or its own pointer cursor) is a control, whatever its role",
    visit: |v| v.is_clickable(v.id).then_some(Action::Keep),
    leave: super::on_the_way_in_only,
};

#[cfg(test)]
mod tests {
    use crate::cdp::{ClickFact, FrameInput};
    use crate::rules::testing::*;

    fn with_clicks(nodes: Vec<crate::AxNode>, facts: &[(u32, bool, bool)]) -> String {
        let facts: Vec<_> = facts.iter().map(|&(id, pointer, listener)| (id, pointer, listener, false)).collect();
        snap(&mut crate::RefTable::new(), nodes, &facts)
    }

    #[test]
    fn a_div_with_a_listener_gets_a_ref_and_the_hint() {
        let t = with_clicks(
            vec![root(&[2]), n(2, "generic", "", &[3]), n(3, "StaticText", "New card", &[])],
            &[(2, false, true)],
        );
        assert_eq!(t, "page \"T\"\nclickable A0 New card\n");
    }

    #[test]
    fn only_the_outermost_pointer_element() {
        let t = with_clicks(
            vec![root(&[2]), n(2, "generic", "", &[3, 4]), ignored(n(3, "none", "", &[5])), n(4, "StaticText", "Sort", &[]), n(5, "StaticText", "▾", &[])],
            &[(2, true, false), (3, true, false)],
        );
        assert_eq!(t.matches(" A").count(), 1, "{t}");
    }

    #[test]
    fn never_inside_or_around_a_control() {
        let t = with_clicks(
            vec![
                root(&[2, 5]),
                n(2, "button", "Go", &[3]),
                n(3, "generic", "", &[4]),
                n(4, "StaticText", "Go", &[]),
                n(5, "generic", "", &[6, 7]),
                n(6, "link", "Read", &[]),
                n(7, "StaticText", "more", &[]),
            ],
            &[(3, true, false), (5, true, true)],
        );
        assert_eq!(t, "page \"T\"\nbutton A0 \"Go\"\nA1 [Read] more\n");
    }

    #[test]
    fn a_delegating_container_is_not_a_control() {
        let t = with_clicks(
            vec![root(&[2]), n(2, "generic", "", &[3, 5]), n(3, "generic", "", &[4]), n(4, "StaticText", "Undo", &[]), n(5, "StaticText", "Ready", &[])],
            &[(2, false, true), (3, true, false)],
        );
        assert_eq!(t, "page \"T\"\nclickable A0 Undo\nReady\n");
    }

    #[test]
    fn a_listening_heading_or_label_is_text() {
        let t = with_clicks(
            vec![root(&[2, 4]), prop(n(2, "heading", "Orders", &[3]), "level", serde_json::json!(1)), n(3, "StaticText", "Orders", &[]), n(4, "LabelText", "", &[5]), n(5, "StaticText", "Room", &[])],
            &[(2, false, true), (4, true, true)],
        );
        assert_eq!(t, "page \"T\"\n# Orders\nRoom\n");
    }

    #[test]
    fn hidden_behind_a_modal_or_inside_a_popup() {
        let t = with_clicks(
            vec![
                root(&[2, 4]),
                ignored(n(2, "generic", "", &[3])),
                ignored(n(3, "StaticText", "Behind", &[])),
                prop(n(4, "generic", "", &[5, 7]), "focusable", serde_json::json!(true)),
                n(5, "generic", "", &[6]),
                n(6, "StaticText", "15", &[]),
                n(7, "button", "Next month", &[]),
            ],
            &[(2, true, false), (5, true, false)],
        );
        assert_eq!(t, "page \"T\"\ngeneric A0\n clickable A1 15\n button A2 \"Next month\"\n");
    }

    #[test]
    fn a_column_header_keeps_its_role() {
        let t = with_clicks(vec![root(&[2]), n(2, "columnheader", "Due", &[3]), n(3, "StaticText", "Due", &[])], &[(2, true, true)]);
        assert_eq!(t, "page \"T\"\nth A0 Due\n");
    }

    /// A one-frame snapshot sharing `refs`, with click facts `(id, pointer, listener, drop)`.
    fn snap(refs: &mut crate::RefTable, nodes: Vec<crate::AxNode>, facts: &[(u32, bool, bool, bool)]) -> String {
        let clickables = facts
            .iter()
            .map(|&(id, pointer, listener, drop)| ClickFact { backend_node_id: id as i64 + 100, pointer, listener, drop, area: 0.0 })
            .collect();
        snap_facts(refs, nodes, clickables)
    }

    fn snap_facts(refs: &mut crate::RefTable, nodes: Vec<crate::AxNode>, clickables: Vec<ClickFact>) -> String {
        let frame = FrameInput { key: "main".into(), nodes, clickables, ..FrameInput::default() };
        crate::snapshot(&crate::SnapshotInput { frames: vec![frame] }, &[], &crate::Options::default(), refs).unwrap().text
    }

    /// A click fact `(id, pointer, listener, area)`.
    fn boxed(&(id, pointer, listener, area): &(u32, bool, bool, f64)) -> ClickFact {
        ClickFact { backend_node_id: id as i64 + 100, pointer, listener, area, drop: false }
    }

    #[test]
    fn a_small_control_of_its_own_inside_a_card_gets_a_ref_the_cards_text_does_not() {
        let mut refs = crate::RefTable::new();
        // A listing card (pointer, 300×200) with its title (inherits the pointer), a heart
        // (listens, 24×24), a `…` menu (sets its own pointer… inherited here, but listens) and a
        // wrapper around all of it that listens (as big as the card).
        let nodes = vec![
            root(&[2]),
            n(2, "generic", "", &[3, 5, 7]),
            n(3, "generic", "", &[4]),
            n(4, "StaticText", "Flat in Lisbon", &[]),
            n(5, "generic", "", &[6]),
            n(6, "StaticText", "♡", &[]),
            n(7, "generic", "", &[8]),
            n(8, "StaticText", "…", &[]),
        ];
        let t = snap_facts(
            &mut refs,
            nodes.clone(),
            [(2, true, false, 60_000.0), (3, false, false, 4_000.0), (5, false, true, 576.0), (7, false, true, 600.0)].iter().map(boxed).collect(),
        );
        assert_eq!(t, "page \"T\"\nclickable A0\n Flat in Lisbon\n clickable A1 ♡\n clickable A2 …\n", "{t}");
        assert_eq!(refs.resolve("A0").unwrap().name, "Flat in Lisbon", "the card's words, not its controls'");
        assert_eq!(refs.resolve("A1").unwrap().name, "♡");
        // A heart that only sets its own pointer (the app's root listens for it): a control of its own too.
        let t = snap_facts(&mut crate::RefTable::new(), nodes.clone(), [(2, true, false, 60_000.0), (5, true, false, 576.0)].iter().map(boxed).collect());
        assert_eq!(t, "page \"T\"\nclickable A0\n Flat in Lisbon\n clickable A1 ♡\n …\n", "{t}");
        // Covering most of the card, or of no known size: part of the card.
        let t = snap_facts(&mut crate::RefTable::new(), nodes.clone(), [(2, true, false, 60_000.0), (5, false, true, 40_000.0), (7, false, true, 0.0)].iter().map(boxed).collect());
        assert!(t.contains("clickable A0") && !t.contains("A1"), "{t}");
        // Inside a link card too; never inside a button.
        let mut link = nodes.clone();
        link[1] = n(2, "link", "Flat in Lisbon", &[3, 5, 7]);
        let t = snap_facts(&mut crate::RefTable::new(), link, [(2, true, false, 60_000.0), (5, false, true, 576.0)].iter().map(boxed).collect());
        assert_eq!(t, "page \"T\"\nA0 [Flat in Lisbon]\n clickable A1 ♡\n …\n", "{t}");
        let mut button = nodes;
        button[1] = n(2, "button", "Flat in Lisbon", &[3, 5, 7]);
        let t = snap_facts(&mut crate::RefTable::new(), button, [(2, true, false, 60_000.0), (5, false, true, 576.0)].iter().map(boxed).collect());
        assert!(!t.contains("A1"), "{t}");
    }

    #[test]
    fn interactive_mode_keeps_a_clickables_words_not_a_links_or_the_pages() {
        let nodes = vec![
            root(&[2, 5, 7]),
            n(2, "generic", "", &[3]),
            n(3, "generic", "", &[4]),
            n(4, "StaticText", "Flat in Lisbon", &[]),
            n(5, "link", "Home", &[6]),
            n(6, "StaticText", "Home", &[]),
            n(7, "StaticText", "Stays near you", &[]),
        ];
        let facts = vec![boxed(&(2, true, false, 60_000.0))];
        let frame = FrameInput { key: "main".into(), nodes, clickables: facts, ..FrameInput::default() };
        let options = crate::Options { mode: crate::Mode::Interactive, ..crate::Options::default() };
        let mut refs = crate::RefTable::new();
        let t = crate::snapshot(&crate::SnapshotInput { frames: vec![frame] }, &[], &options, &mut refs).unwrap().text;
        assert_eq!(t, "page \"T\"\nclickable A0 Flat in Lisbon\nA1 [Home]\n", "{t}");
        assert_eq!(refs.resolve("A0").unwrap().name, "Flat in Lisbon");
    }

    #[test]
    fn a_clickable_ref_is_named_by_the_words_its_line_shows() {
        let mut refs = crate::RefTable::new();
        let t = snap(
            &mut refs,
            vec![
                root(&[2, 5]),
                n(2, "generic", "", &[3, 4]),
                ignored(n(3, "generic", "", &[6])),
                n(6, "StaticText", "+", &[]),
                n(4, "StaticText", "New card", &[]),
                n(5, "generic", "", &[7]),
                n(7, "image", "Delete card", &[]),
            ],
            &[(2, true, false, false), (5, false, true, false)],
        );
        assert_eq!(t, "page \"T\"\nclickable A0 +New card\nclickable A1 img \"Delete card\"\n");
        let shown = refs.resolve("A0").unwrap();
        assert_eq!((shown.role.as_str(), shown.name.as_str()), ("clickable", "+New card"), "the words after its ref");
        assert_eq!(refs.resolve("A1").unwrap().name, "img \"Delete card\"", "its line as it reads");
    }

    #[test]
    fn a_clickable_of_several_lines_is_named_by_its_first_unless_its_content_starts_below() {
        let mut refs = crate::RefTable::new();
        let t = snap(
            &mut refs,
            vec![
                root(&[2, 6]),
                n(2, "generic", "", &[3, 4]),
                n(3, "generic", "", &[7]),
                n(7, "StaticText", "Archive", &[]),
                n(4, "generic", "", &[5]),
                n(5, "StaticText", "Call Ana", &[]),
                n(6, "generic", "", &[8, 10]),
                prop(n(8, "heading", "Trip", &[9]), "level", serde_json::json!(3)),
                n(9, "StaticText", "Trip", &[]),
                n(10, "StaticText", "Pay the hotel", &[]),
            ],
            &[(2, false, false, true), (6, true, true, false)],
        );
        assert_eq!(t, "page \"T\"\ndroptarget A0 Archive\n Call Ana\nclickable A1\n ### Trip\n Pay the hotel\n");
        assert_eq!(refs.resolve("A0").unwrap().name, "Archive");
        assert_eq!(refs.resolve("A1").unwrap().name, "### Trip Pay the hotel");
    }

    #[test]
    fn a_redrawn_clickable_keeps_its_ref_and_twins_keep_theirs_where_they_stood() {
        let mut refs = crate::RefTable::new();
        let card = |id: u32, text: u32, words: &'static str| [n(id, "generic", "", &[text]), n(text, "StaticText", words, &[])];
        let board = |ids: [(u32, u32, &'static str); 3]| {
            let mut nodes = vec![root(&ids.map(|c| c.0))];
            for (id, text, words) in ids {
                nodes.extend(card(id, text, words));
            }
            nodes
        };
        let clicks = |ids: [u32; 3]| ids.map(|id| (id, true, false, false));
        snap(&mut refs, board([(2, 3, "Write report"), (4, 5, "×"), (6, 7, "×")]), &clicks([2, 4, 6]));
        // The page rendered the board again: every element is new.
        let t = snap(&mut refs, board([(12, 13, "Write report"), (14, 15, "×"), (16, 17, "×")]), &clicks([12, 14, 16]));
        assert_eq!(t, "page \"T\"\nclickable A0 Write report\nclickable A1 ×\nclickable A2 ×\n", "each twin after the element it followed");
        assert_eq!(refs.resolve("A0").unwrap().backend_node_id, 112);
        assert_eq!(refs.resolve("A2").unwrap().backend_node_id, 116);
        // Moved: the twin after "Write report" is still A1; the one first now stood nowhere known.
        let t = snap(&mut refs, board([(22, 23, "×"), (24, 25, "Write report"), (26, 27, "×")]), &clicks([22, 24, 26]));
        assert_eq!(t, "page \"T\"\nclickable A3 ×\nclickable A0 Write report\nclickable A1 ×\n");
        assert_eq!(refs.resolve("A2").unwrap_err().code, crate::ErrorCode::StaleRef);
    }

    #[test]
    fn an_element_taking_drops_gets_a_ref_unless_something_inside_stands_for_it() {
        let mut refs = crate::RefTable::new();
        let t = snap(
            &mut refs,
            vec![
                root(&[2, 4, 7]),
                n(2, "generic", "", &[3]),
                n(3, "StaticText", "Archive", &[]),
                n(4, "generic", "", &[5]),
                n(5, "generic", "", &[6]),
                n(6, "StaticText", "Done", &[]),
                n(7, "list", "", &[]),
            ],
            &[(2, false, false, true), (4, false, false, true), (5, true, true, false), (7, false, false, true)],
        );
        assert_eq!(t, "page \"T\"\ndroptarget A0 Archive\nclickable A1 Done\nlist A2\n");
        assert_eq!((refs.resolve("A0").unwrap().role.as_str(), refs.resolve("A0").unwrap().name.as_str()), ("droptarget", "Archive"));
        // Clicks too: a clickable.
        let t = snap(&mut refs, vec![root(&[2]), n(2, "generic", "", &[3]), n(3, "StaticText", "Archive", &[])], &[(2, true, false, true)]);
        assert_eq!(t, "page \"T\"\nclickable A0 Archive\n");
    }

    #[test]
    fn a_heading_taking_drops_is_text() {
        let t = snap(
            &mut crate::RefTable::new(),
            vec![root(&[2]), prop(n(2, "heading", "Archive", &[3]), "level", serde_json::json!(2)), n(3, "StaticText", "Archive", &[])],
            &[(2, false, false, true)],
        );
        assert_eq!(t, "page \"T\"\n## Archive\n");
    }
}
