//! Which nodes get a ref, and the rule that keeps them.

use super::{Action, Rule};
use crate::tree::{NodeId, Tree};

/// An agent can act on it: a control role, or focusable, or editable. The
/// page itself and hidden (ignored) nodes are not targets. Editable nodes
/// inside an editing host (a text field's inner editor) act through the
/// host's ref.
pub fn is_actionable(tree: &Tree, id: NodeId) -> bool {
    let node = tree.node(id);
    if node.ignored || node.backend_id.is_none() || node.role.is_root() {
        return false;
    }
    if matches!(node.role, crate::role::Role::Iframe | crate::role::Role::IframePresentational) {
        return false;
    }
    // The inner editor of an <input> hangs a few ignored wrappers below it.
    let inside_editor = || tree.ancestors(id).take(4).any(|p| tree.node(p).props.editable);
    node.role.is_control() || node.props.focusable && !is_focus_sentinel(tree, id) || (node.props.editable && !inside_editor())
}

/// How many nodes below a focusable wrapper are searched for something to see.
const SENTINEL_SCAN: usize = 64;

/// A focus-trap sentinel: the empty `<div tabindex="0">` a modal dialog
/// library puts before and after its dialog to keep Tab inside. No role,
/// no name, no description, nothing below it to read or click: nothing a
/// person can see or act on (its tab stop still works). The tree carries
/// no boxes, so this is decided from what it has, not from a zero size.
/// A named focusable (an off-screen skip link) is a real control.
fn is_focus_sentinel(tree: &Tree, id: NodeId) -> bool {
    use crate::role::Role;
    let node = tree.node(id);
    let bare = matches!(node.role, Role::Generic | Role::None | Role::Presentation)
        && !node.props.editable
        && node.name.trim().is_empty()
        && node.description.is_none();
    bare && !tree.descendants(id).take(SENTINEL_SCAN).any(|d| {
        let n = tree.node(d);
        !n.ignored
            && (n.role.is_control()
                || n.props.focusable
                || !n.name.trim().is_empty() && !matches!(n.role, Role::InlineTextBox | Role::LineBreak))
    })
}

pub const KEEP_ACTIONABLE: Rule = Rule {
    name: "keep-actionable",
    why: "never hide an element that receives clicks or input",
    visit: |v| {
        v.is_actionable(v.id).then_some(Action::Keep)
    },
    leave: super::on_the_way_in_only,
};

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use serde_json::json;

    #[test]
    fn a_focus_trap_sentinel_gets_no_ref_and_no_line() {
        // A modal library's dialog between its two empty tab stops.
        let sentinel = |id| prop(n(id, "generic", "", &[]), "focusable", json!(true));
        let t = text(vec![
            root(&[2, 3, 5]),
            sentinel(2),
            prop(n(3, "dialog", "Cookies", &[4]), "modal", json!(true)),
            n(4, "button", "Accept", &[]),
            sentinel(5),
        ]);
        assert_eq!(t, "page \"T\"\ndialog \"Cookies\" modal\n button A0 \"Accept\"\n");
    }

    #[test]
    fn a_named_or_described_focusable_keeps_its_ref() {
        let skip = prop(n(2, "generic", "Skip to content", &[]), "focusable", json!(true));
        let mut titled = prop(n(3, "generic", "", &[]), "focusable", json!(true));
        titled.description = val(json!("Map of the area"));
        let t = text(vec![root(&[2, 3]), skip, titled]);
        assert_eq!(t, "page \"T\"\ngeneric A0 \"Skip to content\"\ngeneric A1 desc=\"Map of the area\"\n");
    }

    #[test]
    fn focusable_generic_gets_a_ref() {
        let t = text(vec![root(&[2]), prop(n(2, "generic", "", &[3]), "focusable", json!(true)), n(3, "StaticText", "Card", &[])]);
        assert_eq!(t, "page \"T\"\ngeneric A0 Card\n");
    }

    #[test]
    fn inner_editor_of_a_search_box_shares_its_ref() {
        let t = text(vec![
            root(&[2]),
            prop(n(2, "searchbox", "Search", &[3]), "editable", json!("plaintext")),
            ignored(n(3, "none", "", &[4])),
            prop(n(4, "generic", "", &[]), "editable", json!("plaintext")),
        ]);
        assert_eq!(t, "page \"T\"\nsearchbox A0 \"Search\"\n");
    }

    #[test]
    fn hidden_button_gets_no_ref() {
        let t = text(vec![root(&[2]), ignored(n(2, "button", "Secret menu", &[]))]);
        assert_eq!(t, "page \"T\"\n");
    }
}
