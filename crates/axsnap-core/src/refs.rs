//! The ref table: which `A<n>` means which element. Identity lives here and
//! nowhere else, so "stable refs" and "stale refs are errors" are properties
//! of this one type.

use crate::error::{Error, ErrorCode};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Where a ref points: the frame (or OOPIF session) key and the DOM node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub frame: String,
    pub backend_node_id: i64,
    pub role: String,
    pub name: String,
    /// A link's full URL (the text may shorten or omit it).
    pub url: Option<String>,
}

#[derive(Debug, Clone)]
struct Entry {
    target: Target,
    /// The snapshot generation that last showed this element.
    seen: u64,
}

#[derive(Debug, Clone, Default)]
pub struct RefTable {
    next: u32,
    generation: u64,
    by_node: HashMap<(String, i64), u32>,
    entries: HashMap<u32, Entry>,
    /// Per frame key: the identity of the document the refs belong to.
    documents: HashMap<String, String>,
}

impl RefTable {
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts a snapshot: refs not seen again in it become stale.
    pub fn begin(&mut self) {
        self.generation += 1;
    }

    /// Records which document a frame shows; a different document means the
    /// frame navigated, and its old refs must never match new elements.
    pub fn observe_document(&mut self, frame: &str, document: &str) {
        let known = self.documents.get(frame);
        if known.is_some_and(|d| d != document) {
            self.forget_frame(frame);
        }
        self.documents.insert(frame.to_string(), document.to_string());
    }

    /// The ref for a node: the one it had before in this document, or a new
    /// number (numbers are never reused).
    pub fn assign(&mut self, frame: &str, backend_node_id: i64, role: &str, name: &str, url: Option<&str>) -> u32 {
        let key = (frame.to_string(), backend_node_id);
        let generation = self.generation;
        if let Some(&n) = self.by_node.get(&key) {
            if let Some(e) = self.entries.get_mut(&n) {
                e.seen = generation;
                e.target.role = role.to_string();
                e.target.name = name.to_string();
                e.target.url = url.map(str::to_string);
                return n;
            }
        }
        let n = self.next;
        self.next += 1;
        self.by_node.insert(key, n);
        let target = Target {
            frame: frame.to_string(),
            backend_node_id,
            role: role.to_string(),
            name: name.to_string(),
            url: url.map(str::to_string),
        };
        self.entries.insert(n, Entry { target, seen: generation });
        n
    }

    /// Resolves `A<n>` to its element, if that element was in the latest
    /// snapshot.
    pub fn resolve(&self, reference: &str) -> Result<&Target, Error> {
        let n = parse_ref(reference)?;
        match self.entries.get(&n) {
            Some(e) if e.seen == self.generation => Ok(&e.target),
            Some(_) => Err(stale(reference)),
            None if n < self.next => Err(stale(reference)),
            None => Err(Error::new(
                ErrorCode::UnknownRef,
                format!("{reference} was never issued: use a ref from the latest snapshot"),
            )),
        }
    }

    /// Forgets every ref (the tab navigated); numbers keep counting up.
    pub fn reset(&mut self) {
        self.by_node.clear();
        self.entries.clear();
        self.documents.clear();
    }

    pub fn forget_frame(&mut self, frame: &str) {
        self.by_node.retain(|(f, _), _| f != frame);
        self.entries.retain(|_, e| e.target.frame != frame);
        self.documents.remove(frame);
    }

    /// Number of refs shown by the latest snapshot.
    pub fn live(&self) -> usize {
        self.entries.values().filter(|e| e.seen == self.generation).count()
    }

    /// All live refs, ordered by number.
    pub fn live_targets(&self) -> Vec<(u32, &Target)> {
        let mut v: Vec<_> = self
            .entries
            .iter()
            .filter(|(_, e)| e.seen == self.generation)
            .map(|(&n, e)| (n, &e.target))
            .collect();
        v.sort_by_key(|(n, _)| *n);
        v
    }
}

/// `[number, frame, backendNodeId, role, name, seen, url]`
type SavedEntry = (u32, String, i64, String, String, u64, Option<String>);

/// The table as plain data, so a restarted host (an MV3 service worker is
/// stopped when idle) can keep its refs.
#[derive(Serialize, Deserialize)]
struct Saved {
    next: u32,
    generation: u64,
    entries: Vec<SavedEntry>,
    documents: HashMap<String, String>,
}

impl RefTable {
    pub fn to_json(&self) -> String {
        let mut entries: Vec<_> = self
            .entries
            .iter()
            .map(|(&n, e)| {
                let t = &e.target;
                (n, t.frame.clone(), t.backend_node_id, t.role.clone(), t.name.clone(), e.seen, t.url.clone())
            })
            .collect();
        entries.sort_by_key(|e| e.0);
        let saved = Saved { next: self.next, generation: self.generation, entries, documents: self.documents.clone() };
        serde_json::to_string(&saved).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<RefTable, Error> {
        let saved: Saved = serde_json::from_str(text)
            .map_err(|e| Error::bad_input(format!("not a saved ref table: {e}")))?;
        let mut t = RefTable { next: saved.next, generation: saved.generation, documents: saved.documents, ..Default::default() };
        for (n, frame, backend_node_id, role, name, seen, url) in saved.entries {
            if n >= t.next {
                t.next = n + 1;
            }
            t.by_node.insert((frame.clone(), backend_node_id), n);
            t.entries.insert(n, Entry { target: Target { frame, backend_node_id, role, name, url }, seen });
        }
        Ok(t)
    }
}

fn stale(reference: &str) -> Error {
    Error::new(
        ErrorCode::StaleRef,
        format!("{reference} is stale: its element is gone; take a new snapshot"),
    )
}

pub fn parse_ref(reference: &str) -> Result<u32, Error> {
    let digits = reference.trim().strip_prefix('A').unwrap_or("");
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 9 {
        return Err(Error::new(
            ErrorCode::BadRef,
            format!("{reference:?} is not a ref: refs look like A7"),
        ));
    }
    digits.parse().map_err(|_| Error::new(ErrorCode::BadRef, format!("{reference:?} is not a ref")))
}

pub fn format_ref(n: u32) -> String {
    format!("A{n}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_node_keeps_its_ref_across_snapshots() {
        let mut t = RefTable::new();
        t.begin();
        let a = t.assign("f", 10, "button", "OK", None);
        t.begin();
        assert_eq!(t.assign("f", 10, "button", "OK", None), a);
        assert_eq!(t.resolve("A0").unwrap().backend_node_id, 10);
    }

    #[test]
    fn gone_node_is_stale_not_matched_to_another() {
        let mut t = RefTable::new();
        t.begin();
        t.assign("f", 10, "button", "OK", None);
        t.begin();
        t.assign("f", 11, "button", "Cancel", None);
        let err = t.resolve("A0").unwrap_err();
        assert_eq!(err.code, ErrorCode::StaleRef);
        assert_eq!(err.message, "A0 is stale: its element is gone; take a new snapshot");
        assert_eq!(t.resolve("A1").unwrap().name, "Cancel");
    }

    #[test]
    fn numbers_are_never_reused_after_reset() {
        let mut t = RefTable::new();
        t.begin();
        t.assign("f", 10, "link", "x", None);
        t.reset();
        t.begin();
        assert_eq!(t.assign("f", 10, "link", "x", None), 1);
        assert_eq!(t.resolve("A0").unwrap_err().code, ErrorCode::StaleRef);
    }

    #[test]
    fn new_document_in_a_frame_forgets_its_refs() {
        let mut t = RefTable::new();
        t.begin();
        t.observe_document("f", "doc1");
        t.assign("f", 10, "link", "x", None);
        t.begin();
        t.observe_document("f", "doc2");
        assert_eq!(t.assign("f", 10, "link", "x", None), 1);
    }

    #[test]
    fn same_backend_id_in_two_frames_gets_two_refs() {
        let mut t = RefTable::new();
        t.begin();
        assert_ne!(t.assign("a", 5, "link", "x", None), t.assign("b", 5, "link", "x", None));
    }

    #[test]
    fn saved_table_restores_refs_and_staleness() {
        let mut t = RefTable::new();
        t.begin();
        t.observe_document("f", "d");
        t.assign("f", 10, "link", "x", None);
        t.begin();
        t.assign("f", 11, "button", "y", None);
        let back = RefTable::from_json(&t.to_json()).unwrap();
        assert_eq!(back.resolve("A1").unwrap().backend_node_id, 11);
        assert_eq!(back.resolve("A0").unwrap_err().code, ErrorCode::StaleRef);
        let mut back = back;
        back.begin();
        assert_eq!(back.assign("f", 12, "link", "z", None), 2);
        assert_eq!(RefTable::from_json("{").unwrap_err().code, ErrorCode::BadInput);
    }

    #[test]
    fn malformed_and_unknown_refs_have_their_own_codes() {
        let t = RefTable::new();
        assert_eq!(t.resolve("B7").unwrap_err().code, ErrorCode::BadRef);
        assert_eq!(t.resolve("A").unwrap_err().code, ErrorCode::BadRef);
        assert_eq!(t.resolve("A99999999999").unwrap_err().code, ErrorCode::BadRef);
        assert_eq!(t.resolve("A3").unwrap_err().code, ErrorCode::UnknownRef);
    }
}
