//! Rules that lift the children of nodes that only carry layout.

use super::{prints_name, Action, Rule};
use crate::role::Role;

pub const UNWRAP_IGNORED: Rule = Rule {
    name: "unwrap-ignored",
    why: "an ignored node is layout Chrome hides from assistive technology; its visible descendants are lifted",
    visit: |v| {
        v.node.ignored.then_some(Action::Unwrap)
    },
    leave: super::on_the_way_in_only,
};

pub const UNWRAP_WRAPPERS: Rule = Rule {
    name: "unwrap-wrappers",
    why: "generic, presentational and unnamed grouping roles carry no meaning of their own, only their children do",
    visit: |v| {
        let unnamed = v.node.name.trim().is_empty();
        let wrapper = match v.node.role {
            Role::Generic | Role::None | Role::Presentation | Role::Paragraph
            | Role::LayoutTable | Role::LayoutTableRow | Role::LayoutTableCell
            | Role::RowGroup | Role::LabelText | Role::Legend | Role::SectionHeader
            | Role::SectionFooter | Role::DescriptionList | Role::Term | Role::Definition
            | Role::Figcaption | Role::Caption | Role::Blockquote | Role::Note => true,
            Role::Group | Role::Section | Role::Region | Role::Figure | Role::Article
            | Role::Document => unnamed,
            _ => false,
        };
        wrapper.then_some(Action::Unwrap)
    },
    leave: super::on_the_way_in_only,
};

/// How many nodes below a form are read to tell a one-button form.
const FORM_SCAN: usize = 64;

pub const UNWRAP_ONE_BUTTON_FORMS: Rule = Rule {
    name: "unwrap-one-button-forms",
    why: "a form with one button and nothing to fill in is how HTML makes a button that posts (Rails' button_to, a star or follow button); the button says it all",
    visit: |v| {
        if v.node.role != Role::Form || !v.node.name.trim().is_empty() || v.node.description.is_some() {
            return None;
        }
        let mut controls = v.tree.descendants(v.id).take(FORM_SCAN + 1).filter(|&d| v.is_actionable(d));
        let one_button = matches!(controls.next(), Some(b) if v.tree.node(b).role == Role::Button) && controls.next().is_none();
        let small = v.tree.descendants(v.id).nth(FORM_SCAN).is_none();
        (one_button && small).then_some(Action::Unwrap)
    },
    leave: super::on_the_way_in_only,
};

pub const UNWRAP_SELECT_POPUPS: Rule = Rule {
    name: "unwrap-select-popups",
    why: "a native <select>'s option list sits in a popup Chrome adds to every one; the combobox line above says it and whether it is open",
    visit: |v| {
        let in_select = v.node.parent.is_some_and(|p| v.tree.node(p).role == Role::ComboBox);
        (v.node.role == Role::MenuListPopup && in_select && v.node.name.trim().is_empty() && !v.is_actionable(v.id))
            .then_some(Action::Unwrap)
    },
    leave: super::on_the_way_in_only,
};

pub const UNWRAP_INLINE_FORMATTING: Rule = Rule {
    name: "unwrap-inline-formatting",
    why: "emphasis, code spans and the like change how words look, not what they say",
    visit: |v| {
        is_inline_formatting(&v.node.role).then_some(Action::Unwrap)
    },
    leave: super::on_the_way_in_only,
};

pub fn is_inline_formatting(role: &Role) -> bool {
    matches!(
        role,
        Role::Emphasis | Role::Strong | Role::Code | Role::Superscript | Role::Subscript
            | Role::Mark | Role::Abbr | Role::Time | Role::Insertion | Role::Deletion
    )
}

pub const UNWRAP_FRAME_ROOTS: Rule = Rule {
    name: "unwrap-frame-roots",
    why: "a child frame's document sits under its iframe line, which already names it",
    visit: |v| {
        (v.node.role.is_root() && Some(v.id) != v.tree.root).then_some(Action::Unwrap)
    },
    leave: super::on_the_way_in_only,
};

pub const DROP_EMPTY_CONTAINERS: Rule = Rule {
    name: "drop-empty-containers",
    why: "a container left with no children and no printed name or description says nothing",
    visit: |_| None,
    leave: |v, kept_children| {
        let keeps_alone = prints_name(v.node)
            || v.is_actionable(v.id)
            || super::is_wrapper_role(&v.node.role) && super::words::says_more_than_content(v.tree, v.id)
            || v.node.role.is_root()
            || matches!(v.node.role, Role::StaticText | Role::ListMarker | Role::LineBreak | Role::Iframe);
        (kept_children == 0 && !keeps_alone).then_some(Action::Remove)
    },
};

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;

    #[test]
    fn generic_wrappers_are_lifted() {
        let t = text(vec![
            root(&[2]),
            n(2, "generic", "", &[3]),
            ignored(n(3, "none", "", &[4])),
            n(4, "button", "Go", &[]),
        ]);
        assert_eq!(t, "page \"T\"\nbutton A0 \"Go\"\n");
    }

    #[test]
    fn named_group_stays_unnamed_group_goes() {
        let t = text(vec![
            root(&[2, 4]),
            n(2, "group", "Shipping", &[3]),
            n(3, "checkbox", "Express", &[]),
            n(4, "group", "", &[5]),
            n(5, "checkbox", "Gift", &[]),
        ]);
        assert_eq!(t, "page \"T\"\ngroup \"Shipping\"\n checkbox A0 \"Express\"\ncheckbox A1 \"Gift\"\n");
    }

    #[test]
    fn a_form_holding_one_button_and_nothing_to_fill_in_prints_only_the_button() {
        let t = text(vec![
            root(&[2]),
            n(2, "form", "", &[3]),
            n(3, "generic", "", &[4]),
            n(4, "button", "Star this repository", &[]),
        ]);
        assert_eq!(t, "page \"T\"\nbutton A0 \"Star this repository\"\n");
    }

    #[test]
    fn a_form_with_a_field_a_second_button_or_a_name_stays_a_form() {
        let t = text(vec![
            root(&[2, 5, 8]),
            n(2, "form", "", &[3, 4]),
            n(3, "textbox", "Email", &[]),
            n(4, "button", "Subscribe", &[]),
            n(5, "form", "", &[6, 7]),
            n(6, "button", "Yes", &[]),
            n(7, "button", "No", &[]),
            n(8, "form", "Newsletter", &[9]),
            n(9, "button", "Subscribe", &[]),
        ]);
        assert_eq!(
            t,
            "page \"T\"\nform\n textbox A0 \"Email\"\n button A1 \"Subscribe\"\nform\n button A2 \"Yes\"\n button A3 \"No\"\nform \"Newsletter\"\n button A4 \"Subscribe\"\n"
        );
    }

    #[test]
    fn a_selects_options_nest_under_its_combobox_without_the_popup_line() {
        let t = text(vec![
            root(&[2]),
            value(n(2, "combobox", "Size", &[3]), "Small"),
            n(3, "MenuListPopup", "", &[4, 5]),
            n(4, "MenuListOption", "Small", &[]),
            n(5, "MenuListOption", "Large", &[]),
        ]);
        assert_eq!(t, "page \"T\"\ncombobox A0 \"Size\": Small\n option A1 \"Small\"\n option A2 \"Large\"\n");
    }

    #[test]
    fn inline_formatting_merges_into_the_sentence() {
        let t = text(vec![
            root(&[2]),
            n(2, "paragraph", "", &[3, 4, 6]),
            n(3, "StaticText", "Say ", &[]),
            n(4, "emphasis", "", &[5]),
            n(5, "StaticText", "hello", &[]),
            n(6, "StaticText", " now.", &[]),
        ]);
        assert_eq!(t, "page \"T\"\nSay hello now.\n");
    }

    #[test]
    fn empty_list_is_dropped() {
        let t = text(vec![root(&[2]), n(2, "list", "", &[3]), n(3, "listitem", "", &[])]);
        assert_eq!(t, "page \"T\"\n");
    }
}
