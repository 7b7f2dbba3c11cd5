//! A flat arena of nodes built once from the CDP lists of every frame: string
//! ids are hashed here and never again; frames are stitched under their
//! `<iframe>` nodes.

use crate::cdp::{AxNode, AxValue, FrameInput, NameSource, SnapshotInput};
use crate::packed::{PackedNodes, Scalar};
use crate::role::Role;
use crate::secrets::SecretReason;
use std::borrow::Cow;
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
    /// The area of the box of an element with a click fact, 0 when not known (a DOM fact).
    pub area: f64,
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
        let count: usize = input.frames.iter().map(|f| f.packed.as_ref().map_or(f.nodes.len(), PackedNodes::len)).sum();
        tree.nodes.reserve_exact(count);
        // Per node: the node its id names (the first with that id), so ids are hashed once here.
        let mut named: Vec<NodeId> = Vec::with_capacity(count);
        // Per frame: its first node and how many it has.
        let mut spans: Vec<(usize, usize)> = Vec::new();
        for (fi, frame) in input.frames.iter().enumerate() {
            let base = tree.nodes.len();
            let facts = Facts::of(frame);
            let mut links = Links::with_capacity(frame.packed.as_ref().map_or(frame.nodes.len(), PackedNodes::len));
            match &frame.packed {
                Some(nodes) => tree.add_packed(nodes, fi as u32, &facts, &mut links),
                None => tree.add_nodes(&frame.nodes, fi as u32, &facts, &mut links),
            }
            links.resolve(base as NodeId, &mut tree.nodes, &mut named);
            spans.push((base, tree.nodes.len() - base));
            tree.frames.push(Frame { key: frame.key.clone(), root: None, url: None });
        }
        // Children from `childIds`; parents from the first claim only, so a
        // malformed list cannot make a node two places at once or a cycle.
        let mut claimed = vec![false; tree.nodes.len()];
        for me in 0..tree.nodes.len() {
            let mut kids = std::mem::take(&mut tree.nodes[me].children);
            kids.retain(|&c| c as usize != me && !std::mem::replace(&mut claimed[c as usize], true));
            for &c in &kids {
                tree.nodes[c as usize].parent = Some(me as NodeId);
            }
            tree.nodes[me].children = kids;
        }
        // Roots: a frame's first unclaimed node, preferring a web-area role.
        for (fi, &(base, count)) in spans.iter().enumerate() {
            let frame_named = &named[base..][..count];
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

    /// Adds a frame's nodes as serde read them.
    fn add_nodes<'a>(&mut self, nodes: &'a [AxNode], frame: u32, facts: &Facts, links: &mut Links<'a>) {
        fn text(v: &Option<AxValue>) -> Option<&str> {
            v.as_ref()?.text()
        }
        for raw in nodes {
            let me = self.nodes.len() as NodeId;
            let mut props = Props::default();
            for p in &raw.properties {
                let prop = Prop::parse(&p.name);
                props.read(prop, p.value.text());
                if prop.relates() {
                    self.relations.extend(p.value.related_nodes.iter().filter_map(|r| Some((me, r.backend_dom_node_id?))));
                }
            }
            let fields = Fields {
                role: text(&raw.role).map(Role::parse).unwrap_or(Role::None),
                name: raw.name.as_ref().map(|v| (v.text(), v.sources)),
                value: text(&raw.value).map(str::to_string),
                description: text(&raw.description),
                ignored: raw.ignored,
                backend_id: raw.backend_dom_node_id,
            };
            self.nodes.push(fields.node(props, frame, facts));
            links.add(&raw.node_id, raw.child_ids.iter().map(String::as_str));
        }
    }

    /// Adds a frame's nodes as a JS caller packed them. Roles and
    /// properties' names are words, each parsed once.
    fn add_packed<'a>(&mut self, nodes: &'a PackedNodes, frame: u32, facts: &Facts, links: &mut Links<'a>) {
        let mut roles: Vec<Option<Role>> = vec![None; nodes.packed().words()];
        let mut kinds: Vec<Option<Prop>> = vec![None; nodes.packed().words()];
        for raw in nodes.iter() {
            let me = self.nodes.len() as NodeId;
            let mut props = Props::default();
            for (word, name, value) in raw.properties() {
                let prop = *kinds[word].get_or_insert_with(|| Prop::parse(name));
                props.read(prop, value.text().as_deref());
                if prop.relates() {
                    self.relations.extend(value.related().filter_map(|b| Some((me, b?))));
                }
            }
            let role = match raw.role.as_ref().map(|r| &r.scalar) {
                Some(Scalar::Text(s, word)) => roles[*word].get_or_insert_with(|| Role::parse(s)).clone(),
                _ => raw.role.as_ref().and_then(|r| r.text()).map_or(Role::None, |t| Role::parse(&t)),
            };
            let fields = Fields {
                role,
                name: raw.name.as_ref().map(|v| (v.text(), v.sources)),
                value: raw.value.as_ref().and_then(|v| v.text()).map(Cow::into_owned),
                description: raw.description.as_ref().and_then(|v| v.text()),
                ignored: raw.ignored,
                backend_id: raw.backend_id,
            };
            self.nodes.push(fields.node(props, frame, facts));
            links.add(raw.id, raw.children());
        }
    }

    /// Names rebuilt from their text boxes with the spaces Chrome left out
    /// (see `spaced_name`), so every printer and every rule reads the same.
    fn respace_names(&mut self) {
        let mut stack = Vec::new();
        for id in 0..self.nodes.len() as NodeId {
            if let Some(name) = spaced_name(self, id, &mut stack) {
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

/// A node's fields as the tree reads them, from either form of the input.
struct Fields<T: AsRef<str>> {
    role: Role,
    name: Option<(Option<T>, NameSource)>,
    value: Option<String>,
    description: Option<T>,
    ignored: bool,
    backend_id: Option<i64>,
}

impl<T: AsRef<str>> Fields<T> {
    fn node(self, mut props: Props, frame: u32, facts: &Facts) -> Node {
        facts.apply(self.backend_id, &mut props);
        let (name, name_from) = self.name.unwrap_or((None, NameSource::Unknown));
        Node {
            role: self.role,
            name: name.as_ref().map_or("", AsRef::as_ref).to_string(),
            name_from,
            value: self.value,
            description: self.description.as_ref().map(AsRef::as_ref).filter(|d| !d.trim().is_empty()).map(str::to_string),
            props,
            ignored: self.ignored,
            backend_id: self.backend_id,
            secret: None,
            frame,
            parent: None,
            children: Vec::new(),
        }
    }
}

/// A frame's ids and child ids as read, resolved to nodes once all are read.
struct Links<'a> {
    ids: Vec<&'a str>,
    kids: Vec<&'a str>,
    /// Per node: where its child ids end in `kids`.
    ends: Vec<usize>,
}

impl<'a> Links<'a> {
    fn with_capacity(nodes: usize) -> Self {
        Links { ids: Vec::with_capacity(nodes), kids: Vec::with_capacity(nodes), ends: Vec::with_capacity(nodes) }
    }

    fn add(&mut self, id: &'a str, kids: impl Iterator<Item = &'a str>) {
        self.ids.push(id);
        self.kids.extend(kids);
        self.ends.push(self.kids.len());
    }

    /// Gives each of the frame's nodes (from `base` on) the nodes its child
    /// ids name, and adds to `named` the node each one's id names: a
    /// repeated id keeps its first node; later copies stay unreachable.
    /// Chrome's ids are numbers written out, hashed as numbers.
    fn resolve(self, base: NodeId, nodes: &mut [Node], named: &mut Vec<NodeId>) {
        match self.ids.iter().map(|id| number(id)).collect::<Option<Vec<i64>>>() {
            Some(keys) => self.link(keys, number, base, nodes, named),
            None => self.link(self.ids.clone(), Some, base, nodes, named),
        }
    }

    fn link<K: std::hash::Hash + Eq>(
        &self,
        keys: Vec<K>,
        key: impl Fn(&'a str) -> Option<K>,
        base: NodeId,
        nodes: &mut [Node],
        named: &mut Vec<NodeId>,
    ) {
        let mut map: IdMap<K, NodeId> = IdMap::with_capacity_and_hasher(keys.len(), Default::default());
        let first = named.len();
        for (i, k) in keys.into_iter().enumerate() {
            named.push(*map.entry(k).or_insert(base + i as NodeId));
        }
        let mut start = 0;
        for (i, &end) in self.ends.iter().enumerate() {
            let me = base + i as NodeId;
            if named[first + i] == me {
                nodes[me as usize].children = self.kids[start..end].iter().filter_map(|&k| map.get(&key(k)?).copied()).collect();
            }
            start = end;
        }
    }
}

/// A decimal integer as written without a sign of plus, leading zeros or
/// `-0`, as its value: two such texts are the same text if and only if
/// their values are the same.
fn number(s: &str) -> Option<i64> {
    let (negative, digits) = match s.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        all => (false, all),
    };
    match digits {
        [] | [b'0', _, ..] => return None,
        [b'0'] if negative => return None,
        _ if digits.len() > 18 => return None,
        _ => {}
    }
    let mut v: i64 = 0;
    for &c in digits {
        if !c.is_ascii_digit() {
            return None;
        }
        v = v * 10 + i64::from(c - b'0');
    }
    Some(if negative { -v } else { v })
}

/// What the extension read from a frame's DOM, by backend id.
struct Facts<'a> {
    clicks: IdMap<i64, &'a crate::cdp::ClickFact>,
    positions: IdMap<i64, &'a crate::cdp::PositionFact>,
}

impl<'a> Facts<'a> {
    fn of(frame: &'a FrameInput) -> Facts<'a> {
        Facts {
            clicks: frame.clickables.iter().map(|c| (c.backend_node_id, c)).collect(),
            positions: frame.positions.iter().map(|p| (p.backend_node_id, p)).collect(),
        }
    }

    fn apply(&self, backend_id: Option<i64>, props: &mut Props) {
        let Some(b) = backend_id else { return };
        if let Some(c) = self.clicks.get(&b) {
            props.pointer = c.pointer;
            props.listener = c.listener;
            props.drop = c.drop;
            props.area = c.area;
        }
        if let Some(p) = self.positions.get(&b) {
            props.set_count = p.count;
            props.set_index = p.index;
            props.scroll = p.scroll;
        }
    }
}

/// The properties the tree reads, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Prop {
    Focusable,
    Focused,
    Editable,
    Settable,
    Disabled,
    Required,
    Readonly,
    Invalid,
    Modal,
    Multiselectable,
    Checked,
    Pressed,
    Selected,
    Expanded,
    Level,
    Url,
    ValueMin,
    ValueMax,
    ValueText,
    Autocomplete,
    /// `labelledby`, `describedby`: the nodes a name or description is composed from.
    Relation,
    Other,
}

impl Prop {
    fn parse(name: &str) -> Prop {
        match name {
            "focusable" => Prop::Focusable,
            "focused" => Prop::Focused,
            "editable" => Prop::Editable,
            "settable" => Prop::Settable,
            "disabled" => Prop::Disabled,
            "required" => Prop::Required,
            "readonly" => Prop::Readonly,
            "invalid" => Prop::Invalid,
            "modal" => Prop::Modal,
            "multiselectable" => Prop::Multiselectable,
            "checked" => Prop::Checked,
            "pressed" => Prop::Pressed,
            "selected" => Prop::Selected,
            "expanded" => Prop::Expanded,
            "level" => Prop::Level,
            "url" => Prop::Url,
            "valuemin" => Prop::ValueMin,
            "valuemax" => Prop::ValueMax,
            "valuetext" => Prop::ValueText,
            "autocomplete" => Prop::Autocomplete,
            "labelledby" | "describedby" => Prop::Relation,
            _ => Prop::Other,
        }
    }

    fn relates(self) -> bool {
        self == Prop::Relation
    }
}

impl Props {
    /// Reads one property's value.
    fn read(&mut self, prop: Prop, text: Option<&str>) {
        let truthy = text == Some("true");
        let owned = || text.map(str::to_string);
        match prop {
            Prop::Focusable => self.focusable = truthy,
            Prop::Focused => self.focused = truthy,
            Prop::Editable => self.editable = text.is_some_and(|t| !t.is_empty() && t != "false"),
            Prop::Settable => self.settable = truthy,
            Prop::Disabled => self.disabled = truthy,
            Prop::Required => self.required = truthy,
            Prop::Readonly => self.readonly = truthy,
            Prop::Invalid => self.invalid = text.is_some_and(|t| t != "false" && !t.is_empty()),
            Prop::Modal => self.modal = truthy,
            Prop::Multiselectable => self.multiselectable = truthy,
            Prop::Checked => self.checked = tri(text),
            Prop::Pressed => self.pressed = tri(text),
            Prop::Selected => self.selected = text.map(|t| t == "true"),
            Prop::Expanded => self.expanded = text.map(|t| t == "true"),
            Prop::Level => self.level = text.and_then(|t| t.split('.').next()?.parse::<u32>().ok()),
            Prop::Url => self.url = owned().filter(|u| !u.is_empty()),
            Prop::ValueMin => self.value_min = owned(),
            Prop::ValueMax => self.value_max = owned(),
            Prop::ValueText => self.value_text = owned().filter(|t| !t.is_empty()),
            Prop::Autocomplete => self.autocomplete = owned(),
            Prop::Relation | Prop::Other => {}
        }
    }
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
/// `stack` is room for the walk, kept from one node to the next.
fn spaced_name(tree: &Tree, id: NodeId, stack: &mut Vec<NodeId>) -> Option<String> {
    let node = tree.node(id);
    if node.name.is_empty() || node.children.is_empty() || node.role == Role::StaticText {
        return None;
    }
    // The boxes must spell the name exactly, checked as they come so that a
    // container whose text is not its name stops at its first box. The walk
    // is `descendants`' (as many nodes as the tree holds at the most).
    let mut parts: Vec<&str> = Vec::new();
    let mut rest = node.name.as_str();
    stack.clear();
    stack.extend(node.children.iter().rev());
    let mut seen = 0;
    while let Some(d) = stack.pop() {
        if seen == tree.nodes.len() + 1 {
            break;
        }
        if seen == 64 {
            return None;
        }
        seen += 1;
        let n = tree.node(d);
        if n.role == Role::StaticText && !n.ignored {
            rest = rest.strip_prefix(n.name.as_str())?;
            // A first box that says the whole name leaves no word to start:
            // any box after it is empty or no part of the name.
            if parts.is_empty() && rest.is_empty() {
                return None;
            }
            parts.push(&n.name);
        }
        stack.extend(n.children.iter().rev());
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
        // A product's low bits depend on its factors' low bits only, and the
        // table picks a bucket by the low bits: without this, ids differing
        // only in their middle bytes (`-1000000002`, `-1000000107`) shared
        // buckets, and finding one compared it with dozens.
        self.0 = self.0.rotate_left(26);
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
