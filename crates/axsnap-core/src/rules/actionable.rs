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
    node.role.is_control() || node.props.focusable || (node.props.editable && !inside_editor())
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
        assert_eq!(t, "page \"T\"\nsearchbox \"Search\" A0\n");
    }

    #[test]
    fn hidden_button_gets_no_ref() {
        let t = text(vec![root(&[2]), ignored(n(2, "button", "Secret menu", &[]))]);
        assert_eq!(t, "page \"T\"\n");
    }
}
