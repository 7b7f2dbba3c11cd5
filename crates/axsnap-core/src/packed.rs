//! The packed form of the nodes of a [`SnapshotInput`]: how a JS caller hands
//! the CDP objects over in two buffers instead of one crossing per property.
//! Reading CDP objects property by property through serde-wasm-bindgen was
//! two thirds of a snapshot's time in Wasm. The types stay those of
//! [`crate::cdp`]; a packed input decodes to exactly the nodes serde would
//! read from the same objects. The packer (`crates/axsnap-wasm/src/pack.js`)
//! packs only inputs of the shape Chrome sends and leaves anything else,
//! malformed input included, to serde, which keeps its errors.
//!
//! A packed input is a table of strings, joined by NUL, and a list of
//! integer codes, where a string is its index in the table. The codes: the
//! number of node lists (one per frame); each list is its node count, then
//! per node:
//!
//! - `nodeId` (a string; absent is empty);
//! - a head: bit 0 `ignored`, bit 1 `backendDOMNodeId` follows (a number),
//!   bit 2 `frameId` follows (a string); then those, in that order;
//! - `role`, `name`, `description`, `value`: each an [`AxValue`] (below),
//!   whose tag is 0 when it is absent;
//! - the number of `properties`, then per property its `name` and its value;
//! - the number of `childIds`, then the ids.
//!
//! An [`AxValue`] is a tag then its fields. The tag's two low bits are the
//! scalar: 1 none, 2 text follows, 3 a number follows (its index in a list
//! of numbers, so that no text is parsed into a float); the
//! next two say what `sources` name as the name's source: 1 the content,
//! 2 something of the node's own; the bits above are the number of
//! `relatedNodes`, whose backend ids follow (-1 for none).
//!
//! The caller gives the number of strings it wrote: a string holding a NUL
//! would add one, and the count then tells (the input is then read the slow
//! way).

use crate::cdp::{AxNode, AxProperty, AxValue, FrameInput, NameSource, RelatedNode, Scalar, SnapshotInput};

/// A packed input: with `frames` (each frame's other fields, read by
/// serde), one node list per frame; without, the `{nodes}` of one tree.
pub fn input(strings: &str, count: usize, codes: &[i32], numbers: &[f64], frames: Option<Vec<FrameInput>>) -> Option<SnapshotInput> {
    let lists = node_lists(strings, count, codes, numbers)?;
    match frames {
        Some(mut frames) => {
            if frames.len() != lists.len() {
                return None;
            }
            for (frame, nodes) in frames.iter_mut().zip(lists) {
                frame.nodes = nodes;
            }
            Some(SnapshotInput { frames })
        }
        None => Some(SnapshotInput::single(lists.into_iter().next()?)),
    }
}

/// The node lists of a packed input, or `None` if it does not decode.
pub fn node_lists(strings: &str, count: usize, codes: &[i32], numbers: &[f64]) -> Option<Vec<Vec<AxNode>>> {
    let table: Vec<&str> = if count == 0 { Vec::new() } else { strings.split('\0').collect() };
    if table.len() != count {
        return None;
    }
    let mut r = Reader { table, codes: codes.iter(), numbers };
    let lists = r.count()?;
    let mut out = Vec::with_capacity(lists.min(1024));
    for _ in 0..lists {
        let n = r.count()?;
        let mut nodes = Vec::with_capacity(n.min(1 << 20));
        for _ in 0..n {
            nodes.push(r.node()?);
        }
        out.push(nodes);
    }
    r.codes.next().is_none().then_some(out)
}

struct Reader<'a> {
    table: Vec<&'a str>,
    codes: std::slice::Iter<'a, i32>,
    numbers: &'a [f64],
}

impl<'a> Reader<'a> {
    fn code(&mut self) -> Option<i32> {
        self.codes.next().copied()
    }

    fn count(&mut self) -> Option<usize> {
        usize::try_from(self.code()?).ok()
    }

    fn str(&mut self) -> Option<&'a str> {
        let i = self.count()?;
        self.table.get(i).copied()
    }

    fn string(&mut self) -> Option<String> {
        self.str().map(str::to_string)
    }

    fn node(&mut self) -> Option<AxNode> {
        let node_id = self.string()?;
        let head = self.code()?;
        let backend_dom_node_id = if head & 2 != 0 { Some(i64::from(self.code()?)) } else { None };
        let frame_id = if head & 4 != 0 { Some(self.string()?) } else { None };
        let role = self.value()?;
        let name = self.value()?;
        let description = self.value()?;
        let value = self.value()?;
        let n = self.count()?;
        let mut properties = Vec::with_capacity(n.min(256));
        for _ in 0..n {
            let name = self.string()?;
            properties.push(AxProperty { name, value: self.value()?.unwrap_or_default() });
        }
        let n = self.count()?;
        let mut child_ids = Vec::with_capacity(n.min(1 << 16));
        for _ in 0..n {
            child_ids.push(self.string()?);
        }
        Some(AxNode {
            node_id,
            ignored: head & 1 != 0,
            role,
            name,
            description,
            value,
            properties,
            child_ids,
            backend_dom_node_id,
            frame_id,
        })
    }

    /// `Some(None)` for an absent value, `None` if it does not decode.
    fn value(&mut self) -> Option<Option<AxValue>> {
        let tag = self.count()?;
        let value = match tag & 3 {
            0 => return Some(None),
            1 => Scalar::None,
            2 => Scalar::Text(self.string()?),
            _ => Scalar::Text(number_text(*self.numbers.get(self.count()?)?)),
        };
        let sources = match (tag >> 2) & 3 {
            1 => NameSource::Contents,
            2 => NameSource::Own,
            _ => NameSource::Unknown,
        };
        let related = tag >> 4;
        let mut related_nodes = Vec::with_capacity(related.min(1024));
        for _ in 0..related {
            let id = self.code()?;
            related_nodes.push(RelatedNode { backend_dom_node_id: (id >= 0).then_some(i64::from(id)) });
        }
        Some(Some(AxValue { kind: Default::default(), value, related_nodes, sources }))
    }
}

/// A JS number as serde-wasm-bindgen hands it to [`Scalar`]: a safe integer
/// as an integer, anything else as a float.
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

    #[test]
    fn decodes_every_field() {
        let strings = ["7", "F1", "RootWebArea", "Home", "", "url", "https://a.test/", "8", "9"];
        let codes = [
            1, 2, //
            0, 7, 42, 1, 2, 2, 2 | 4, 3, 0, 3, 1, 1, 5, 2, 6, 2, 7, 8, //
            7, 0, 1 | 8 | (2 << 4), -1, 5, 0, 0, 0, 0, 0,
        ];
        let lists = node_lists(&strings.join("\0"), strings.len(), &codes, &[1.0, 0.5]).unwrap();
        let [a, b] = &lists[0][..] else { panic!() };
        assert_eq!(a.node_id, "7");
        assert!(a.ignored);
        assert_eq!(a.backend_dom_node_id, Some(42));
        assert_eq!(a.frame_id.as_deref(), Some("F1"));
        assert_eq!(a.role.as_ref().unwrap().value, Scalar::Text("RootWebArea".into()));
        assert_eq!(a.name.as_ref().unwrap().sources, NameSource::Contents);
        assert_eq!(a.description, None);
        assert_eq!(a.value.as_ref().unwrap().value, Scalar::Text("0.5".into()));
        assert_eq!(a.properties[0].name, "url");
        assert_eq!(a.child_ids, ["8", "9"]);
        assert_eq!(b.node_id, "8");
        let role = b.role.as_ref().unwrap();
        assert_eq!((role.value.clone(), role.sources), (Scalar::None, NameSource::Own));
        assert_eq!(role.related_nodes, [RelatedNode { backend_dom_node_id: None }, RelatedNode { backend_dom_node_id: Some(5) }]);
        assert!(!b.ignored && b.backend_dom_node_id.is_none());
    }

    #[test]
    fn a_string_holding_a_separator_is_refused() {
        let codes = [1, 1, 0, 0, 2, 1, 0, 0, 0, 0, 0];
        assert!(node_lists("7\0a\0b", 2, &codes, &[]).is_none());
        assert!(node_lists("7\0ab", 2, &codes, &[]).is_some());
        assert!(node_lists("7\0ab", 2, &codes[..10], &[]).is_none());
        assert!(node_lists("7\0ab", 2, &[&codes[..], &[0]].concat(), &[]).is_none());
    }

    #[test]
    fn numbers_read_as_serde_reads_them() {
        assert_eq!(number_text(2.0), "2");
        assert_eq!(number_text(-0.0), "0");
        assert_eq!(number_text(0.25), "0.25");
        assert_eq!(number_text(1e21), "1000000000000000000000");
    }
}
