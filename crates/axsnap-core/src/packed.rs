//! The packed form of the nodes of a [`SnapshotInput`]: how a JS caller hands
//! the CDP objects over in a few buffers instead of one crossing per
//! property. Reading CDP objects property by property through
//! serde-wasm-bindgen was two thirds of a snapshot's time in Wasm. The tree
//! is built from the packed nodes in place ([`crate::tree::Tree::build`]),
//! with no [`AxNode`](crate::cdp::AxNode) in between, and reads from them
//! exactly what it would read from the nodes serde reads from the same
//! objects. The packer (`crates/axsnap-wasm/src/pack.js`) packs only inputs
//! of the shape Chrome sends and leaves anything else, malformed input
//! included, to serde, which keeps its errors.
//!
//! A packed input is two tables of strings, each its UTF-8 text and the
//! offset where each string ends: texts (ids, names: most are of one node)
//! and words (roles, properties' names and values: each once), and a list
//! of integer codes, where a string is its index in its table. The codes:
//! the number of node lists (one per frame); each list is its node count,
//! then per node:
//!
//! - `nodeId` (a text; absent is empty);
//! - a head: bit 0 `ignored`, bit 1 `backendDOMNodeId` follows (a number),
//!   bit 2 `frameId` follows (a word); then those, in that order;
//! - `role` (its text a word), `name`, `description`, `value` (texts): each
//!   an AXValue (below), whose tag is 0 when it is absent;
//! - the number of `properties`, then per property its `name` (a word) and
//!   its value (its text a word);
//! - the number of `childIds`, then the ids (texts).
//!
//! An AXValue is a tag then its fields. The tag's two low bits are the
//! scalar: 1 none, 2 text follows, 3 a number follows (its index in a list
//! of numbers, so that no text is parsed into a float); the next two say
//! what `sources` name as the name's source: 1 the content, 2 something of
//! the node's own; the bits above are the number of `relatedNodes`, whose
//! backend ids follow (-1 for none).
//!
//! An input is read through once when it arrives ([`input`]): one that does
//! not decode is refused there, and the tree then reads it without checks.

use crate::cdp::{FrameInput, NameSource, SnapshotInput};
use std::borrow::Cow;
use std::sync::Arc;

/// Strings as one UTF-8 text and the offset where each ends.
#[derive(Debug, Default, PartialEq)]
struct Table {
    text: String,
    ends: Vec<u32>,
}

impl Table {
    /// `None` unless every string is UTF-8 on its own: each then reads
    /// by its index alone.
    fn new(bytes: Vec<u8>, ends: Vec<u32>) -> Option<Table> {
        let text = String::from_utf8(bytes).ok()?;
        let mut start = 0;
        for &end in &ends {
            let end = end as usize;
            if end < start || !text.is_char_boundary(end) {
                return None;
            }
            start = end;
        }
        Some(Table { text, ends })
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    fn get(&self, i: usize) -> Option<&str> {
        let end = *self.ends.get(i)? as usize;
        let start = if i == 0 { 0 } else { self.ends[i - 1] as usize };
        self.text.get(start..end)
    }
}

/// A packed input's buffers, shared by its frames.
#[derive(Debug, Default, PartialEq)]
pub struct Packed {
    texts: Table,
    words: Table,
    codes: Vec<i32>,
    numbers: Vec<f64>,
}

impl Packed {
    /// The number of words: the size of a cache of what each says.
    pub fn words(&self) -> usize {
        self.words.len()
    }
}

/// One frame's nodes, packed: where they start in the codes, and how many.
#[derive(Debug, Clone, PartialEq)]
pub struct PackedNodes {
    packed: Arc<Packed>,
    start: usize,
    count: usize,
}

impl PackedNodes {
    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn packed(&self) -> &Packed {
        &self.packed
    }

    /// The nodes in order. Checked when the input arrived: they all decode.
    pub fn iter(&self) -> impl Iterator<Item = Node<'_>> {
        let mut r = Reader { packed: &self.packed, codes: self.packed.codes[self.start..].iter() };
        (0..self.count).map_while(move |_| r.node())
    }
}

/// A packed input: with `frames` (each frame's other fields, read by
/// serde), one node list per frame; without, the `{nodes}` of one tree.
/// `None` if it does not decode.
pub fn input(
    texts: (Vec<u8>, Vec<u32>),
    words: (Vec<u8>, Vec<u32>),
    codes: Vec<i32>,
    numbers: Vec<f64>,
    frames: Option<Vec<FrameInput>>,
) -> Option<SnapshotInput> {
    let packed = Arc::new(Packed { texts: Table::new(texts.0, texts.1)?, words: Table::new(words.0, words.1)?, codes, numbers });
    // Where each list starts, and the first node's frame id (the key of a single tree).
    let mut lists = Vec::new();
    let mut first_frame = None;
    let mut r = Reader { packed: &packed, codes: packed.codes.iter() };
    for _ in 0..r.count()? {
        let count = r.count()?;
        let start = packed.codes.len() - r.codes.len();
        for i in 0..count {
            let node = r.node()?;
            if lists.is_empty() && i == 0 {
                first_frame = node.frame_id;
            }
        }
        lists.push((start, count));
    }
    if r.codes.next().is_some() {
        return None;
    }
    let first_frame = first_frame.map(str::to_string);
    let frames = match frames {
        Some(frames) if frames.len() == lists.len() => frames,
        Some(_) => return None,
        None if lists.len() == 1 => vec![FrameInput { key: first_frame.unwrap_or_else(|| "main".to_string()), ..FrameInput::default() }],
        None => return None,
    };
    let frames = frames
        .into_iter()
        .zip(lists)
        .map(|(frame, (start, count))| FrameInput { nodes: Vec::new(), packed: Some(PackedNodes { packed: packed.clone(), start, count }), ..frame })
        .collect();
    Some(SnapshotInput { frames })
}

/// The packed form of an input serde read, as the JS packer writes it: for
/// checking that both forms build the same tree. `None` where the packer
/// would leave the input to serde (a backend id beyond 31 bits).
pub fn pack(input: &SnapshotInput) -> Option<SnapshotInput> {
    let mut w = Writer::default();
    w.codes.push(input.frames.len() as i32);
    for frame in &input.frames {
        w.codes.push(frame.nodes.len() as i32);
        for node in &frame.nodes {
            w.node(node)?;
        }
    }
    let frames = input.frames.iter().map(|f| FrameInput { nodes: Vec::new(), packed: None, ..f.clone() }).collect();
    self::input(w.texts.done(), w.words.done(), w.codes, w.numbers, Some(frames))
}

#[derive(Default)]
struct Writer {
    texts: (String, Vec<u32>),
    words: (String, Vec<u32>),
    index: std::collections::HashMap<String, usize>,
    codes: Vec<i32>,
    numbers: Vec<f64>,
}

trait Strings {
    fn add(&mut self, s: &str) -> usize;
    fn done(self) -> (Vec<u8>, Vec<u32>);
}

impl Strings for (String, Vec<u32>) {
    fn add(&mut self, s: &str) -> usize {
        self.0.push_str(s);
        self.1.push(self.0.len() as u32);
        self.1.len() - 1
    }

    fn done(self) -> (Vec<u8>, Vec<u32>) {
        (self.0.into_bytes(), self.1)
    }
}

impl Writer {
    fn text(&mut self, s: &str) {
        let i = self.texts.add(s);
        self.codes.push(i as i32);
    }

    fn word(&mut self, s: &str) {
        let i = match self.index.get(s) {
            Some(&i) => i,
            None => {
                let i = self.words.add(s);
                self.index.insert(s.to_string(), i);
                i
            }
        };
        self.codes.push(i as i32);
    }

    fn id(v: Option<i64>) -> Option<i32> {
        v.map_or(Some(-1), |b| i32::try_from(b).ok().filter(|&b| b >= 0))
    }

    fn node(&mut self, n: &crate::cdp::AxNode) -> Option<()> {
        self.text(&n.node_id);
        let head = i32::from(n.ignored) | if n.backend_dom_node_id.is_some() { 2 } else { 0 } | if n.frame_id.is_some() { 4 } else { 0 };
        self.codes.push(head);
        if n.backend_dom_node_id.is_some() {
            self.codes.push(Self::id(n.backend_dom_node_id)?);
        }
        if let Some(f) = &n.frame_id {
            self.word(f);
        }
        self.value(n.role.as_ref(), true)?;
        for v in [&n.name, &n.description, &n.value] {
            self.value(v.as_ref(), false)?;
        }
        self.codes.push(n.properties.len() as i32);
        for p in &n.properties {
            self.word(&p.name);
            self.value(Some(&p.value), true)?;
        }
        self.codes.push(n.child_ids.len() as i32);
        for k in &n.child_ids {
            self.text(k);
        }
        Some(())
    }

    /// Numbers reach serde's nodes as text already: they are packed as text.
    fn value(&mut self, v: Option<&crate::cdp::AxValue>, word: bool) -> Option<()> {
        let Some(v) = v else {
            self.codes.push(0);
            return Some(());
        };
        let scalar = match v.value {
            crate::cdp::Scalar::None => 1,
            crate::cdp::Scalar::Text(_) => 2,
        };
        let sources = match v.sources {
            NameSource::Unknown => 0,
            NameSource::Contents => 4,
            NameSource::Own => 8,
        };
        self.codes.push(scalar | sources | (v.related_nodes.len() as i32) << 4);
        match (&v.value, word) {
            (crate::cdp::Scalar::Text(t), true) => self.word(t),
            (crate::cdp::Scalar::Text(t), false) => self.text(t),
            _ => {}
        }
        for r in &v.related_nodes {
            self.codes.push(Self::id(r.backend_dom_node_id)?);
        }
        Some(())
    }
}

/// One packed node, its strings borrowed from the tables.
pub struct Node<'a> {
    pub id: &'a str,
    pub ignored: bool,
    pub backend_id: Option<i64>,
    pub frame_id: Option<&'a str>,
    pub role: Option<Value<'a>>,
    pub name: Option<Value<'a>>,
    pub description: Option<Value<'a>>,
    pub value: Option<Value<'a>>,
    /// The codes of the properties, and how many there are.
    properties: (&'a [i32], usize),
    children: &'a [i32],
    packed: &'a Packed,
}

impl<'a> Node<'a> {
    /// Each property's name (a word: its index and its text) and value.
    pub fn properties(&self) -> impl Iterator<Item = (usize, &'a str, Value<'a>)> + 'a {
        let mut r = Reader { packed: self.packed, codes: self.properties.0.iter() };
        (0..self.properties.1).map_while(move |_| r.property())
    }

    pub fn children(&self) -> impl Iterator<Item = &'a str> + 'a {
        let texts = &self.packed.texts;
        self.children.iter().filter_map(move |&i| texts.get(i as usize))
    }
}

/// A packed AXValue.
pub struct Value<'a> {
    pub scalar: Scalar<'a>,
    pub sources: NameSource,
    related: &'a [i32],
}

pub enum Scalar<'a> {
    None,
    /// A string and its index in its table.
    Text(&'a str, usize),
    Number(f64),
}

impl<'a> Value<'a> {
    /// The value as text, as serde reads it (see [`crate::cdp::Scalar`]).
    pub fn text(&self) -> Option<Cow<'a, str>> {
        match self.scalar {
            Scalar::None => None,
            Scalar::Text(s, _) => Some(Cow::Borrowed(s)),
            Scalar::Number(v) => Some(Cow::Owned(number_text(v))),
        }
    }

    /// The backend ids of the related nodes (`None` for one without).
    pub fn related(&self) -> impl Iterator<Item = Option<i64>> + 'a {
        self.related.iter().map(|&id| (id >= 0).then_some(i64::from(id)))
    }
}

struct Reader<'a> {
    packed: &'a Packed,
    codes: std::slice::Iter<'a, i32>,
}

impl<'a> Reader<'a> {
    fn code(&mut self) -> Option<i32> {
        self.codes.next().copied()
    }

    fn count(&mut self) -> Option<usize> {
        usize::try_from(self.code()?).ok()
    }

    /// The next `n` codes.
    fn take(&mut self, n: usize) -> Option<&'a [i32]> {
        let (taken, rest) = self.codes.as_slice().split_at_checked(n)?;
        self.codes = rest.iter();
        Some(taken)
    }

    fn text(&mut self) -> Option<&'a str> {
        self.packed.texts.get(self.count()?)
    }

    fn word(&mut self) -> Option<(usize, &'a str)> {
        let i = self.count()?;
        Some((i, self.packed.words.get(i)?))
    }

    fn node(&mut self) -> Option<Node<'a>> {
        let id = self.text()?;
        let head = self.code()?;
        let backend_id = if head & 2 != 0 { Some(i64::from(self.code()?)) } else { None };
        let frame_id = if head & 4 != 0 { Some(self.word()?.1) } else { None };
        let role = self.value(true)?;
        let name = self.value(false)?;
        let description = self.value(false)?;
        let value = self.value(false)?;
        let n = self.count()?;
        let start = self.codes.as_slice();
        for _ in 0..n {
            self.property()?;
        }
        let properties = (&start[..start.len() - self.codes.len()], n);
        let n = self.count()?;
        let children = self.take(n)?;
        if !children.iter().all(|&c| usize::try_from(c).is_ok_and(|c| c < self.packed.texts.len())) {
            return None;
        }
        Some(Node { id, ignored: head & 1 != 0, backend_id, frame_id, role, name, description, value, properties, children, packed: self.packed })
    }

    fn property(&mut self) -> Option<(usize, &'a str, Value<'a>)> {
        let (i, name) = self.word()?;
        let value = self.value(true)?.unwrap_or(Value { scalar: Scalar::None, sources: NameSource::Unknown, related: &[] });
        Some((i, name, value))
    }

    /// `Some(None)` for an absent value, `None` if it does not decode.
    /// Its text is a word or a text, as `word` says.
    fn value(&mut self, word: bool) -> Option<Option<Value<'a>>> {
        let tag = self.count()?;
        let scalar = match tag & 3 {
            0 => return Some(None),
            1 => Scalar::None,
            2 if word => {
                let (i, s) = self.word()?;
                Scalar::Text(s, i)
            }
            2 => {
                let i = self.count()?;
                Scalar::Text(self.packed.texts.get(i)?, i)
            }
            _ => Scalar::Number(*self.packed.numbers.get(self.count()?)?),
        };
        let sources = match (tag >> 2) & 3 {
            1 => NameSource::Contents,
            2 => NameSource::Own,
            _ => NameSource::Unknown,
        };
        let related = self.take(tag >> 4)?;
        Some(Some(Value { scalar, sources, related }))
    }
}

/// A JS number as serde-wasm-bindgen hands it to [`crate::cdp::Scalar`]: a
/// safe integer as an integer, anything else as a float.
fn number_text(v: f64) -> String {
    const SAFE: f64 = 9_007_199_254_740_991.0;
    if v.fract() == 0.0 && v.abs() <= SAFE {
        (v as i64).to_string()
    } else {
        v.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A table of `strings`, as the packer writes it.
    fn table(strings: &[&str]) -> (Vec<u8>, Vec<u32>) {
        let mut ends = Vec::new();
        let mut text = String::new();
        for s in strings {
            text.push_str(s);
            ends.push(text.len() as u32);
        }
        (text.into_bytes(), ends)
    }

    fn nodes(input: &SnapshotInput) -> Vec<Node<'_>> {
        input.frames[0].packed.as_ref().unwrap().iter().collect()
    }

    #[test]
    fn decodes_every_field() {
        let texts = table(&["7", "Home", "8", "9", "é\0x"]);
        let words = table(&["F1", "RootWebArea", "url", "https://a.test/"]);
        let codes = vec![
            1, 2, //
            0, 7, 42, 0, 2, 1, 2 | 4, 1, 0, 3, 1, 1, 2, 2, 3, 2, 2, 3, //
            4, 0, 1 | 8 | (2 << 4), -1, 5, 0, 0, 0, 0, 0,
        ];
        let input = input(texts, words, codes, vec![1.0, 0.5], None).unwrap();
        assert_eq!(input.frames[0].key, "F1");
        let [a, b] = &nodes(&input)[..] else { panic!() };
        assert_eq!(a.id, "7");
        assert!(a.ignored);
        assert_eq!(a.backend_id, Some(42));
        assert_eq!(a.frame_id, Some("F1"));
        assert!(matches!(a.role.as_ref().unwrap().scalar, Scalar::Text("RootWebArea", 1)));
        assert_eq!(a.name.as_ref().unwrap().text().as_deref(), Some("Home"));
        assert_eq!(a.name.as_ref().unwrap().sources, NameSource::Contents);
        assert!(a.description.is_none());
        assert_eq!(a.value.as_ref().unwrap().text().as_deref(), Some("0.5"));
        let props: Vec<_> = a.properties().map(|(i, name, v)| (i, name, v.text())).collect();
        assert_eq!(props, [(2, "url", Some(Cow::Borrowed("https://a.test/")))]);
        assert_eq!(a.children().collect::<Vec<_>>(), ["8", "9"]);
        assert_eq!(b.id, "é\0x");
        let role = b.role.as_ref().unwrap();
        assert!(matches!(role.scalar, Scalar::None));
        assert_eq!(role.sources, NameSource::Own);
        assert_eq!(role.related().collect::<Vec<_>>(), [None, Some(5)]);
        assert!(!b.ignored && b.backend_id.is_none() && b.frame_id.is_none());
    }

    #[test]
    fn what_does_not_decode_is_refused() {
        let codes = vec![1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 0];
        let ok = |texts: &[&str], codes: &[i32]| input(table(texts), table(&[]), codes.to_vec(), Vec::new(), None).is_some();
        assert!(ok(&["7"], &codes));
        // A child id past the table, codes cut short or left over, a string not on a character boundary.
        assert!(!ok(&["7"], &[&codes[..10], &[1]].concat()));
        assert!(!ok(&["7"], &codes[..10]));
        assert!(!ok(&["7"], &[&codes[..], &[0]].concat()));
        assert!(input((vec![0xc3, 0xa9], vec![1]), table(&[]), codes.clone(), Vec::new(), None).is_none());
        // Frames and lists must agree in number.
        let two = vec![FrameInput::default(), FrameInput::default()];
        assert!(input(table(&["7"]), table(&[]), codes.clone(), Vec::new(), Some(two)).is_none());
    }

    #[test]
    fn numbers_read_as_serde_reads_them() {
        assert_eq!(number_text(2.0), "2");
        assert_eq!(number_text(-0.0), "0");
        assert_eq!(number_text(0.25), "0.25");
        assert_eq!(number_text(1e21), "1000000000000000000000");
    }
}
