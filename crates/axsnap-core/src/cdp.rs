//! Typed view of CDP `Accessibility.getFullAXTree` responses and of the
//! multi-frame input the extension assembles. Every field is optional or
//! defaulted: Chrome adds fields between versions and a missing one must not
//! turn a page into an error.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `AXValue`: a typed value. A scalar `value`, for relations
/// (`labelledby`, `describedby`) the DOM nodes they name, and for a name,
/// where Chrome took it from; everything else is skipped unread.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
pub struct AxValue {
    #[serde(default, rename = "type", skip_serializing)]
    pub kind: IgnoredField,
    #[serde(default)]
    pub value: Scalar,
    #[serde(default, rename = "relatedNodes", skip_serializing_if = "Vec::is_empty")]
    pub related_nodes: Vec<RelatedNode>,
    #[serde(default, skip_serializing)]
    pub sources: NameSource,
}

/// A node a relation names; only its DOM identity is read.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
pub struct RelatedNode {
    #[serde(default, rename = "backendDOMNodeId")]
    pub backend_dom_node_id: Option<i64>,
}

/// Where a computed name comes from: the node's content (a link's text),
/// or something of its own (`aria-label`, `aria-labelledby`, `title`, a
/// `<label>`, `alt`). Read from `sources`: the first one with a value that
/// is not superseded is the one Chrome used.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum NameSource {
    /// No `sources` (an older Chrome, a hand-made tree).
    #[default]
    Unknown,
    Contents,
    Own,
}

impl<'de> Deserialize<'de> for NameSource {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = NameSource;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a list of name sources")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<NameSource, A::Error> {
                let mut found = NameSource::Unknown;
                while let Some(s) = a.next_element::<Source>()? {
                    if found == NameSource::Unknown && s.has_value && !s.superseded {
                        found = if s.contents { NameSource::Contents } else { NameSource::Own };
                    }
                }
                Ok(found)
            }
            fn visit_unit<E>(self) -> Result<NameSource, E> {
                Ok(NameSource::Unknown)
            }
        }
        d.deserialize_any(V)
    }
}

/// One entry of `sources`, read without allocating.
#[derive(Default)]
struct Source {
    contents: bool,
    has_value: bool,
    superseded: bool,
}

#[derive(Deserialize)]
#[serde(field_identifier, rename_all = "camelCase")]
enum SourceField {
    Type,
    Value,
    Superseded,
    #[serde(other)]
    Other,
}

/// `"type": "contents"`, compared where it is read.
struct IsContents(bool);

impl<'de> Deserialize<'de> for IsContents {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = IsContents;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a source type")
            }
            fn visit_str<E>(self, v: &str) -> Result<IsContents, E> {
                Ok(IsContents(v == "contents"))
            }
        }
        d.deserialize_str(V)
    }
}

impl<'de> Deserialize<'de> for Source {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Source;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a name source")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Source, A::Error> {
                let mut s = Source::default();
                while let Some(key) = a.next_key::<SourceField>()? {
                    match key {
                        SourceField::Type => s.contents = a.next_value::<IsContents>()?.0,
                        SourceField::Value => {
                            a.next_value::<serde::de::IgnoredAny>()?;
                            s.has_value = true;
                        }
                        SourceField::Superseded => s.superseded = a.next_value::<Option<bool>>()?.unwrap_or(false),
                        SourceField::Other => {
                            a.next_value::<serde::de::IgnoredAny>()?;
                        }
                    }
                }
                Ok(s)
            }
        }
        d.deserialize_map(V)
    }
}

/// A field we accept and never read: parsed without allocating.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct IgnoredField;

impl<'de> Deserialize<'de> for IgnoredField {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| IgnoredField)
    }
}

/// A string, number or boolean, kept as text; anything else is `None`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Scalar {
    #[default]
    None,
    Text(String),
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a value")
            }
            fn visit_str<E>(self, v: &str) -> Result<Scalar, E> {
                Ok(Scalar::Text(v.to_string()))
            }
            fn visit_string<E>(self, v: String) -> Result<Scalar, E> {
                Ok(Scalar::Text(v))
            }
            fn visit_bool<E>(self, v: bool) -> Result<Scalar, E> {
                Ok(Scalar::Text(v.to_string()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<Scalar, E> {
                Ok(Scalar::Text(v.to_string()))
            }
            fn visit_u64<E>(self, v: u64) -> Result<Scalar, E> {
                Ok(Scalar::Text(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<Scalar, E> {
                Ok(Scalar::Text(v.to_string()))
            }
            fn visit_unit<E>(self) -> Result<Scalar, E> {
                Ok(Scalar::None)
            }
            fn visit_none<E>(self) -> Result<Scalar, E> {
                Ok(Scalar::None)
            }
            fn visit_some<D2: serde::Deserializer<'de>>(self, d: D2) -> Result<Scalar, D2::Error> {
                Scalar::deserialize(d)
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Scalar, A::Error> {
                while a.next_element::<serde::de::IgnoredAny>()?.is_some() {}
                Ok(Scalar::None)
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Scalar, A::Error> {
                while a.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?.is_some() {}
                Ok(Scalar::None)
            }
        }
        d.deserialize_any(V)
    }
}

impl AxValue {
    pub fn as_text(&self) -> Option<String> {
        self.text().map(str::to_string)
    }

    /// The value without copying it: most are compared, not kept.
    pub fn text(&self) -> Option<&str> {
        match &self.value {
            Scalar::Text(s) => Some(s),
            Scalar::None => None,
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
pub struct AxProperty {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub value: AxValue,
}

/// One `AXNode`. `nodeId` is a string unique within one frame's response.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct AxNode {
    #[serde(default, deserialize_with = "id_string")]
    pub node_id: String,
    #[serde(default)]
    pub ignored: bool,
    #[serde(default)]
    pub role: Option<AxValue>,
    #[serde(default)]
    pub name: Option<AxValue>,
    #[serde(default)]
    pub description: Option<AxValue>,
    #[serde(default)]
    pub value: Option<AxValue>,
    #[serde(default)]
    pub properties: Vec<AxProperty>,
    #[serde(default, deserialize_with = "id_strings")]
    pub child_ids: Vec<String>,
    #[serde(default, rename = "backendDOMNodeId")]
    pub backend_dom_node_id: Option<i64>,
    #[serde(default)]
    pub frame_id: Option<String>,
}

/// One frame's tree. `key` names the frame (or OOPIF session) for the ref
/// table; `owner` is the backendDOMNodeId of the `<iframe>` element in the
/// `parent` frame, used to nest this tree under it.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct FrameInput {
    #[serde(default)]
    pub key: String,
    #[serde(default)]
    pub parent: Option<String>,
    #[serde(default)]
    pub owner: Option<i64>,
    /// The frame's document (Chrome's loader id), when the caller knows it:
    /// refs belong to it. Without it, the document root's backend id stands in.
    #[serde(default)]
    pub document: Option<String>,
    /// Only part of the frame was read (a window of a very large frame):
    /// refs of its elements this snapshot does not show stay valid.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub partial: bool,
    #[serde(default)]
    pub nodes: Vec<AxNode>,
    /// The nodes as a JS caller packed them (see [`crate::packed`]), read
    /// in place of `nodes`.
    #[serde(skip)]
    pub packed: Option<crate::packed::PackedNodes>,
    /// Elements the page makes clickable without an interactive role, as the
    /// extension read them from the DOM (see [`ClickFact`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clickables: Vec<ClickFact>,
    /// Where the items of long lists sit, as the DOM says (see [`PositionFact`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<PositionFact>,
    /// The boxes of the frame's elements in document coordinates (CSS
    /// pixels), flat: `[backendNodeId, x, y, width, height, …]`, as the
    /// extension read them from the DOM (see [`crate::viewport`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub boxes: Vec<f64>,
    /// The part of the document on screen, in the same coordinates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub viewport: Option<Rect>,
}

/// A rectangle in a document's coordinates (CSS pixels).
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, PartialEq)]
pub struct Rect {
    #[serde(default)]
    pub x: f64,
    #[serde(default)]
    pub y: f64,
    #[serde(default)]
    pub width: f64,
    #[serde(default)]
    pub height: f64,
}

/// A long list's size and an item's place in it, from the DOM: `count` is
/// `aria-rowcount` or `aria-setsize`, `index` is `aria-rowindex` or
/// `aria-posinset` (Chrome's tree does not carry them); `scroll` what an
/// element that scrolls holds (see [`Scroll`]).
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct PositionFact {
    #[serde(default, rename = "backendNodeId")]
    pub backend_node_id: i64,
    #[serde(default)]
    pub count: Option<u64>,
    #[serde(default)]
    pub index: Option<u64>,
    /// For an element that scrolls: how far, and where the text it holds lies.
    #[serde(default)]
    pub scroll: Option<Scroll>,
}

/// An element that scrolls (`overflow-y: auto | scroll`) holding far more
/// than it shows, in CSS pixels of its content: its `scrollTop`,
/// `scrollHeight` and `clientHeight`, and the top of the first and the
/// bottom of the last text inside it. A virtualized list keeps only the
/// items near the view in the DOM: its text then covers a small part of its
/// scroll height.
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Scroll {
    #[serde(default)]
    pub top: f64,
    #[serde(default)]
    pub height: f64,
    #[serde(default)]
    pub client: f64,
    #[serde(default)]
    pub content_top: f64,
    #[serde(default)]
    pub content_bottom: f64,
}

/// What the DOM says of an element an accessibility tree may not call a
/// control: its own `cursor: pointer` (set on it, not inherited from its
/// parent), whether it listens for clicks (`click`, `mousedown`,
/// `pointerdown`) and whether it takes drops (`drop`, `dragover`,
/// `dragenter`). Only elements with a box on screen are reported, with
/// the box's area (square CSS pixels; 0 when not known).
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ClickFact {
    #[serde(default, rename = "backendNodeId")]
    pub backend_node_id: i64,
    #[serde(default)]
    pub pointer: bool,
    #[serde(default)]
    pub listener: bool,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub drop: bool,
    #[serde(default)]
    pub area: f64,
}

/// Everything one snapshot is made from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SnapshotInput {
    pub frames: Vec<FrameInput>,
}

/// Any accepted input document, before it is checked. Not an untagged enum:
/// that would buffer the whole document before choosing.
#[derive(Deserialize, Default)]
pub struct RawInput {
    #[serde(default)]
    frames: Option<Vec<FrameInput>>,
    #[serde(default)]
    nodes: Option<Vec<AxNode>>,
    #[serde(default)]
    result: Option<SingleTree>,
}

#[derive(Deserialize, Default)]
pub struct SingleTree {
    nodes: Vec<AxNode>,
}

/// What a parse error of the input says first.
pub const NOT_INPUT: &str = "not a getFullAXTree response or {frames:[…]} input";

impl SnapshotInput {
    /// Accepts a raw `getFullAXTree` response (`{nodes}`, or `{result:{nodes}}`
    /// as saved from a CDP log) or the extension's `{frames:[…]}`.
    pub fn from_json(text: &str) -> Result<Self, crate::Error> {
        let raw: RawInput = serde_json::from_str(text).map_err(|e| crate::Error::unparsable(NOT_INPUT, &e.to_string()))?;
        Self::from_raw(raw)
    }

    pub fn from_value(value: Value) -> Result<Self, crate::Error> {
        let raw: RawInput = serde_json::from_value(value).map_err(|e| crate::Error::unparsable(NOT_INPUT, &e.to_string()))?;
        Self::from_raw(raw)
    }

    pub fn from_raw(raw: RawInput) -> Result<Self, crate::Error> {
        if let Some(frames) = raw.frames {
            return Ok(SnapshotInput { frames });
        }
        if let Some(nodes) = raw.nodes.or(raw.result.map(|r| r.nodes)) {
            return Ok(Self::single(nodes));
        }
        Err(crate::Error::bad_input(
            "input has neither `nodes` nor `frames`: expected a getFullAXTree response",
        ))
    }

    pub fn single(nodes: Vec<AxNode>) -> Self {
        let key = nodes
            .first()
            .and_then(|n| n.frame_id.clone())
            .unwrap_or_else(|| "main".to_string());
        SnapshotInput {
            frames: vec![FrameInput { key, nodes, ..FrameInput::default() }],
        }
    }
}

/// CDP ids are strings today; older dumps and hand-written tests use numbers.
/// Read straight into strings: going through `serde_json::Value` cost 7% of
/// a large page's native snapshot.
fn id_string<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(d.deserialize_any(IdVisitor)?.unwrap_or_default())
}

fn id_strings<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    d.deserialize_any(IdListVisitor)
}

/// An id: a string or a number; anything else is no id.
struct IdVisitor;

impl<'de> serde::de::Visitor<'de> for IdVisitor {
    type Value = Option<String>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("an id")
    }
    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }
    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(Some(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(Some(v.to_string()))
    }
    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok(Some(serde_json::Number::from_f64(v).map_or_else(String::new, |n| n.to_string())))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(IdVisitor)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        while a.next_element::<serde::de::IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        while a.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

/// A list of ids; anything else is an empty list, and non-ids in it are skipped.
struct IdListVisitor;

impl<'de> serde::de::Visitor<'de> for IdListVisitor {
    type Value = Vec<String>;
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a list of ids")
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        let mut ids = Vec::with_capacity(a.size_hint().unwrap_or(0).min(4096));
        while let Some(id) = a.next_element_seed(IdSeed)? {
            ids.extend(id);
        }
        Ok(ids)
    }
    fn visit_str<E>(self, _: &str) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }
    fn visit_i64<E>(self, _: i64) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }
    fn visit_u64<E>(self, _: u64) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }
    fn visit_f64<E>(self, _: f64) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }
    fn visit_bool<E>(self, _: bool) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(Vec::new())
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(IdListVisitor)
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut a: A) -> Result<Self::Value, A::Error> {
        while a.next_entry::<serde::de::IgnoredAny, serde::de::IgnoredAny>()?.is_some() {}
        Ok(Vec::new())
    }
}

struct IdSeed;

impl<'de> serde::de::DeserializeSeed<'de> for IdSeed {
    type Value = Option<String>;
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(IdVisitor)
    }
}
