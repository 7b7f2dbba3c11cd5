//! Interactive mode: actionable nodes and just enough context to place them.

use super::{Action, Rule};
use crate::role::Role;
use crate::options::Mode;

pub const INTERACTIVE_ONLY: Rule = Rule {
    name: "interactive-only",
    why: "interactive mode asks for controls only; actionable nodes were kept by an earlier rule",
    visit: |v| {
        if v.mode != Mode::Interactive {
            return None;
        }
        let r = &v.node.role;
        let context = (r.is_landmark() && r != &Role::Region)
            || (r == &Role::Region && !v.node.name.is_empty())
            || matches!(r, Role::Heading | Role::Iframe | Role::TabList | Role::Menu | Role::MenuBar
                | Role::Tree | Role::Table | Role::Grid | Role::TreeGrid | Role::Toolbar)
            || r.is_root();
        if context && !v.node.ignored {
            return None;
        }
        if matches!(r, Role::StaticText | Role::Image | Role::Img | Role::ListMarker | Role::LineBreak) {
            // A clickable's words are all that names it (Chrome names no `div`): without them one card's ref
            // reads like the next one's. They are kept as full mode keeps them.
            if inside_clickable(v) {
                return None;
            }
            return Some(Action::Remove);
        }
        Some(Action::Unwrap)
    },
    leave: super::on_the_way_in_only,
};

/// Whether the nearest actionable ancestor of the node is a clickable (a link or a button has its name already).
fn inside_clickable(v: &super::Visit) -> bool {
    let mut at = v.node.parent;
    while let Some(p) = at {
        if v.is_actionable(p) {
            return v.is_clickable(p);
        }
        at = v.tree.node(p).parent;
    }
    false
}

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use crate::{Mode, Options};

    #[test]
    fn interactive_mode_keeps_controls_and_landmarks_only() {
        let nodes = vec![
            root(&[2]),
            n(2, "navigation", "Main", &[3, 4]),
            n(3, "StaticText", "Go to:", &[]),
            n(4, "list", "", &[5]),
            n(5, "listitem", "", &[6]),
            n(6, "link", "Home", &[]),
        ];
        let t = text_with(nodes, Options { mode: Mode::Interactive, ..Options::default() });
        assert_eq!(t, "page \"T\"\nnav \"Main\"\n A0 [Home]\n");
    }
}
