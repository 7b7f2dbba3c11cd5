//! Rules that lift the children of nodes that only carry layout.

use super::{prints_name, Action, Rule, Visit};
use crate::role::Role;

pub struct UnwrapIgnored;
impl Rule for UnwrapIgnored {
    fn name(&self) -> &'static str {
        "unwrap-ignored"
    }
    fn why(&self) -> &'static str {
        "an ignored node is layout Chrome hides from assistive technology; its visible descendants are lifted"
    }
    fn visit(&self, v: &Visit) -> Option<Action> {
        v.node.ignored.then_some(Action::Unwrap)
    }
}

pub struct UnwrapWrappers;
impl Rule for UnwrapWrappers {
    fn name(&self) -> &'static str {
        "unwrap-wrappers"
    }
    fn why(&self) -> &'static str {
        "generic, presentational and unnamed grouping roles carry no meaning of their own, only their children do"
    }
    fn visit(&self, v: &Visit) -> Option<Action> {
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
    }
}

pub struct UnwrapInlineFormatting;
impl Rule for UnwrapInlineFormatting {
    fn name(&self) -> &'static str {
        "unwrap-inline-formatting"
    }
    fn why(&self) -> &'static str {
        "emphasis, code spans and the like change how words look, not what they say"
    }
    fn visit(&self, v: &Visit) -> Option<Action> {
        is_inline_formatting(&v.node.role).then_some(Action::Unwrap)
    }
}

pub fn is_inline_formatting(role: &Role) -> bool {
    matches!(
        role,
        Role::Emphasis | Role::Strong | Role::Code | Role::Superscript | Role::Subscript
            | Role::Mark | Role::Abbr | Role::Time | Role::Insertion | Role::Deletion
    )
}

pub struct UnwrapFrameRoots;
impl Rule for UnwrapFrameRoots {
    fn name(&self) -> &'static str {
        "unwrap-frame-roots"
    }
    fn why(&self) -> &'static str {
        "a child frame's document sits under its iframe line, which already names it"
    }
    fn visit(&self, v: &Visit) -> Option<Action> {
        (v.node.role.is_root() && Some(v.id) != v.tree.root).then_some(Action::Unwrap)
    }
}

pub struct DropEmptyContainers;
impl Rule for DropEmptyContainers {
    fn name(&self) -> &'static str {
        "drop-empty-containers"
    }
    fn why(&self) -> &'static str {
        "a container left with no children and no printed name says nothing"
    }
    fn visit(&self, _v: &Visit) -> Option<Action> {
        None
    }
    fn leave(&self, v: &Visit, kept_children: usize) -> Option<Action> {
        let keeps_alone = prints_name(v.node)
            || v.is_actionable(v.id)
            || v.node.role.is_root()
            || matches!(v.node.role, Role::StaticText | Role::ListMarker | Role::LineBreak | Role::Iframe);
        (kept_children == 0 && !keeps_alone).then_some(Action::Remove)
    }
}

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
        assert_eq!(t, "page \"T\"\nbutton \"Go\" A0\n");
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
        assert_eq!(t, "page \"T\"\ngroup \"Shipping\"\n checkbox \"Express\" A0\ncheckbox \"Gift\" A1\n");
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
