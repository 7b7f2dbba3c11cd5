//! The ref table: which `A<n>` means which element. Identity and its whole
//! lifecycle live here and nowhere else, so "stable refs", "stale refs are
//! errors", "a new document forgets its frame's refs" and "the table stays
//! bounded" are properties of this one type.

use crate::error::{quoted, Error, ErrorCode};
use crate::lines::format_ref;
use serde::{Deserialize, Serialize};
use crate::tree::IdMap;
use std::collections::HashMap;

/// Rows of a list are a few elements each: a twin further than this many
/// gone elements after its neighbour is not taken for the one it replaced.
const MOST_BETWEEN: usize = 64;

/// A ref whose element was missing from this many full snapshots in a row
/// is forgotten (its number still answers `stale_ref`, and is never reused).
pub const PRUNE_AFTER: u64 = 3;
/// At most this many refs are remembered per tab beyond those the latest
/// snapshot showed (which are always kept): the oldest go first.
pub const MAX_ENTRIES: usize = 50_000;

/// Where a ref points: the frame (or OOPIF session) key, the document and
/// the DOM node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    pub frame: String,
    /// The frame's document when the ref was issued: Chrome's loader id when
    /// the caller gave one, else the backend id of the document's root node.
    pub document: String,
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
    /// The ref given just before this one then, in the page's order: where it stood.
    after: Option<u32>,
}

#[derive(Debug, Clone)]
pub struct RefTable {
    next: u32,
    /// Full snapshots taken; a subtree snapshot does not start a generation.
    generation: u64,
    by_node: ByNode,
    entries: IdMap<u32, Entry>,
    /// Per frame key: the document the frame's refs belong to.
    documents: HashMap<String, String>,
    /// Frames the current snapshot read only in part (a window of a very
    /// large frame): their refs it did not show are not gone, just unread.
    partial: Vec<String>,
    limit: usize,
    /// During a full snapshot: refs whose element the page replaced, by what
    /// they showed (see [`RefTable::expect_replacements`]).
    replaced: HashMap<Shown, Vec<u32>>,
    /// Of the roles and names in `replaced`: how many of the snapshot's new
    /// elements (those without a ref yet) show each, per frame.
    newcomers: HashMap<(String, String, String), usize>,
    /// During a full snapshot: every ref the previous one showed whose element
    /// is gone, named or not (what stood between a twin and its neighbour).
    gone: std::collections::HashSet<u32>,
    /// During a full snapshot: the ref the previous one gave right after each
    /// (None: the first), the order [`RefTable::successor`] walks.
    next_of: HashMap<Option<u32>, u32>,
    /// The ref this snapshot gave last, in the page's order.
    last_given: Option<u32>,
    /// This snapshot shows a modal dialog: the page behind it is hidden, not gone.
    held: bool,
    /// The last full snapshot that no modal dialog held.
    unheld: u64,
    /// The typed values' version the names were last scrubbed with.
    typed_version: (usize, u64),
}

/// Refs by frame key and backend id, found without copying the key.
#[derive(Debug, Clone, Default)]
struct ByNode(IdMap<String, IdMap<i64, u32>>);

impl ByNode {
    fn get(&self, frame: &str, backend: i64) -> Option<u32> {
        self.0.get(frame)?.get(&backend).copied()
    }

    fn insert(&mut self, frame: &str, backend: i64, n: u32) {
        match self.0.get_mut(frame) {
            Some(refs) => refs.insert(backend, n),
            None => self.0.entry(frame.to_string()).or_default().insert(backend, n),
        };
    }

    fn remove(&mut self, frame: &str, backend: i64) {
        if let Some(refs) = self.0.get_mut(frame) {
            refs.remove(&backend);
        }
    }

    fn clear(&mut self) {
        self.0.clear();
    }
}

/// What an element showed: frame key, role, name and link URL.
type Shown = (String, String, String, Option<String>);

impl Default for RefTable {
    fn default() -> Self {
        RefTable {
            next: 0,
            generation: 0,
            by_node: ByNode::default(),
            entries: IdMap::default(),
            documents: HashMap::new(),
            partial: Vec::new(),
            limit: MAX_ENTRIES,
            replaced: HashMap::new(),
            newcomers: HashMap::new(),
            gone: std::collections::HashSet::new(),
            next_of: HashMap::new(),
            last_given: None,
            held: false,
            unheld: 0,
            typed_version: (0, 0),
        }
    }
}

/// One frame of a snapshot as the table sees it.
pub struct FrameDocument<'a> {
    pub key: &'a str,
    pub document: String,
    /// The snapshot read only part of the frame.
    pub partial: bool,
}

impl RefTable {
    pub fn new() -> Self {
        Self::default()
    }

    /// A table remembering at most `limit` refs beyond the live ones.
    pub fn with_limit(limit: usize) -> Self {
        RefTable { limit, ..Self::default() }
    }

    /// Starts a snapshot. A full one starts a generation: refs it does not
    /// show become stale. A subtree snapshot sees part of the page, so refs
    /// outside it stay live. A frame showing another document than before
    /// navigated: its old refs must never match the new document's elements.
    /// In a frame read only in part, refs the snapshot does not show stay
    /// live (the action checks the element is still there), up to the limit.
    ///
    /// `held`: a modal dialog is open, so the page behind it is out of the
    /// tree while it is still there. Its refs are not forgotten while the
    /// dialog stays (however many looks that takes), so that the page comes
    /// back with the refs the agent knew, and the diff after the dialog
    /// closes says only what changed.
    pub fn begin(&mut self, frames: &[FrameDocument], subtree: bool, held: bool) {
        if !subtree {
            self.generation += 1;
            self.held = held;
        }
        self.last_given = None;
        self.partial = frames.iter().filter(|f| f.partial).map(|f| f.key.to_string()).collect();
        for f in frames {
            if self.documents.get(f.key).is_some_and(|d| *d != f.document) {
                self.forget_frame(f.key);
            }
            self.documents.insert(f.key.to_string(), f.document.clone());
        }
    }

    /// Before a full snapshot assigns refs: `nodes` are every element of the
    /// new tree (frame key, backend id, role, name). Pages often replace elements
    /// with identical ones (a list rendered again from its data, a component
    /// mounted again); an agent holding the old ref means the element a
    /// person still sees in its place. So a ref whose element is gone passes
    /// to a new element of the same frame and document showing the same
    /// role, name and URL, when that is unambiguous: the name is not empty,
    /// and either no other gone ref showed the same and no other new element
    /// shows that role and name, or (twins, such as the rows' "Delete"
    /// buttons of a list written again) the gone one stood after the element
    /// the new one stands after, which kept its ref, with nothing between
    /// them but elements gone too (a row deleted above it); of such twins,
    /// the nearest. A ref gone a snapshot or two earlier (a list filtered,
    /// then shown whole) passes the same way where nothing showing the same
    /// was seen since, but never as a twin (its place is too old to tell).
    /// A modal dialog takes no ref of the page it hides. Anything less
    /// certain gets a new ref, the old one stale.
    pub fn expect_replacements<'a>(&mut self, nodes: impl Iterator<Item = (&'a str, i64, &'a str, &'a str)> + Clone) {
        self.replaced.clear();
        self.newcomers.clear();
        self.gone.clear();
        self.next_of.clear();
        // No ref yet (a tab's first snapshot): nothing can pass on.
        if self.entries.is_empty() {
            return;
        }
        let previous = self.generation.saturating_sub(1);
        // After a modal dialog, also the page the agent saw before it.
        let before_dialog = if self.unheld < previous { self.unheld } else { previous };
        let mut alive: std::collections::HashSet<u32> = std::collections::HashSet::new();
        for (frame, backend, _, _) in nodes.clone() {
            if let Some(n) = self.by_node.get(frame, backend) {
                alive.insert(n);
            }
        }
        // Per role, name and URL: the gone refs last seen latest, and when.
        let mut latest: HashMap<Shown, (u64, Vec<u32>)> = HashMap::new();
        for (&n, e) in &self.entries {
            let t = &e.target;
            let last = e.seen == previous || e.seen == before_dialog;
            // Two snapshots' orders (the page before a dialog and the dialog) that disagree say nothing.
            if last && self.next_of.insert(e.after, n).is_some() {
                self.next_of.insert(e.after, u32::MAX);
            }
            // Behind a modal dialog the page is hidden, not gone: none of it passes to the dialog.
            if alive.contains(&n) || self.partial.contains(&t.frame) || (self.held && e.seen <= self.unheld) {
                continue;
            }
            if last {
                self.gone.insert(n);
            }
            if t.name.is_empty() {
                continue;
            }
            // Gone a snapshot or two earlier (a list filtered, then shown whole again): only where
            // nothing showing the same was seen since, so the latest ones alone can be twins.
            let seen = if last { previous } else { e.seen };
            let shown = (t.frame.clone(), t.role.clone(), t.name.clone(), t.url.clone());
            let group = latest.entry(shown).or_insert((seen, Vec::new()));
            if seen > group.0 {
                *group = (seen, Vec::new());
            }
            if seen == group.0 {
                group.1.push(n);
            }
        }
        self.replaced = latest.into_iter().map(|(shown, (_, refs))| (shown, refs)).collect();
        if self.replaced.is_empty() {
            return;
        }
        for (frame, role, name, _) in self.replaced.keys() {
            self.newcomers.insert((frame.clone(), role.clone(), name.clone()), 0);
        }
        for (frame, backend, role, name) in nodes {
            if let Some(count) = self.newcomers.get_mut(&(frame.to_string(), role.to_string(), name.to_string())) {
                if self.by_node.get(frame, backend).is_none() {
                    *count += 1;
                }
            }
        }
    }

    /// The gone ref a new element takes over, if [`expect_replacements`]
    /// found it unambiguous (each is taken once).
    fn successor(&mut self, frame: &str, role: &str, name: &str, url: Option<&str>) -> Option<u32> {
        if self.replaced.is_empty() {
            return None;
        }
        let key = (frame.to_string(), role.to_string(), name.to_string(), url.map(str::to_string));
        let gone = self.replaced.get(&key)?;
        let at = if self.alone(&key) { 0 } else { self.nearest_twin(gone)? };
        self.replaced.get_mut(&key).map(|gone| gone.swap_remove(at))
    }

    /// One gone ref shows this and one new element does: it passes on whatever their places.
    fn alone(&self, (frame, role, name, url): &Shown) -> bool {
        let shown = (frame.clone(), role.clone(), name.clone());
        self.newcomers.get(&shown) == Some(&1) && self.replaced.get(&(shown.0, shown.1, shown.2, url.clone())).is_some_and(|g| g.len() == 1)
    }

    /// Of twins `gone`, the one first after the element given last, past
    /// elements gone for good only (a row deleted above it): its index.
    fn nearest_twin(&self, gone: &[u32]) -> Option<usize> {
        let mut next = self.next_of.get(&self.last_given).copied();
        for _ in 0..MOST_BETWEEN {
            let n = next.filter(|n| self.gone.contains(n))?;
            let e = self.entries.get(&n)?;
            if let Some(i) = gone.iter().position(|&g| g == n) {
                return Some(i);
            }
            // Given in this snapshot already, or sure to be (one of a kind): it stands elsewhere now.
            let t = &e.target;
            if e.seen == self.generation || self.alone(&(t.frame.clone(), t.role.clone(), t.name.clone(), t.url.clone())) {
                return None;
            }
            next = self.next_of.get(&Some(n)).copied();
        }
        None
    }

    /// Ends a snapshot: forgets refs gone for [`PRUNE_AFTER`] full snapshots,
    /// then the oldest ones beyond the table's limit.
    pub fn end(&mut self, subtree: bool) {
        self.replaced.clear();
        self.newcomers.clear();
        self.gone.clear();
        self.next_of.clear();
        if subtree {
            return;
        }
        let generation = self.generation;
        if !self.held {
            self.unheld = generation;
        }
        let mut unread = 0;
        let mut forget = Vec::new();
        if !self.partial.is_empty() {
            for (&n, e) in self.entries.iter_mut() {
                if e.seen != generation && self.partial.contains(&e.target.frame) {
                    unread += 1;
                    if unread > self.limit {
                        forget.push(n);
                    } else {
                        e.seen = generation;
                    }
                }
            }
        }
        // Remembered refs were seen at most PRUNE_AFTER - 1 snapshots ago:
        // the oldest go first (within one age, any: sorting by number would
        // cost the Wasm several KB for nothing).
        let mut by_age: Vec<Vec<u32>> = vec![Vec::new(); PRUNE_AFTER as usize];
        for (&n, e) in &self.entries {
            match generation - e.seen {
                0 => {}
                age if age >= PRUNE_AFTER && !(self.held && e.seen >= self.unheld) => forget.push(n),
                // Behind a modal dialog: as old as the oldest remembered.
                age => by_age[(age.min(PRUNE_AFTER - 1)) as usize].push(n),
            }
        }
        let remembered: usize = by_age.iter().map(Vec::len).sum();
        let mut over = remembered.saturating_sub(self.limit);
        for group in by_age.iter().rev() {
            let take = over.min(group.len());
            forget.extend(&group[..take]);
            over -= take;
        }
        for n in forget {
            if let Some(e) = self.entries.remove(&n) {
                self.by_node.remove(&e.target.frame, e.target.backend_node_id);
            }
        }
    }

    /// The ref for a node: the one it had before in this document, or a new
    /// number (numbers are never reused).
    pub fn assign(&mut self, frame: &str, backend_node_id: i64, role: &str, name: &str, url: Option<&str>) -> u32 {
        let n = self.give(frame, backend_node_id, role, name, url);
        if let Some(e) = self.entries.get_mut(&n) {
            e.after = self.last_given;
        }
        self.last_given = Some(n);
        n
    }

    fn give(&mut self, frame: &str, backend_node_id: i64, role: &str, name: &str, url: Option<&str>) -> u32 {
        let generation = self.generation;
        if let Some(n) = self.by_node.get(frame, backend_node_id) {
            if let Some(e) = self.entries.get_mut(&n) {
                e.seen = generation;
                e.target.role = role.to_string();
                e.target.name = name.to_string();
                e.target.url = url.map(str::to_string);
                return n;
            }
        }
        if let Some(n) = self.successor(frame, role, name, url) {
            if let Some(e) = self.entries.get_mut(&n) {
                self.by_node.remove(frame, e.target.backend_node_id);
                e.target.backend_node_id = backend_node_id;
                e.seen = generation;
                self.by_node.insert(frame, backend_node_id, n);
                return n;
            }
        }
        let n = self.next;
        self.next += 1;
        self.by_node.insert(frame, backend_node_id, n);
        let target = Target {
            frame: frame.to_string(),
            document: self.documents.get(frame).cloned().unwrap_or_default(),
            backend_node_id,
            role: role.to_string(),
            name: name.to_string(),
            url: url.map(str::to_string),
        };
        self.entries.insert(n, Entry { target, seen: generation, after: None });
        n
    }

    /// Resolves `A<n>` to its element, if that element was in the latest
    /// snapshot. A ref issued but gone (or forgotten) is `stale_ref`.
    /// The target of a ref shown in this snapshot, by number.
    pub fn target(&self, n: u32) -> Option<&Target> {
        self.entries.get(&n).filter(|e| e.seen == self.generation).map(|e| &e.target)
    }

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

    /// Forgets one frame's refs (it navigated or went away).
    pub fn forget_frame(&mut self, frame: &str) {
        self.by_node.0.remove(frame);
        self.entries.retain(|_, e| e.target.frame != frame);
        self.documents.remove(frame);
    }

    /// Number of refs shown by the latest snapshot.
    pub fn live(&self) -> usize {
        self.entries.values().filter(|e| e.seen == self.generation).count()
    }

    /// Number of refs remembered, live or not.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Rewrites every remembered name and URL with `cut` (a scrub of the
    /// values typed into secret fields) when the typed values changed since
    /// the last time (`version`): an element named before a value was known
    /// to be secret, and not shown since, must not keep that value in the
    /// saved table.
    pub fn cut_typed(&mut self, version: (usize, u64), cut: &dyn Fn(&str) -> Option<String>) {
        if self.typed_version == version {
            return;
        }
        self.typed_version = version;
        for e in self.entries.values_mut() {
            if let Some(clean) = cut(&e.target.name) {
                e.target.name = clean;
            }
            if let Some(clean) = e.target.url.as_deref().and_then(cut) {
                e.target.url = Some(clean);
            }
        }
    }

    /// All live refs, in no particular order.
    pub fn live_targets(&self) -> Vec<(u32, &Target)> {
        self.entries.iter().filter(|(_, e)| e.seen == self.generation).map(|(&n, e)| (n, &e.target)).collect()
    }
}

/// `[number, frame index, backendNodeId, role, name, age, url]`; age is
/// how many full snapshots ago the element was last seen.
type SavedEntry = (u32, usize, i64, String, String, u64, Option<String>);

/// The table as compact plain data, so a restarted host (an MV3 service
/// worker is stopped when idle) keeps its refs: frame keys and documents
/// once, each ref a short array (in no particular order).
#[derive(Serialize, Deserialize)]
struct Saved {
    v: u32,
    next: u32,
    generation: u64,
    /// `[frame key, document]`
    frames: Vec<(String, String)>,
    refs: Vec<SavedEntry>,
}

const SAVED_VERSION: u32 = 2;

impl RefTable {
    pub fn to_json(&self) -> String {
        let mut frames: Vec<(String, String)> = self.documents.iter().map(|(k, d)| (k.clone(), d.clone())).collect();
        let mut index: HashMap<&str, usize> = self.documents.keys().enumerate().map(|(i, k)| (k.as_str(), i)).collect();
        let refs: Vec<SavedEntry> = self
            .entries
            .iter()
            .map(|(&n, e)| {
                let t = &e.target;
                let frame = *index.entry(t.frame.as_str()).or_insert_with(|| {
                    frames.push((t.frame.clone(), t.document.clone()));
                    frames.len() - 1
                });
                (n, frame, t.backend_node_id, t.role.clone(), t.name.clone(), self.generation - e.seen, t.url.clone())
            })
            .collect();
        let saved = Saved { v: SAVED_VERSION, next: self.next, generation: self.generation, frames, refs };
        serde_json::to_string(&saved).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<RefTable, Error> {
        let mut d = serde_json::Deserializer::from_str(text);
        let table = Self::from_saved(&mut d)?;
        d.end().map_err(|e| Error::bad_input(format!("not a saved ref table: {e}")))?;
        Ok(table)
    }

    /// A table saved by [`RefTable::to_json`], read from any deserializer:
    /// the Wasm build reads the object `JSON.parse` made, so it carries no
    /// JSON parser of its own.
    pub fn from_saved<'de, D: serde::Deserializer<'de>>(d: D) -> Result<RefTable, Error> {
        let saved = Saved::deserialize(d).map_err(|e| Error::bad_input(format!("not a saved ref table: {e}")))?;
        if saved.v != SAVED_VERSION {
            return Err(Error::bad_input(format!("a saved ref table of version {}, not {SAVED_VERSION}", saved.v)));
        }
        let mut t = RefTable { next: saved.next, generation: saved.generation, ..Default::default() };
        for (key, document) in &saved.frames {
            t.documents.insert(key.clone(), document.clone());
        }
        for (n, frame, backend_node_id, role, name, age, url) in saved.refs {
            let Some((frame, document)) = saved.frames.get(frame).cloned() else {
                return Err(Error::bad_input(format!("saved ref table: ref {n} names frame {frame}, which it does not list")));
            };
            t.next = t.next.max(n + 1);
            t.by_node.insert(&frame, backend_node_id, n);
            let target = Target { frame, document, backend_node_id, role, name, url };
            t.entries.insert(n, Entry { target, seen: t.generation.saturating_sub(age), after: None });
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
            format!("{} is not a ref: refs look like {}", quoted(reference), format_ref(7)),
        ));
    }
    digits.parse().map_err(|_| Error::new(ErrorCode::BadRef, format!("{} is not a ref", quoted(reference))))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc<'a>(key: &'a str, document: &str) -> FrameDocument<'a> {
        FrameDocument { key, document: document.to_string(), partial: false }
    }

    /// A full snapshot of frame "f" (document "d") showing these nodes.
    fn full(t: &mut RefTable, nodes: &[i64]) -> Vec<u32> {
        t.begin(&[doc("f", "d")], false, false);
        let refs = nodes.iter().map(|&b| t.assign("f", b, "button", "OK", None)).collect();
        t.end(false);
        refs
    }

    #[test]
    fn same_node_keeps_its_ref_across_snapshots() {
        let mut t = RefTable::new();
        let a = full(&mut t, &[10]);
        assert_eq!(full(&mut t, &[10]), a);
        assert_eq!(t.resolve("A0").unwrap().backend_node_id, 10);
        assert_eq!(t.resolve("A0").unwrap().document, "d");
    }

    /// A full snapshot of frame "f" showing these (backend id, role, name), as the distiller asks.
    fn redrawn(t: &mut RefTable, nodes: &[(i64, &str, &str)]) -> Vec<u32> {
        t.begin(&[doc("f", "d")], false, false);
        t.expect_replacements(nodes.iter().map(|&(b, role, name)| ("f", b, role, name)));
        let refs = nodes.iter().map(|&(b, role, name)| t.assign("f", b, role, name, None)).collect();
        t.end(false);
        refs
    }

    #[test]
    fn a_list_drawn_again_without_a_row_keeps_the_refs_of_the_rows_below_it() {
        let rows = |first: i64, names: &[&'static str]| -> Vec<(i64, &'static str, &'static str)> {
            let mut nodes = vec![(1, "button", "Add")];
            for (i, name) in names.iter().enumerate() {
                nodes.push((first + 2 * i as i64, "checkbox", *name));
                nodes.push((first + 2 * i as i64 + 1, "button", "Delete"));
            }
            nodes
        };
        let mut t = RefTable::new();
        assert_eq!(redrawn(&mut t, &rows(10, &["Milk", "Eggs", "Bread", "Eggs"])), [0, 1, 2, 3, 4, 5, 6, 7, 8]);
        // "Milk" deleted: the first "Eggs" (a twin) stood after it, gone, and after "Add" before that.
        assert_eq!(redrawn(&mut t, &rows(20, &["Eggs", "Bread", "Eggs"])), [0, 3, 4, 5, 6, 7, 8]);
        assert_eq!(t.resolve("A3").unwrap().backend_node_id, 20);
        assert_eq!(t.resolve("A1").unwrap_err().code, ErrorCode::StaleRef);
        // The first "Eggs" deleted: the other keeps its own ref, the deleted one's is stale.
        assert_eq!(redrawn(&mut t, &rows(30, &["Bread", "Eggs"])), [0, 5, 6, 7, 8]);
        assert_eq!(t.resolve("A3").unwrap_err().code, ErrorCode::StaleRef);
        // Moved, one of a kind now: it keeps its ref wherever it went, and the twin after it too.
        assert_eq!(redrawn(&mut t, &rows(40, &["Eggs", "Bread"])), [0, 7, 8, 5, 6]);
    }

    #[test]
    fn rows_a_filter_hid_for_a_look_keep_their_refs_when_drawn_again() {
        let mut t = RefTable::new();
        assert_eq!(redrawn(&mut t, &[(1, "button", "Active"), (10, "checkbox", "Milk"), (11, "button", "Delete")]), [0, 1, 2]);
        assert_eq!(redrawn(&mut t, &[(1, "button", "Active")]), [0]);
        assert_eq!(t.resolve("A1").unwrap_err().code, ErrorCode::StaleRef);
        assert_eq!(redrawn(&mut t, &[(1, "button", "Active"), (20, "checkbox", "Milk"), (21, "button", "Delete")]), [0, 1, 2]);
        assert_eq!(t.resolve("A1").unwrap().backend_node_id, 20);
    }

    #[test]
    fn a_modal_dialog_never_takes_the_refs_of_the_page_it_hides() {
        let mut t = RefTable::new();
        assert_eq!(redrawn(&mut t, &[(1, "button", "Cancel"), (2, "button", "Open")]), [0, 1]);
        t.begin(&[doc("f", "d")], false, true);
        t.expect_replacements([("f", 9, "button", "Cancel")].into_iter());
        assert_eq!(t.assign("f", 9, "button", "Cancel", None), 2);
        t.end(false);
        assert_eq!(redrawn(&mut t, &[(1, "button", "Cancel"), (2, "button", "Open")]), [0, 1]);
    }

    #[test]
    fn gone_node_is_stale_not_matched_to_another() {
        let mut t = RefTable::new();
        full(&mut t, &[10]);
        t.begin(&[doc("f", "d")], false, false);
        t.assign("f", 11, "button", "Cancel", None);
        t.end(false);
        let err = t.resolve("A0").unwrap_err();
        assert_eq!(err.code, ErrorCode::StaleRef);
        assert_eq!(err.message, "A0 is stale: its element is gone; take a new snapshot");
        assert_eq!(t.resolve("A1").unwrap().name, "Cancel");
    }

    #[test]
    fn the_page_behind_a_modal_dialog_keeps_its_refs_however_long_the_dialog_stays() {
        let mut t = RefTable::new();
        full(&mut t, &[10, 11]);
        for _ in 0..PRUNE_AFTER + 2 {
            t.begin(&[doc("f", "d")], false, true);
            t.assign("f", 50, "dialog", "New project", None);
            t.end(false);
            // Hidden behind the dialog: not something to act on.
            assert_eq!(t.resolve("A0").unwrap_err().code, ErrorCode::StaleRef);
        }
        // The dialog closed: the page is back, with the refs the agent knew.
        assert_eq!(full(&mut t, &[10, 11]), [0, 1]);
        // Without a dialog, a ref gone that long is forgotten.
        for _ in 0..PRUNE_AFTER {
            full(&mut t, &[11]);
        }
        assert_eq!(full(&mut t, &[10, 11]), [3, 1]);
    }

    #[test]
    fn numbers_are_never_reused_after_reset() {
        let mut t = RefTable::new();
        full(&mut t, &[10]);
        t.reset();
        assert_eq!(full(&mut t, &[10]), [1]);
        assert_eq!(t.resolve("A0").unwrap_err().code, ErrorCode::StaleRef);
    }

    #[test]
    fn new_document_in_a_frame_forgets_its_refs() {
        let mut t = RefTable::new();
        full(&mut t, &[10]);
        t.begin(&[doc("f", "d2")], false, false);
        assert_eq!(t.assign("f", 10, "link", "x", None), 1);
        t.end(false);
        assert_eq!(t.resolve("A1").unwrap().document, "d2");
        assert_eq!(t.resolve("A0").unwrap_err().code, ErrorCode::StaleRef);
    }

    #[test]
    fn same_backend_id_in_two_frames_gets_two_refs() {
        let mut t = RefTable::new();
        t.begin(&[doc("a", "1"), doc("b", "2")], false, false);
        assert_ne!(t.assign("a", 5, "link", "x", None), t.assign("b", 5, "link", "x", None));
    }

    #[test]
    fn a_subtree_snapshot_keeps_refs_outside_it_live() {
        let mut t = RefTable::new();
        full(&mut t, &[10, 11]);
        t.begin(&[doc("f", "d")], true, false);
        t.assign("f", 11, "button", "OK", None);
        t.end(true);
        assert!(t.resolve("A0").is_ok() && t.resolve("A1").is_ok());
    }

    #[test]
    fn refs_a_window_of_a_frame_does_not_show_stay_live() {
        let mut t = RefTable::with_limit(2);
        let window = |t: &mut RefTable, nodes: &[i64]| {
            t.begin(&[FrameDocument { key: "f", document: "d".into(), partial: true }], false, false);
            let refs: Vec<u32> = nodes.iter().map(|&b| t.assign("f", b, "link", "L", None)).collect();
            t.end(false);
            refs
        };
        let first = window(&mut t, &[1, 2]);
        let second = window(&mut t, &[3]);
        assert_eq!(t.resolve(&format!("A{}", first[0])).unwrap().backend_node_id, 1, "unread, not gone");
        assert_eq!(window(&mut t, &[1]), vec![first[0]], "the same element keeps its ref");
        // Beyond the limit, unread refs go; a full read makes the unshown stale.
        window(&mut t, &[4, 5]);
        let live = [first[0], first[1], second[0]].iter().filter(|n| t.resolve(&format!("A{n}")).is_ok()).count();
        assert!(live <= 2, "{live} unread refs kept beyond the limit");
        full(&mut t, &[4]);
        assert!(t.resolve(&format!("A{}", second[0])).is_err());
    }

    #[test]
    fn a_ref_gone_for_several_snapshots_is_forgotten_but_stays_stale() {
        let mut t = RefTable::new();
        full(&mut t, &[10, 11]);
        // Gone once or twice: remembered, so it comes back with its ref.
        full(&mut t, &[11]);
        full(&mut t, &[11]);
        assert_eq!(t.len(), 2);
        assert_eq!(full(&mut t, &[10, 11]), [0, 1]);
        for _ in 0..PRUNE_AFTER {
            full(&mut t, &[11]);
        }
        assert_eq!(t.len(), 1);
        assert_eq!(t.resolve("A0").unwrap_err().code, ErrorCode::StaleRef);
        // Back after being forgotten: a new number, never the old one.
        assert_eq!(full(&mut t, &[10, 11]), [2, 1]);
    }

    #[test]
    fn the_table_keeps_every_live_ref_and_at_most_its_limit_of_others() {
        let mut t = RefTable::with_limit(100);
        let first: Vec<i64> = (0..300).collect();
        full(&mut t, &first);
        assert_eq!(t.len(), 300, "live refs are never dropped");
        full(&mut t, &[1000]);
        assert_eq!((t.len(), t.live()), (101, 1));
        full(&mut t, &[1001]);
        // The oldest go first: of the first snapshot's refs, 99 are left.
        assert_eq!((t.len(), t.live()), (101, 1));
        assert!(t.resolve("A300").is_err(), "A300 is remembered, but stale");
        assert_eq!(full(&mut t, &[1000]), [300], "a remembered ref comes back");
        let back = full(&mut t, &first);
        assert_eq!(back.iter().filter(|&&n| n < 300).count(), 0, "forgotten refs get new numbers");
    }

    #[test]
    fn saved_table_restores_refs_documents_and_staleness() {
        let mut t = RefTable::new();
        t.begin(&[doc("f", "d")], false, false);
        t.assign("f", 10, "link", "x", Some("/x"));
        t.end(false);
        t.begin(&[doc("f", "d")], false, false);
        t.assign("f", 11, "button", "y", None);
        t.end(false);
        let saved = t.to_json();
        let v: serde_json::Value = serde_json::from_str(&saved).unwrap();
        assert_eq!((&v["v"], &v["next"], &v["generation"], &v["frames"]), (&2.into(), &2.into(), &2.into(), &serde_json::json!([["f", "d"]])));
        let mut refs: Vec<serde_json::Value> = v["refs"].as_array().unwrap().clone();
        refs.sort_by_key(|r| r[0].as_u64());
        assert_eq!(refs, serde_json::json!([[0, 0, 10, "link", "x", 1, "/x"], [1, 0, 11, "button", "y", 0, null]]).as_array().unwrap().clone());
        let mut back = RefTable::from_json(&saved).unwrap();
        assert_eq!(back.resolve("A1").unwrap().backend_node_id, 11);
        assert_eq!(back.resolve("A1").unwrap().document, "d");
        assert_eq!(back.resolve("A0").unwrap_err().code, ErrorCode::StaleRef);
        assert_eq!(full(&mut back, &[12, 10]), [2, 0]);
        assert_eq!(RefTable::from_json("{").unwrap_err().code, ErrorCode::BadInput);
        assert_eq!(RefTable::from_json(r#"{"v":1,"next":0,"generation":0,"frames":[],"refs":[]}"#).unwrap_err().code, ErrorCode::BadInput);
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
