//! The distiller's rules: an ordered list of small named units, each looking
//! at one node and answering keep, remove or unwrap (keep my children). The
//! first rule with an answer decides; a node no rule speaks for is kept.
//!
//! Whatever a rule answers, the walker never removes a subtree that holds an
//! actionable node: a remove becomes an unwrap there. So no rule can lose a
//! ref, and each rule only has to argue that it loses no *text*.

use crate::tree::{Node, NodeId, Tree};
use crate::options::Mode;

mod actionable;
mod media;
mod mode;
mod text;
mod wrappers;

pub use actionable::is_actionable;
pub use text::{contains_words, is_bullet_glyph, is_preformatted};
pub use wrappers::is_inline_formatting;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Keep,
    Remove,
    Unwrap,
}

/// What a rule may look at.
pub struct Visit<'a> {
    pub tree: &'a Tree,
    pub id: NodeId,
    pub node: &'a Node,
    pub mode: Mode,
    /// The name printed by the nearest kept ancestor that prints its name.
    pub ancestor_name: Option<&'a str>,
    pub actionable: &'a [bool],
}

impl Visit<'_> {
    pub fn is_actionable(&self, id: NodeId) -> bool {
        self.actionable[id as usize]
    }
}

pub trait Rule: Sync {
    fn name(&self) -> &'static str;
    /// One line: why this rule can never hide something an agent needs.
    fn why(&self) -> &'static str;
    /// On the way in.
    fn visit(&self, v: &Visit) -> Option<Action>;
    /// On the way out, once the node's children are distilled.
    fn leave(&self, _v: &Visit, _kept_children: usize) -> Option<Action> {
        None
    }
}

/// The rules, in the order they are asked.
pub static RULES: &[&dyn Rule] = &[
    &text::DropInlineTextBoxes,
    &actionable::KeepActionable,
    &text::DropHiddenText,
    &text::DropBlankText,
    &text::DropEchoedText,
    &text::DropTextFieldContents,
    &text::DropLabelEchoingItsControl,
    &media::DropUnnamedImages,
    &media::DropEchoedImages,
    &media::DropSeparators,
    &media::DropSeparatorItems,
    &text::DropBulletMarkers,
    &text::DropBulletGlyphs,
    &mode::InteractiveOnly,
    &wrappers::UnwrapIgnored,
    &wrappers::UnwrapWrappers,
    &wrappers::UnwrapInlineFormatting,
    &wrappers::UnwrapFrameRoots,
    &wrappers::DropEmptyContainers,
];

/// Asks the rules about a node on the way in.
pub fn decide(v: &Visit) -> (Action, &'static str) {
    for rule in RULES {
        if let Some(a) = rule.visit(v) {
            return (a, rule.name());
        }
    }
    (Action::Keep, "default")
}

/// Asks the rules about a kept node on the way out.
pub fn decide_leave(v: &Visit, kept_children: usize) -> Action {
    for rule in RULES {
        if let Some(a) = rule.leave(v, kept_children) {
            return a;
        }
    }
    Action::Keep
}

/// Roles whose line prints the node's name; text echoing such a name adds nothing.
pub fn prints_name(node: &Node) -> bool {
    use crate::role::Role::*;
    !node.name.is_empty()
        && !matches!(
            node.role,
            Row | RowGroup | Cell | GridCell | ColumnHeader | RowHeader | List | ListItem
                | Paragraph | Generic | None | Presentation | LabelText | Legend | StaticText
                | Term | Definition | DescriptionList | Blockquote | Caption | Figcaption
                | Emphasis | Strong | Code | Superscript | Subscript | Mark | Abbr | Time
                | Insertion | Deletion | SectionHeader | SectionFooter | LineBreak | ListMarker
        )
}

#[cfg(test)]
pub(crate) mod testing {
    //! Tiny hand-built trees for rule tests.
    use crate::cdp::{AxNode, AxProperty, AxValue, FrameInput, SnapshotInput};
    use serde_json::json;

    pub fn val(v: serde_json::Value) -> Option<AxValue> {
        Some(serde_json::from_value(serde_json::json!({ "type": "x", "value": v })).unwrap())
    }

    /// `n(id, role, name, children)`
    pub fn n(id: u32, role: &str, name: &str, kids: &[u32]) -> AxNode {
        AxNode {
            node_id: id.to_string(),
            role: val(json!(role)),
            name: if name.is_empty() { None } else { val(json!(name)) },
            child_ids: kids.iter().map(|k| k.to_string()).collect(),
            backend_dom_node_id: Some(id as i64 + 100),
            ..Default::default()
        }
    }

    pub fn prop(mut node: AxNode, name: &str, v: serde_json::Value) -> AxNode {
        node.properties.push(AxProperty { name: name.into(), value: val(v).unwrap() });
        node
    }

    pub fn ignored(mut node: AxNode) -> AxNode {
        node.ignored = true;
        node
    }

    pub fn value(mut node: AxNode, v: &str) -> AxNode {
        node.value = val(json!(v));
        node
    }

    pub fn page(nodes: Vec<AxNode>) -> SnapshotInput {
        SnapshotInput { frames: vec![FrameInput { key: "main".into(), parent: None, owner: None, nodes }] }
    }

    /// Full-mode text of a one-frame page.
    pub fn text(nodes: Vec<AxNode>) -> String {
        let mut refs = crate::RefTable::new();
        crate::snapshot(&page(nodes), &[], &crate::Options::default(), &mut refs).unwrap().text
    }

    pub fn text_with(nodes: Vec<AxNode>, options: crate::Options) -> String {
        let mut refs = crate::RefTable::new();
        crate::snapshot(&page(nodes), &[], &options, &mut refs).unwrap().text
    }

    pub fn root(kids: &[u32]) -> AxNode {
        n(1, "RootWebArea", "T", kids)
    }
}
