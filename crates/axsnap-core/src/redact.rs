//! Which fields are secret. The extension finds most from the DOM (the
//! accessibility tree does not mark them); a text field whose value Chrome
//! masked with bullets is a password field whatever the DOM scan said.

use crate::cdp::{SecretReason, Sensitive};
use crate::role::Role;
use crate::tree::{NodeId, Tree};
use std::collections::HashMap;

#[derive(Debug, Clone, Default)]
pub struct Secrets {
    by_node: HashMap<(String, i64), SecretReason>,
}

impl Secrets {
    pub fn new(list: &[Sensitive]) -> Self {
        let by_node = list.iter().map(|s| ((s.frame.clone(), s.backend_node_id), s.reason)).collect();
        Secrets { by_node }
    }

    pub fn reason(&self, tree: &Tree, id: NodeId) -> Option<SecretReason> {
        let node = tree.node(id);
        if let Some(b) = node.backend_id {
            if !self.by_node.is_empty() {
                if let Some(&r) = self.by_node.get(&(tree.frame_key(id).to_string(), b)) {
                    return Some(r);
                }
            }
        }
        let field = node.role.is_text_field() || node.props.editable || node.role == Role::TextBox;
        let masked = node.value.as_deref().is_some_and(is_masked);
        (field && masked).then_some(SecretReason::Masked)
    }
}

/// Chrome shows a password value as one bullet per character.
pub fn is_masked(value: &str) -> bool {
    !value.is_empty() && value.chars().all(|c| matches!(c, '•' | '●' | '∙' | '⏺' | '*'))
}
