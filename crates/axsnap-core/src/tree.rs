//! A flat arena of nodes built once from the CDP lists of every frame: string
//! ids are hashed here and never again; frames are stitched under their
//! `<iframe>` nodes.

use crate::cdp::{AxNode, AxProperty, SnapshotInput};
use crate::role::Role;
use crate::secrets::SecretReason;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

pub type NodeId = u32;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tri {
    True,
    False,
    Mixed,
}

/// The states and properties worth reading, parsed once.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Props {
    pub focusable: bool,
    pub focused: bool,
    pub editable: bool,
    pub settable: bool,
    pub disabled: bool,
    pub required: bool,
    pub readonly: bool,
    pub invalid: bool,
    pub modal: bool,
    pub multiselectable: bool,
    pub checked: Option<Tri>,
    pub pressed: Option<Tri>,
    pub selected: Option<bool>,
    pub expanded: Option<bool>,
    pub level: Option<u32>,
    pub url: Option<String>,
    pub value_min: Option<String>,
    pub value_max: Option<String>,
    pub value_text: Option<String>,
    pub autocomplete: Option<String>,
    /// `cursor: pointer` set on the element itself (a DOM fact, not the tree's).
    pub pointer: bool,
    /// The element listens for clicks (a DOM fact, not the tree's).
    pub listener: bool,
    /// The element takes HTML5 drops (a DOM fact, not the tree's).
    pub drop: bool,
    /// `aria-rowcount` / `aria-setsize` (a DOM fact, not the tree's).
    pub set_count: Option<u64>,
    /// `aria-rowindex` / `aria-posinset` (a DOM fact, not the tree's).
    pub set_index: Option<u64>,
    /// What an element that scrolls holds (a DOM fact, not the tree's).
    pub scroll: Option<crate::cdp::Scroll>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub role: Role,
    pub name: String,
    /// Where Chrome took the name from: the content, or a label of its own.
    pub name_from: crate::cdp::NameSource,
    pub value: Option<String>,
    pub description: Option<String>,
    pub props: Props,
    pub ignored: bool,
    pub backend_id: Option<i64>,
    /// Set by `secrets::redact`: a field whose content is never shown.
    pub secret: Option<SecretReason>,
    /// Index into `Tree::frames`.
    pub frame: u32,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub key: String,
    pub root: Option<NodeId>,
    /// The document URL, from the root's `url` property.
    pub url: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tree {
    pub nodes: Vec<Node>,
    pub frames: Vec<Frame>,
    /// The main frame's root: where the walk starts.
    pub root: Option<NodeId>,
    /// `(node, backendDOMNodeId)`: the nodes (labels, `aria-labelledby`,
    /// `aria-describedby` targets) Chrome composed this node's name or
    /// description from, as Chrome reports them.
    pub relations: Vec<(NodeId, i64)>,
}

impl Tree {
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn frame_key(&self, id: NodeId) -> &str {
        &self.frames[self.node(id).frame as usize].key
    }

    pub fn frame_url(&self, id: NodeId) -> Option<&str> {
        self.frames[self.node(id).frame as usize].url.as_deref()
    }

    /// Finds a node by `(frame key, backendDOMNodeId)`.
    pub fn find(&self, frame: &str, backend_id: i64) -> Option<NodeId> {
        self.nodes
            .iter()
            .position(|n| n.backend_id == Some(backend_id) && self.frames[n.frame as usize].key == frame)
            .map(|i| i as NodeId)
    }

    /// A modal dialog is open: Chrome then leaves the page behind it out of
    /// the tree (it is inert), though it is still there.
    pub fn modal_shown(&self) -> bool {
        self.nodes.iter().any(|n| !n.ignored && n.props.modal && matches!(n.role, Role::Dialog | Role::AlertDialog))
    }

    pub fn build(input: &SnapshotInput) -> Tree {
        let mut tree = Tree::default();
        // Per frame: CDP node id → arena index.
        let mut index_maps: Vec<IdMap<&str, NodeId>> = Vec::new();
        let mut bases: Vec<NodeId> = Vec::new();
        // Per node: the node its id names (the first with that id), so ids are hashed once here.
        let mut named: Vec<NodeId> = Vec::new();
        for (fi, frame) in input.frames.iter().enumerate() {
            let mut map = IdMap::with_capacity_and_hasher(frame.nodes.len(), Default::default());
            let base = tree.nodes.len() as NodeId;
            bases.push(base);
            let clicks: HashMap<i64, &crate::cdp::ClickFact> =
                frame.clickables.iter().map(|c| (c.backend_node_id, c)).collect();
            let positions: HashMap<i64, &crate::cdp::PositionFact> =
                frame.positions.iter().map(|p| (p.backend_node_id, p)).collect();
            for (i, raw) in frame.nodes.iter().enumerate() {
                // A repeated id keeps its first node; later copies stay unreachable.
                named.push(*map.entry(raw.node_id.as_str()).or_insert(base + i as NodeId));
                let mut node = convert(raw, fi as u32);
                if let Some(c) = raw.backend_dom_node_id.and_then(|b| clicks.get(&b)) {
                    node.props.pointer = c.pointer;
                    node.props.listener = c.listener;
                    node.props.drop = c.drop;
                }
                if let Some(p) = raw.backend_dom_node_id.and_then(|b| positions.get(&b)) {
                    node.props.set_count = p.count;
                    node.props.set_index = p.index;
                    node.props.scroll = p.scroll;
                }
                tree.nodes.push(node);
                for p in raw.properties.iter().filter(|p| matches!(p.name.as_str(), "labelledby" | "describedby")) {
                    let targets = p.value.related_nodes.iter().filter_map(|r| r.backend_dom_node_id);
                    tree.relations.extend(targets.map(|b| (base + i as NodeId, b)));
                }
            }
            index_maps.push(map);
            tree.frames.push(Frame { key: frame.key.clone(), root: None, url: None });
        }
        // Children from `childIds`; parents from the first claim only, so a
        // malformed list cannot make a node two places at once or a cycle.
        let mut claimed = vec![false; tree.nodes.len()];
        for (fi, frame) in input.frames.iter().enumerate() {
            let base = bases[fi];
            let map = &index_maps[fi];
            for (i, raw) in frame.nodes.iter().enumerate() {
                let me = base + i as NodeId;
                if named[me as usize] != me {
                    continue;
                }
                let mut kids = Vec::with_capacity(raw.child_ids.len());
                for cid in &raw.child_ids {
                    if let Some(&c) = map.get(cid.as_str()) {
                        if c != me && !claimed[c as usize] {
                            claimed[c as usize] = true;
                            kids.push(c);
                        }
                    }
                }
                for &c in &kids {
                    tree.nodes[c as usize].parent = Some(me);
                }
                tree.nodes[me as usize].children = kids;
            }
        }
        // Roots: a frame's first unclaimed node, preferring a web-area role.
        for (fi, frame) in input.frames.iter().enumerate() {
            let frame_named = &named[bases[fi] as usize..][..frame.nodes.len()];
            let candidates: Vec<NodeId> = frame_named.iter().copied().filter(|&id| !claimed[id as usize]).collect();
            let mut root = candidates
                .iter()
                .copied()
                .find(|&id| tree.nodes[id as usize].role.is_root())
                .or_else(|| candidates.first().copied());
            if root.is_none() {
                // Every node is someone's child: a cycle. Break it at the
                // frame's first node.
                if let Some(&first) = frame_named.first() {
                    if let Some(p) = tree.nodes[first as usize].parent.take() {
                        tree.nodes[p as usize].children.retain(|&c| c != first);
                    }
                    root = Some(first);
                }
            }
            if let Some(r) = root {
                // Orphans (parent missing from the list) hang under the root so
                // their actionable nodes still get refs.
                for &orphan in candidates.iter().filter(|&&c| c != r) {
                    if !tree.is_ancestor_or_self(orphan, r) {
                        tree.nodes[orphan as usize].parent = Some(r);
                        tree.nodes[r as usize].children.push(orphan);
                    }
                }
                tree.frames[fi].url = tree.nodes[r as usize].props.url.clone();
            }
            tree.frames[fi].root = root;
        }
        tree.stitch(input);
        tree.respace_names();
        tree
    }

    /// Names rebuilt from their text boxes with the spaces Chrome left out
    /// (see `spaced_name`), so every printer and every rule reads the same.
    fn respace_names(&mut self) {
        for id in 0..self.nodes.len() as NodeId {
            if let Some(name) = spaced_name(self, id) {
                self.nodes[id as usize].name = name;
            }
        }
    }

    /// Hangs each child frame's root under its owner `<iframe>` node (or,
    /// if that is unknown, at the end of its parent frame's root).
    fn stitch(&mut self, input: &SnapshotInput) {
        let mut main = None;
        for (fi, frame) in input.frames.iter().enumerate() {
            let Some(root) = self.frames[fi].root else { continue };
            let parent_frame = frame
                .parent
                .as_deref()
                .and_then(|p| self.frames.iter().position(|f| f.key == p))
                .filter(|&p| p != fi);
            let Some(pf) = parent_frame else {
                if main.is_none() {
                    main = Some(root);
                } else if let Some(m) = main {
                    self.adopt(m, root);
                }
                continue;
            };
            let pkey = self.frames[pf].key.clone();
            let host = frame
                .owner
                .and_then(|b| self.find(&pkey, b))
                .filter(|&h| !self.is_ancestor_or_self(root, h));
            let host = host.or(self.frames[pf].root);
            match host {
                Some(h) if !self.is_ancestor_or_self(root, h) => self.adopt(h, root),
                _ => {}
            }
        }
        self.root = main.or_else(|| self.frames.first().and_then(|f| f.root));
    }

    fn adopt(&mut self, parent: NodeId, child: NodeId) {
        if self.nodes[child as usize].parent.is_some() {
            return;
        }
        self.nodes[child as usize].parent = Some(parent);
        self.nodes[parent as usize].children.push(child);
    }

    fn is_ancestor_or_self(&self, ancestor: NodeId, node: NodeId) -> bool {
        std::iter::once(node).chain(self.ancestors(node)).any(|n| n == ancestor)
    }

    /// Parent, grandparent, … up to the root. Bounded by the node count, so
    /// a malformed parent chain cannot loop forever.
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        std::iter::successors(self.node(id).parent, |&p| self.node(p).parent).take(self.nodes.len())
    }

    /// The nodes below `id` in document order (pre-order, `id` excluded).
    pub fn descendants(&self, id: NodeId) -> impl Iterator<Item = NodeId> + '_ {
        let mut stack: Vec<NodeId> = self.node(id).children.iter().rev().copied().collect();
        std::iter::from_fn(move || {
            let d = stack.pop()?;
            stack.extend(self.node(d).children.iter().rev().copied());
            Some(d)
        })
        .take(self.nodes.len() + 1)
    }
}

fn convert(raw: &AxNode, frame: u32) -> Node {
    fn text(v: &Option<crate::cdp::AxValue>) -> Option<&str> {
        v.as_ref()?.text()
    }
    Node {
        role: text(&raw.role).map(Role::parse).unwrap_or(Role::None),
        name: text(&raw.name).unwrap_or_default().to_string(),
        name_from: raw.name.as_ref().map(|v| v.sources).unwrap_or_default(),
        value: text(&raw.value).map(str::to_string),
        description: text(&raw.description).filter(|d| !d.trim().is_empty()).map(str::to_string),
        props: parse_props(&raw.properties),
        ignored: raw.ignored,
        backend_id: raw.backend_dom_node_id,
        secret: None,
        frame,
        parent: None,
        children: Vec::new(),
    }
}

fn parse_props(list: &[AxProperty]) -> Props {
    let mut p = Props::default();
    for prop in list {
        let v = &prop.value;
        let text = || v.text();
        let truthy = || matches!(v.text(), Some("true"));
        let owned = || v.as_text();
        match prop.name.as_str() {
            "focusable" => p.focusable = truthy(),
            "focused" => p.focused = truthy(),
            "editable" => p.editable = text().is_some_and(|t| !t.is_empty() && t != "false"),
            "settable" => p.settable = truthy(),
            "disabled" => p.disabled = truthy(),
            "required" => p.required = truthy(),
            "readonly" => p.readonly = truthy(),
            "invalid" => p.invalid = text().is_some_and(|t| t != "false" && !t.is_empty()),
            "modal" => p.modal = truthy(),
            "multiselectable" => p.multiselectable = truthy(),
            "checked" => p.checked = tri(text()),
            "pressed" => p.pressed = tri(text()),
            "selected" => p.selected = text().map(|t| t == "true"),
            "expanded" => p.expanded = text().map(|t| t == "true"),
            "level" => p.level = text().and_then(|t| t.split('.').next()?.parse::<u32>().ok()),
            "url" => p.url = owned().filter(|u| !u.is_empty()),
            "valuemin" => p.value_min = owned(),
            "valuemax" => p.value_max = owned(),
            "valuetext" => p.value_text = owned().filter(|t| !t.is_empty()),
            "autocomplete" => p.autocomplete = owned(),
            _ => {}
        }
    }
    p
}

fn tri(t: Option<&str>) -> Option<Tri> {
    match t? {
        "true" => Some(Tri::True),
        "false" => Some(Tri::False),
        "mixed" => Some(Tri::Mixed),
        _ => None,
    }
}

/// Chrome joins a name from its content's text boxes without spaces, so a
/// table-of-contents link reads "1.11972–1985: Founding" and an icon link
/// "XDismiss". When the name is exactly those boxes, they are joined again
/// with a space where a new word starts: after a section number, or before
/// a capitalised word. Any other name is Chrome's, unchanged.
fn spaced_name(tree: &Tree, id: NodeId) -> Option<String> {
    let node = tree.node(id);
    if node.name.is_empty() || node.children.is_empty() || node.role == Role::StaticText {
        return None;
    }
    // The boxes must spell the name exactly, checked as they come so that a
    // container whose text is not its name stops at its first box.
    let mut parts: Vec<&str> = Vec::new();
    let mut rest = node.name.as_str();
    for (seen, d) in tree.descendants(id).enumerate() {
        if seen == 64 {
            return None;
        }
        let n = tree.node(d);
        if n.role == Role::StaticText && !n.ignored {
            rest = rest.strip_prefix(n.name.as_str())?;
            parts.push(&n.name);
        }
    }
    if parts.len() < 2 || !rest.is_empty() || !parts.windows(2).any(|w| starts_word(w[0], w[1])) {
        return None;
    }
    let mut out = String::with_capacity(node.name.len() + 4);
    for (i, part) in parts.iter().enumerate() {
        if i > 0 && starts_word(parts[i - 1], part) {
            out.push(' ');
        }
        out.push_str(part);
    }
    Some(out)
}

fn starts_word(before: &str, part: &str) -> bool {
    let (Some(last), Some(first)) = (before.chars().last(), part.chars().next()) else { return false };
    if !last.is_alphanumeric() || !first.is_alphanumeric() {
        return false;
    }
    // `before` ends in a letter or digit, so a section number here is "1.2", never "1.2.".
    let section_number = before.trim().split('.').all(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit()));
    section_number || starts_capitalised(part)
}

/// "Credit", "Dismiss": an ASCII capital then a lowercase letter.
pub(crate) fn starts_capitalised(s: &str) -> bool {
    let mut start = s.chars();
    start.next().is_some_and(|c| c.is_ascii_uppercase()) && start.next().is_some_and(|c| c.is_ascii_lowercase())
}

/// A map keyed by ids Chrome generates (node ids, frame ids), never by page
/// text: a fast multiply-rotate hash is safe there, and the default SipHash
/// was a tenth of the time on the largest corpus page.
pub(crate) type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

#[derive(Default, Clone, Copy)]
pub(crate) struct IdHasher(u64);

impl IdHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x517c_c1b7_2722_0a95);
    }
}

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.add(u64::from_le_bytes(word));
        }
    }
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }
    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }
    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}
