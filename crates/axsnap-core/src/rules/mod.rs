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
pub mod clickable;
mod media;
mod mode;
mod text;
mod words;
mod wrappers;

pub use actionable::is_actionable;
pub use text::{contains_words, is_bullet_glyph, is_preformatted};
pub use words::{content_says, same_word_sequence, has_own_name, is_wrapper_role, readable_description};
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
    /// Nodes [`clickable::find`] made actionable (they are in `actionable` too).
    pub clickable: &'a [bool],
}

impl Visit<'_> {
    pub fn is_actionable(&self, id: NodeId) -> bool {
        self.actionable[id as usize]
    }

    pub fn is_clickable(&self, id: NodeId) -> bool {
        self.clickable[id as usize]
    }
}

/// A rule: its name, one line on why it can never hide something an agent
/// needs, and what it answers about a node on the way in and, once the
/// node's children are distilled, on the way out.
pub struct Rule {
    pub name: &'static str,
    pub why: &'static str,
    pub visit: fn(&Visit) -> Option<Action>,
    pub leave: fn(&Visit, usize) -> Option<Action>,
}

/// `leave` for rules that only look on the way in.
pub fn on_the_way_in_only(_: &Visit, _kept_children: usize) -> Option<Action> {
    None
}

/// The rules, in the order they are asked.
pub static RULES: &[Rule] = &[
    text::DROP_INLINE_TEXT_BOXES,
    clickable::KEEP_CLICKABLE,
    actionable::KEEP_ACTIONABLE,
    text::DROP_HIDDEN_TEXT,
    text::DROP_BLANK_TEXT,
    text::DROP_ECHOED_TEXT,
    text::DROP_TEXT_FIELD_CONTENTS,
    text::DROP_LABEL_ECHOING_ITS_CONTROL,
    media::DROP_UNNAMED_IMAGES,
    media::DROP_ECHOED_IMAGES,
    media::DROP_SEPARATORS,
    media::DROP_SEPARATOR_ITEMS,
    text::DROP_BULLET_MARKERS,
    text::DROP_BULLET_GLYPHS,
    mode::INTERACTIVE_ONLY,
    words::KEEP_WRAPPERS_THAT_SAY_MORE,
    wrappers::UNWRAP_IGNORED,
    wrappers::UNWRAP_WRAPPERS,
    wrappers::UNWRAP_ONE_BUTTON_FORMS,
    wrappers::UNWRAP_SELECT_POPUPS,
    wrappers::UNWRAP_INLINE_FORMATTING,
    wrappers::UNWRAP_FRAME_ROOTS,
    wrappers::DROP_EMPTY_CONTAINERS,
];

/// Asks the rules about a node on the way in: the answer, and the index in
/// [`RULES`] of the rule that gave it (none: kept by default).
pub fn decide(v: &Visit) -> (Action, Option<usize>) {
    RULES
        .iter()
        .enumerate()
        .find_map(|(i, rule)| (rule.visit)(v).map(|a| (a, Some(i))))
        .unwrap_or((Action::Keep, None))
}

/// Asks the rules about a kept node on the way out.
pub fn decide_leave(v: &Visit, kept_children: usize) -> (Action, Option<usize>) {
    RULES
        .iter()
        .enumerate()
        .find_map(|(i, rule)| (rule.leave)(v, kept_children).map(|a| (a, Some(i))))
        .unwrap_or((Action::Keep, None))
}

/// Roles whose line prints the node's name; text echoing such a name adds nothing.
pub fn prints_name(node: &Node) -> bool {
    use crate::role::Role::*;
    !node.name.is_empty()
        && !matches!(
            node.role,
            Row | RowGroup | Cell | GridCell | ColumnHeader | RowHeader
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
        SnapshotInput { frames: vec![FrameInput { key: "main".into(), nodes, ..FrameInput::default() }] }
    }

    /// Full-mode text of a one-frame page.
    pub fn text(nodes: Vec<AxNode>) -> String {
        let mut refs = crate::RefTable::new();
        crate::snapshot(&page(nodes), &[], &crate::Options::default(), &mut refs).unwrap().text
    }

    /// Full-mode text of one frame given whole (its DOM facts too).
    pub fn text_of_frame(frame: FrameInput) -> String {
        let mut refs = crate::RefTable::new();
        crate::snapshot(&SnapshotInput { frames: vec![frame] }, &[], &crate::Options::default(), &mut refs).unwrap().text
    }

    pub fn text_with(nodes: Vec<AxNode>, options: crate::Options) -> String {
        let mut refs = crate::RefTable::new();
        crate::snapshot(&page(nodes), &[], &options, &mut refs).unwrap().text
    }

    pub fn root(kids: &[u32]) -> AxNode {
        n(1, "RootWebArea", "T", kids)
    }
}
