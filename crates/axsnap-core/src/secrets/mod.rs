//! Secret fields: which they are, and their values cut out of everything
//! the core prints. It runs right after the tree is built, so rules, refs,
//! printers and `resolve` only ever see the redacted tree.
//!
//! The extension collects facts about each text field in the DOM (tag,
//! attributes, computed `-webkit-text-security`, whether it was secret
//! before in this document, whether it is filled); [`decide`] turns them into
//! a reason. A field whose value Chrome masked with bullets is a password
//! field whatever the facts say.
//!
//! A secret's value can sit in other nodes' names and descriptions, because
//! Chrome builds names from label contents: a `<label>` holding a second
//! field, `aria-labelledby` or `aria-describedby` naming the field. So every
//! secret value (as the accessibility tree gives it, which is what Chrome
//! puts in names; or, for a field the tree leaves out, the value the
//! extension passes for that call only) is replaced by [`PLACEHOLDER`] in
//! every name, description, value and URL of the snapshot, and so are runs
//! of mask glyphs. Values shorter than [`MIN_ANYWHERE`] characters, and
//! shorter mask runs, are cut only as whole words and only where Chrome puts
//! them: in the field's own node, its ancestors (names from content) and the
//! nodes labelled or described by them.
//!
//! Values typed into secret fields are also cut out when the core is not
//! given them (the field was cleared, or Chrome shows bullets), and as the
//! page may echo them (other case, other separators): by their fingerprints
//! ([`typed`]), which the extension keeps for the document and passes with
//! each call. Nothing else is kept between calls.

mod decide;
mod scrub;
pub mod typed;

pub use decide::{card_number, reason};
pub use scrub::{is_masked, scrub_typed, scrub_typed_lines, MIN_ANYWHERE, PLACEHOLDER};
pub use typed::Typed;

use crate::role::Role;
use crate::tree::{NodeId, Tree};
use scrub::{collapse, scrub, Needles, CHROME_MASKS};
use serde::{Deserialize, Serialize};

/// Why a field's content must never be shown.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum SecretReason {
    Password,
    CurrentPassword,
    NewPassword,
    CreditCard,
    OneTimeCode,
}

impl SecretReason {
    pub fn as_str(self) -> &'static str {
        match self {
            SecretReason::Password => "password",
            SecretReason::CurrentPassword => "current-password",
            SecretReason::NewPassword => "new-password",
            SecretReason::CreditCard => "credit-card",
            SecretReason::OneTimeCode => "one-time-code",
        }
    }
}

/// What the extension saw of one field in the DOM. Every field but the
/// node's identity is optional, so `{frame, backendNodeId, reason}` (a field
/// known to be secret) is facts too.
#[derive(Clone, Default, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FieldFacts {
    #[serde(default)]
    pub frame: String,
    pub backend_node_id: i64,
    /// The element's local name (`input`, `textarea`, …).
    #[serde(default)]
    pub tag: String,
    /// Its attributes as `DOM.describeNode` lists them, name then value
    /// (`["type", "password", "name", "pw"]`), the `value` attribute excepted.
    #[serde(default)]
    pub attributes: Vec<String>,
    /// Computed `-webkit-text-security` (`none`, `disc`, …).
    #[serde(default)]
    pub text_security: String,
    /// Found secret before in this document (the extension's memory), or
    /// said to be by the caller.
    #[serde(default)]
    pub reason: Option<SecretReason>,
    #[serde(default)]
    pub filled: bool,
    /// The current value, only for a field the accessibility tree leaves
    /// out (a hidden field a label points at): used to cut it out of names
    /// for this one call, never stored, printed or logged.
    #[serde(default)]
    pub value: Option<String>,
    /// Fingerprints of the current value (see [`typed`]), made in the page:
    /// used if the field is secret.
    #[serde(default)]
    pub typed: Vec<String>,
}

impl FieldFacts {
    /// An attribute's value, `""` when absent.
    pub fn attr(&self, name: &str) -> &str {
        self.attributes.chunks_exact(2).find(|kv| kv[0].eq_ignore_ascii_case(name)).map_or("", |kv| kv[1].as_str())
    }
}

/// Never prints the value: facts end up in panics and test failures.
impl std::fmt::Debug for FieldFacts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FieldFacts")
            .field("frame", &self.frame)
            .field("backend_node_id", &self.backend_node_id)
            .field("tag", &self.tag)
            .field("attributes", &self.attributes)
            .field("text_security", &self.text_security)
            .field("reason", &self.reason)
            .field("filled", &self.filled)
            .field("value", &self.value.as_ref().map(|_| PLACEHOLDER))
            .field("typed", &self.typed.len())
            .finish()
    }
}

/// A field found secret: what the extension remembers for the document.
#[derive(Debug, Clone, Deserialize, Serialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct SecretField {
    pub frame: String,
    pub backend_node_id: i64,
    pub reason: SecretReason,
}

/// One secret field and what must be cut out for it.
struct Field<'a> {
    frame: u32,
    node: Option<NodeId>,
    backend_id: Option<i64>,
    reason: SecretReason,
    filled: bool,
    values: Vec<String>,
    masked: Vec<char>,
    typed: &'a [String],
}

/// Decides which fields are secret, marks them in the tree and cuts their
/// values, and every value typed before (`typed`), out of it. Returns the
/// secret fields, and the fingerprints in force (`typed` and those of the
/// secret fields' values now).
pub fn redact(tree: &mut Tree, facts: &[FieldFacts], typed: &Typed) -> (Vec<SecretField>, Typed) {
    let fields = find_fields(tree, facts);
    let mut typed = typed.clone();
    for f in &fields {
        typed.add(f.typed);
    }
    if fields.is_empty() && typed.is_empty() {
        return (Vec::new(), typed);
    }
    cut_values(tree, &fields, &typed);
    for f in &fields {
        if let Some(id) = f.node {
            // The value the page shows stays unreadable downstream, and
            // `filled` still says whether there is one.
            let node = &mut tree.nodes[id as usize];
            node.secret = Some(f.reason);
            node.value = Some(if f.filled { PLACEHOLDER } else { "" }.to_string());
            node.props.value_text = node.props.value_text.as_ref().map(|_| PLACEHOLDER.to_string());
        }
    }
    let found = fields
        .iter()
        .filter_map(|f| {
            let backend_node_id = f.backend_id?;
            Some(SecretField { frame: tree.frames[f.frame as usize].key.clone(), backend_node_id, reason: f.reason })
        })
        .collect();
    (found, typed)
}

fn find_fields<'a>(tree: &Tree, facts: &'a [FieldFacts]) -> Vec<Field<'a>> {
    // (frame, backend id, fact index), in order: a field has one binary
    // search, and no hash map or std sort is added to the Wasm for it.
    let mut index: Vec<(u32, i64, usize)> = Vec::with_capacity(facts.len());
    for (i, f) in facts.iter().enumerate() {
        if let Some(frame) = tree.frames.iter().position(|fr| fr.key == f.frame) {
            let key = (frame as u32, f.backend_node_id, i);
            let at = index.iter().position(|&k| k > key).unwrap_or(index.len());
            index.insert(at, key);
        }
    }
    let mut used = vec![false; facts.len()];
    let mut fields = Vec::new();
    for (id, node) in tree.nodes.iter().enumerate() {
        let fact = node.backend_id.and_then(|b| {
            let at = index.partition_point(|&(f, bk, _)| (f, bk) < (node.frame, b));
            index.get(at).filter(|&&(f, bk, _)| (f, bk) == (node.frame, b)).map(|&(_, _, i)| i)
        });
        if let Some(i) = fact {
            used[i] = true;
        }
        let fact = fact.map(|i| &facts[i]);
        let editable = node.role.is_text_field() || node.props.editable;
        let masked = editable && node.value.as_deref().is_some_and(is_masked);
        // A card number is one whatever its field is called.
        let card = editable && node.value.as_deref().is_some_and(card_number);
        let Some(reason) = fact
            .and_then(|f| decide::reason(f, &node.name))
            .or(masked.then_some(SecretReason::Password))
            .or(card.then_some(SecretReason::CreditCard))
        else {
            continue;
        };
        let filled = node.value.as_deref().is_some_and(|v| !v.is_empty()) || fact.is_some_and(|f| f.filled);
        let typed = fact.map_or(&[][..], |f| &f.typed[..]);
        let mut field = Field { frame: node.frame, node: Some(id as NodeId), backend_id: node.backend_id, reason, filled, values: Vec::new(), masked: Vec::new(), typed };
        for v in [node.value.as_deref(), node.props.value_text.as_deref(), fact.and_then(|f| f.value.as_deref())].into_iter().flatten() {
            field.add(v);
        }
        // What the page draws in it is its value too (bullets, for a field
        // masked by CSS).
        for d in tree.descendants(id as NodeId).take(16) {
            let n = tree.node(d);
            if n.role == Role::StaticText {
                field.add(&n.name);
            }
        }
        fields.push(field);
    }
    // Facts left: fields the tree leaves out (hidden, yet a label points at them).
    for &(frame, backend, i) in &index {
        let f = &facts[i];
        let Some(reason) = decide::reason(f, "").filter(|_| !used[i]) else { continue };
        let mut field = Field { frame, node: None, backend_id: Some(backend), reason, filled: f.filled, values: Vec::new(), masked: Vec::new(), typed: &f.typed };
        if let Some(v) = &f.value {
            field.add(v);
        }
        fields.push(field);
    }
    fields
}

impl Field<'_> {
    fn add(&mut self, value: &str) {
        if is_masked(value.trim()) {
            for c in value.trim().chars() {
                if !self.masked.contains(&c) {
                    self.masked.push(c);
                }
            }
        } else {
            let v = collapse(value);
            if !v.is_empty() && !self.values.contains(&v) {
                self.values.push(v);
            }
        }
    }
}

fn cut_values(tree: &mut Tree, fields: &[Field], typed: &Typed) {
    let long = |v: &&String| v.chars().count() >= MIN_ANYWHERE;
    let mut anywhere: Vec<String> = Vec::new();
    for v in fields.iter().flat_map(|f| &f.values).filter(long) {
        if !anywhere.contains(v) {
            anywhere.push(v.clone());
        }
    }
    // Per frame holding a secret: the mask glyphs to cut.
    let mut masks: Vec<Vec<char>> = vec![Vec::new(); tree.frames.len()];
    for f in fields {
        let m = &mut masks[f.frame as usize];
        for &c in CHROME_MASKS.iter().chain(&f.masked) {
            if !m.contains(&c) {
                m.push(c);
            }
        }
    }
    // Per node: the short values (and short mask runs) Chrome may have put
    // into its name, as an index into `near`.
    let mut near: Vec<Vec<String>> = Vec::new();
    let mut near_of = vec![u32::MAX; tree.nodes.len()];
    for f in fields {
        let short: Vec<&String> = f.values.iter().filter(|v| !long(v)).collect();
        if short.is_empty() && f.masked.is_empty() {
            continue;
        }
        for id in embedding_nodes(tree, f) {
            if near_of[id as usize] == u32::MAX {
                near_of[id as usize] = near.len() as u32;
                near.push(Vec::new());
            }
            near[near_of[id as usize] as usize].extend(short.iter().map(|v| v.to_string()));
        }
    }
    let mut inside_secret = vec![false; tree.nodes.len()];
    for f in fields {
        if let Some(id) = f.node {
            for d in tree.descendants(id) {
                inside_secret[d as usize] = true;
            }
        }
    }
    for (id, node) in tree.nodes.iter_mut().enumerate() {
        if inside_secret[id] && matches!(node.role, Role::StaticText | Role::InlineTextBox) {
            // A secret field's own text: its value as the page draws it.
            if !node.name.is_empty() {
                node.name = PLACEHOLDER.to_string();
            }
            continue;
        }
        let words = near.get(near_of[id] as usize);
        let needles = Needles {
            anywhere: &anywhere,
            words: words.map_or(&[][..], |w| &w[..]),
            masks: &masks[node.frame as usize],
            min_mask_run: if words.is_some() { 1 } else { MIN_ANYWHERE },
            typed: Some(typed),
            keep_lines: false,
        };
        let texts = [Some(&mut node.name), node.description.as_mut(), node.value.as_mut(), node.props.value_text.as_mut(), node.props.url.as_mut()];
        for text in texts.into_iter().flatten() {
            if let Some(clean) = scrub(text, &needles) {
                *text = clean;
            }
        }
    }
    for i in 0..tree.frames.len() {
        if let Some(root) = tree.frames[i].root {
            tree.frames[i].url = tree.node(root).props.url.clone();
        }
    }
}

/// The nodes whose name or description Chrome may have built from a
/// field's value: the field itself, its ancestors whose names come from
/// their content (a button or a `<label>` around it), and the nodes labelled
/// or described by it or by one of its ancestors (`aria-labelledby`,
/// `aria-describedby`, a `<label>` holding it and another field).
fn embedding_nodes(tree: &Tree, f: &Field) -> Vec<NodeId> {
    let mut nodes = Vec::new();
    let mut sources: Vec<i64> = f.backend_id.into_iter().collect();
    if let Some(id) = f.node {
        nodes.push(id);
        for a in tree.ancestors(id).take_while(|&a| tree.node(a).frame == f.frame) {
            let role = &tree.node(a).role;
            if role.is_control() || matches!(role, Role::Heading | Role::LabelText | Role::Legend | Role::Caption | Role::Cell | Role::GridCell | Role::ColumnHeader | Role::RowHeader | Role::Row | Role::Term) {
                nodes.push(a);
            }
            sources.extend(tree.node(a).backend_id);
        }
    }
    for &(n, target) in &tree.relations {
        if tree.node(n).frame == f.frame && sources.contains(&target) {
            nodes.push(n);
        }
    }
    nodes
}
