//! What changed between two snapshots of one page, over the line model.
//!
//! Lines are matched by identity: a line holding refs is its first ref
//! (refs are stable within a document); a line of words is its text, the
//! ref of its nearest ancestor line that has one, and which occurrence of
//! that text it is there. Every key is unique in a snapshot, so the lines
//! both snapshots share in the same order are a longest increasing
//! subsequence (O(n log n), whatever the change). A shared line whose text
//! or depth differs is changed; the rest were added or removed (a moved
//! line is both). Pure: no state, no I/O.

use crate::lines::{push_ref, Body, Kind, Line, Lines, Segment};
use std::collections::HashMap;

/// A line as printed, URLs inline: what the diff compares and prints.
#[derive(Debug, Clone, PartialEq)]
pub struct Printed {
    pub depth: usize,
    pub kind: Kind,
    pub text: String,
    /// The line's words before its first ref (`dialog "Sign in"`).
    pub head: String,
    pub refs: Vec<u32>,
}

/// Lines as the diff sees them: each line printed with its URLs inline.
pub fn printed(doc: &Lines) -> Vec<Printed> {
    doc.lines.iter().map(|l| printed_line(doc, l)).collect()
}

fn printed_line(doc: &Lines, l: &Line) -> Printed {
    // `bare` is the text without its refs, for the line's head.
    let (mut text, mut bare) = (String::new(), String::new());
    let mut refs = Vec::new();
    let segments: &[Segment] = match &l.body {
        Body::Segments(s) => s,
        _ => &[],
    };
    let mut after_ref = false;
    for seg in segments {
        match seg {
            Segment::Text(t) => {
                text.push_str(t);
                // A ref sits before what it names (`A5 [Docs](/d)`): the space after it goes with it.
                let spaced = bare.is_empty() || bare.ends_with(' ');
                bare.push_str(if after_ref && spaced { t.strip_prefix(' ').unwrap_or(t) } else { t });
            }
            Segment::Url(i) => {
                let url = doc.urls.get(*i).map_or("", String::as_str);
                for s in [&mut text, &mut bare] {
                    s.push('(');
                    s.push_str(url);
                    s.push(')');
                }
            }
            Segment::Ref(n) => {
                refs.push(*n);
                push_ref(&mut text, *n);
            }
        }
        after_ref = matches!(seg, Segment::Ref(_));
    }
    if let Body::Note(t) | Body::Row(crate::lines::Row { name: t, .. }) = &l.body {
        text.push_str(t);
        bare.push_str(t);
    }
    let head = if refs.is_empty() { text.clone() } else { head_of(&bare) };
    Printed { depth: l.depth, kind: l.kind.clone(), text, head, refs }
}

/// What a line holding refs calls itself, its refs, states and value set
/// aside: a control's role and name (`dialog "Sign in"`), or the words up
/// to the end of its first link (`Password [Forgot?](/f)`).
pub fn head_of(bare: &str) -> String {
    let b = bare.trim_start();
    let end = if let Some(name) = b.split_once(' ').filter(|(role, rest)| role.chars().all(|c| c.is_ascii_lowercase()) && rest.starts_with('"')).map(|(role, _)| role.len() + 2) {
        closing_quote(&b[name..]).map_or(b.len(), |i| name + i + 1)
    } else if let Some(at) = b.find("](").or_else(|| b.find("][")) {
        let close = if b[at + 1..].starts_with('(') { ')' } else { ']' };
        b[at + 2..].find(close).map_or(b.len(), |i| at + 2 + i + 1)
    } else {
        b.len()
    };
    b[..end].trim_end().to_string()
}

/// Where the quote closing a name opened just before `s` is: the first not escaped.
fn closing_quote(s: &str) -> Option<usize> {
    let mut escaped = false;
    s.char_indices()
        .find(|&(_, c)| {
            let close = c == '"' && !escaped;
            escaped = c == '\\' && !escaped;
            close
        })
        .map(|(i, _)| i)
}

#[cfg(test)]
impl Printed {
    /// A line as `printed` makes it, from its text and the refs it prints.
    pub(crate) fn of(depth: usize, kind: Kind, text: &str, refs: &[u32]) -> Printed {
        let bare: Vec<&str> = text.split(' ').filter(|w| !refs.iter().any(|&r| *w == crate::lines::format_ref(r))).collect();
        let head = if refs.is_empty() { text.to_string() } else { head_of(&bare.join(" ")) };
        Printed { depth, kind, text: text.to_string(), head, refs: refs.to_vec() }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// The old line at this index, unchanged.
    Keep(usize),
    /// The old line at this index, now printed as this.
    Change(usize, Printed),
    Add(Printed),
    /// The old line at this index is gone.
    Remove(usize),
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Diff {
    /// In the new snapshot's order, removed lines where they stood.
    pub ops: Vec<Op>,
    pub added: usize,
    pub removed: usize,
    pub changed: usize,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.added + self.removed + self.changed == 0
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key<'a> {
    Ref(u32),
    Text { anchor: Option<u32>, text: &'a str, nth: usize },
}

fn keys(lines: &[Printed]) -> Vec<Key<'_>> {
    // The ancestors' first refs, by depth.
    let mut stack: Vec<(usize, Option<u32>)> = Vec::new();
    let mut seen: HashMap<(Option<u32>, &str), usize> = HashMap::new();
    lines
        .iter()
        .map(|l| {
            while stack.last().is_some_and(|&(d, _)| d >= l.depth) {
                stack.pop();
            }
            let key = match l.refs.first() {
                Some(&r) => Key::Ref(r),
                None => {
                    let anchor = stack.iter().rev().find_map(|&(_, r)| r);
                    let nth = seen.entry((anchor, l.text.as_str())).or_insert(0);
                    *nth += 1;
                    Key::Text { anchor, text: &l.text, nth: *nth }
                }
            };
            stack.push((l.depth, l.refs.first().copied()));
            key
        })
        .collect()
}

pub fn diff(old: &[Printed], new: &[Printed]) -> Diff {
    let (old_keys, new_keys) = (keys(old), keys(new));
    let at: HashMap<&Key, usize> = old_keys.iter().enumerate().map(|(i, k)| (k, i)).collect();
    // (new index, old index) of every line both have, in new order.
    let shared: Vec<(usize, usize)> = new_keys.iter().enumerate().filter_map(|(i, k)| at.get(k).map(|&j| (i, j))).collect();
    let kept = increasing(&shared);
    let mut matched_new: Vec<Option<usize>> = vec![None; new.len()];
    for &(i, j) in &kept {
        matched_new[i] = Some(j);
    }
    let mut in_kept = vec![false; old.len()];
    for &(_, j) in &kept {
        in_kept[j] = true;
    }
    // For each new line, the old index of the next kept line from there on:
    // old lines before it that are not kept are removed there, before any
    // line added at that place.
    let mut upcoming = vec![old.len(); new.len() + 1];
    for i in (0..new.len()).rev() {
        upcoming[i] = matched_new[i].unwrap_or(upcoming[i + 1]);
    }
    let mut d = Diff::default();
    let mut next_old = 0;
    for (i, line) in new.iter().enumerate() {
        for r in next_old..upcoming[i] {
            if !in_kept[r] {
                d.ops.push(Op::Remove(r));
                d.removed += 1;
            }
        }
        next_old = next_old.max(upcoming[i]);
        match matched_new[i] {
            Some(j) => {
                next_old = j + 1;
                if old[j].text == line.text && old[j].depth == line.depth {
                    d.ops.push(Op::Keep(j));
                } else {
                    d.ops.push(Op::Change(j, line.clone()));
                    d.changed += 1;
                }
            }
            None => {
                d.ops.push(Op::Add(line.clone()));
                d.added += 1;
            }
        }
    }
    for r in next_old..old.len() {
        if !in_kept[r] {
            d.ops.push(Op::Remove(r));
            d.removed += 1;
        }
    }
    d
}

/// The longest run of pairs whose old indices increase, in order.
fn increasing(pairs: &[(usize, usize)]) -> Vec<(usize, usize)> {
    // Patience: tails[k] is the pair ending the best run of length k + 1.
    let mut tails: Vec<usize> = Vec::new();
    let mut before: Vec<Option<usize>> = vec![None; pairs.len()];
    for (p, &(_, j)) in pairs.iter().enumerate() {
        let k = tails.partition_point(|&t| pairs[t].1 < j);
        before[p] = k.checked_sub(1).map(|k| tails[k]);
        if k == tails.len() {
            tails.push(p);
        } else {
            tails[k] = p;
        }
    }
    let mut run = Vec::with_capacity(tails.len());
    let mut cur = tails.last().copied();
    while let Some(p) = cur {
        run.push(pairs[p]);
        cur = before[p];
    }
    run.reverse();
    run
}

/// The new lines, from the old ones and the diff alone.
pub fn apply(old: &[Printed], d: &Diff) -> Vec<Printed> {
    d.ops
        .iter()
        .filter_map(|op| match op {
            Op::Keep(j) => Some(old[*j].clone()),
            Op::Change(_, l) | Op::Add(l) => Some(l.clone()),
            Op::Remove(_) => None,
        })
        .collect()
}

/// The diff printed, and what it shows.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffText {
    pub text: String,
    pub lines: usize,
    /// The refs the diff shows, in order (a removed line's too).
    pub refs: Vec<u32>,
    /// What the first line counts: the lines the text marks `+`, `-` (with
    /// those a removed line takes along) and `~`.
    pub added: usize,
    pub removed: usize,
    pub changed: usize,
}

/// The diff as text: a summary line, then each changed line marked `+ `
/// (added), `- ` (removed) or `~ ` (changed, as it is now) and then printed
/// as in the full format, among unchanged lines marked with two spaces.
///
/// The text alone turns the previous snapshot into the new one ([`patch`]
/// says how, and is the definition): every marked or unchanged line is
/// found from where the one before it was, an added line goes right after
/// the line printed before it. So an added line follows its new neighbour
/// above (printed unchanged if need be), and a line of words found more
/// than once there follows as many unchanged lines above as tell it apart.
/// Besides, the parent line of a change is printed once, unless the first
/// line names it already (`in list "Todos"`). Two things are said once rather
/// than line by line: a removed line takes along the removed lines right
/// below it in the old snapshot (`(with 3 lines below)`: what was in it,
/// and the lines after it that went too; the reader has them), and when the focus moved to a line the diff
/// shows, the lines that only lost it are left out (the rest of the page
/// then holds no focus).
pub fn print(old: &[Printed], d: &Diff) -> DiffText {
    let mut p = Printer::new(old, d);
    p.plan();
    for k in 0..p.entries.len() {
        p.visit(k);
    }
    let within = p.within.map(|a| p.entries[a].line);
    let shown = Diff { ops: Vec::new(), added: p.added, removed: p.removed, changed: p.changed };
    let mut text = summary(&shown, within);
    text.push('\n');
    text.push_str(&p.body);
    DiffText { text, lines: p.lines, refs: p.refs, added: p.added, removed: p.removed, changed: p.changed }
}

struct Entry<'a> {
    mark: char,
    line: &'a Printed,
    /// Its index among the old lines (all but added lines have one).
    at: Option<usize>,
    /// The entry of its parent line: among the old lines for a removed line, else among the new.
    parent: Option<usize>,
}

struct Printer<'a> {
    old: &'a [Printed],
    entries: Vec<Entry<'a>>,
    /// The entry of each old line.
    entry_of: Vec<usize>,
    /// A removed line: how many removed lines below it it takes along.
    below: Vec<usize>,
    /// Said already: printed, or taken along by a removed line.
    said: Vec<bool>,
    /// A changed line that only lost the focus, left out.
    left_out: Vec<bool>,
    /// An unchanged line that is printed because it holds the focus while the focus moved,
    /// or the selection while it moved among its siblings.
    focus_kept: Vec<bool>,
    /// The innermost line holding every change printed.
    within: Option<usize>,
    /// The last entry said, and the old line after the last old line found.
    last: Option<usize>,
    /// The entry last printed (a removed line taking others along: the first of them).
    printed_last: Option<usize>,
    /// How many lines of the new page show each head (lines holding refs only), counted when first asked.
    heads: std::cell::OnceCell<HashMap<&'a str, usize>>,
    cursor: usize,
    body: String,
    lines: usize,
    refs: Vec<u32>,
    added: usize,
    removed: usize,
    changed: usize,
}

impl<'a> Printer<'a> {
    fn new(old: &'a [Printed], d: &'a Diff) -> Self {
        let (mut old_stack, mut new_stack): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
        let mut entries: Vec<Entry> = Vec::with_capacity(d.ops.len());
        let mut entry_of = vec![0; old.len()];
        for (k, op) in d.ops.iter().enumerate() {
            let (mark, line, at) = match op {
                Op::Keep(j) => (' ', &old[*j], Some(*j)),
                Op::Change(j, l) => ('~', l, Some(*j)),
                Op::Add(l) => ('+', l, None),
                Op::Remove(j) => ('-', &old[*j], Some(*j)),
            };
            if let Some(j) = at {
                entry_of[j] = k;
            }
            let (in_old, in_new) = (mark != '+', mark != '-');
            if let Some(j) = at {
                // Among the old lines, an entry stands at its old depth.
                let old_depth = |a: &usize| entries[*a].at.map_or(0, |x| old[x].depth);
                while old_stack.last().is_some_and(|a| old_depth(a) >= old[j].depth) {
                    old_stack.pop();
                }
            }
            if in_new {
                while new_stack.last().is_some_and(|&a| entries[a].line.depth >= line.depth) {
                    new_stack.pop();
                }
            }
            let parent = if in_new { new_stack.last() } else { old_stack.last() }.copied();
            if in_old {
                old_stack.push(k);
            }
            if in_new {
                new_stack.push(k);
            }
            entries.push(Entry { mark, line, at, parent });
        }
        let n = entries.len();
        Printer {
            old,
            entries,
            entry_of,
            below: vec![0; n],
            said: vec![false; n],
            left_out: vec![false; n],
            focus_kept: vec![false; n],
            within: None,
            last: None,
            printed_last: None,
            heads: std::cell::OnceCell::new(),
            cursor: 0,
            body: String::new(),
            lines: 1,
            refs: Vec::new(),
            added: 0,
            removed: 0,
            changed: 0,
        }
    }

    /// What is said once, left out or taken along, and the line holding every change.
    fn plan(&mut self) {
        let n = self.entries.len();
        let old = self.old;
        let gained = |e: &Entry, state: &str| match e.mark {
            '+' => raw(e.line).contains(state),
            '~' => state_count(e.line, state) > e.at.map_or(0, |j| state_count(&old[j], state)),
            _ => false,
        };
        let focus_moved = self.entries.iter().any(|e| gained(e, FOCUSED));
        // The siblings (parent, depth) among which a line gained the selection.
        let selection_moved: Vec<(Option<usize>, usize)> = self.entries.iter().filter(|e| gained(e, SELECTED)).map(|e| (e.parent, e.line.depth)).collect();
        let mut k = 0;
        while k < n {
            let e = &self.entries[k];
            if e.mark == '-' {
                let below = self.entries[k + 1..].iter().take_while(|x| x.mark == '-').count();
                self.below[k] = below;
                k += below + 1;
                continue;
            }
            let selection_moved = selection_moved.contains(&(e.parent, e.line.depth));
            if focus_moved || selection_moved {
                let before = e.at.map(|j| &old[j]);
                self.left_out[k] = e.mark == '~' && before.is_some_and(|b| only_lost(b, e.line, focus_moved, selection_moved));
                self.focus_kept[k] = e.mark == ' ' && ((focus_moved && raw(e.line).contains(FOCUSED)) || (selection_moved && raw(e.line).contains(SELECTED)));
            }
            k += 1;
        }
        // An added line goes after the line before it: that one is printed, not left out.
        for k in 1..n {
            if self.entries[k].mark == '+' {
                self.left_out[k - 1] = false;
            }
        }
        let mut common: Option<Vec<usize>> = None;
        let mut k = 0;
        while k < n {
            let e = &self.entries[k];
            if e.mark != ' ' && !self.left_out[k] {
                let mut chain = Vec::new();
                let mut a = e.parent;
                while let Some(x) = a {
                    chain.push(x);
                    a = self.entries[x].parent;
                }
                chain.reverse();
                common = Some(match common {
                    None => chain,
                    Some(c) => c.iter().zip(&chain).take_while(|(a, b)| a == b).map(|(a, _)| *a).collect(),
                });
            }
            k += 1 + self.below[k];
        }
        self.within = common.and_then(|c| c.last().copied()).filter(|&a| !self.entries[a].line.head.is_empty());
    }

    fn visit(&mut self, k: usize) {
        let e = &self.entries[k];
        if self.said[k] || self.left_out[k] || (e.mark == ' ' && !self.focus_kept[k]) {
            return;
        }
        if e.mark == ' ' {
            self.unchanged(k);
            return;
        }
        if let Some(p) = e.parent.filter(|&p| Some(p) != self.within && self.entries[p].mark == ' ') {
            if !self.said[p] && self.last.is_none_or(|l| p > l) {
                self.unchanged(p);
            }
        }
        let e = &self.entries[k];
        if e.mark == '+' && k > 0 && self.last != Some(k - 1) && !self.said[k - 1] {
            // Where it goes: after its neighbour above.
            if self.entries[k - 1].mark == ' ' {
                self.unchanged(k - 1);
            }
        }
        let e = &self.entries[k];
        if e.line.refs.is_empty() && e.mark != '+' {
            self.tell_apart(k, e.mark == '-');
        }
        if self.entries[k].mark == '+' && !(k > 0 && self.entries[k - 1].mark == '+') {
            if let Some(place) = self.place(k) {
                self.body.push_str(&place);
                self.lines += 1;
            }
        }
        self.say(k);
    }

    /// `@ in list "Todos", after "Buy milk"\n`: where the added line `k`
    /// (the first of a run) goes, in words, when the line printed before it
    /// does not say so: a removed line of another depth or parent (the
    /// added one does not take its place), or a line inside the previous
    /// sibling that has twins (its words place nothing). The parent is left
    /// out when the first line names it, and the line is left out when
    /// neither parent nor sibling has words.
    fn place(&self, k: usize) -> Option<String> {
        let e = &self.entries[k];
        let before = &self.entries[self.printed_last?];
        let placed = match before.mark {
            '-' => before.line.depth == e.line.depth && before.parent == e.parent,
            _ => before.line.depth <= e.line.depth || before.line.refs.is_empty() || self.heads().get(before.line.head.as_str()).is_none_or(|&n| n < 2),
        };
        if placed {
            return None;
        }
        // The previous sibling in the new page.
        let sibling = self.entries[..k]
            .iter()
            .rev()
            .filter(|x| x.mark != '-')
            .find(|x| x.line.depth <= e.line.depth)
            .filter(|x| x.line.depth == e.line.depth)
            .map(|x| words(&x.line.head))
            .filter(|w| !w.is_empty());
        let parent = e.parent.map(|p| self.entries[p].line.head.as_str()).filter(|h| !h.is_empty()).filter(|_| e.parent != self.within || sibling.is_none());
        match (parent, sibling) {
            (None, None) => None,
            (Some(p), None) => Some(format!("@ first in {p}\n")),
            (None, Some(s)) => Some(format!("@ after {s}\n")),
            (Some(p), Some(s)) => Some(format!("@ in {p}, after {s}\n")),
        }
    }

    fn heads(&self) -> &HashMap<&'a str, usize> {
        self.heads.get_or_init(|| {
            let mut n = HashMap::new();
            for x in self.entries.iter().filter(|x| x.mark != '-' && !x.line.refs.is_empty()) {
                *n.entry(x.line.head.as_str()).or_insert(0) += 1;
            }
            n
        })
    }

    /// Prints an unchanged line, after what tells it apart.
    fn unchanged(&mut self, k: usize) {
        if self.entries[k].line.refs.is_empty() {
            self.tell_apart(k, true);
        }
        self.say(k);
    }

    /// Before the line of entry `k` (without refs), the unchanged lines
    /// above it that make it the first of its kind from the cursor on.
    fn tell_apart(&mut self, k: usize, exact: bool) {
        let Some(i) = self.entries[k].at else { return };
        let old = self.old;
        let same = |a: &Printed, b: &Printed| a.text == b.text && (!exact || a.depth == b.depth);
        if !old[self.cursor.min(i)..i].iter().any(|l| same(l, &old[i])) {
            return;
        }
        let mut m = i;
        while m > self.cursor {
            let e = self.entry_of[m - 1];
            // A line left out (it only lost the focus or the selection) is said after all when it places this one: by its ref.
            let placing = self.left_out[e] && !self.entries[e].line.refs.is_empty();
            if (self.entries[e].mark != ' ' && !placing) || self.said[e] {
                break;
            }
            m -= 1;
            let l = &old[m];
            if !l.refs.is_empty() || !old[self.cursor..m].iter().any(|x| x.text == l.text && x.depth == l.depth) {
                break;
            }
        }
        for j in m..i {
            let e = self.entry_of[j];
            self.say(e);
        }
    }

    fn say(&mut self, k: usize) {
        let e = &self.entries[k];
        let (mark, line, below) = (e.mark, e.line, self.below[k]);
        self.said[k] = true;
        self.last = Some(k + below);
        self.printed_last = Some(k);
        if let Some(j) = e.at {
            self.cursor = j + 1 + below;
        }
        for s in &mut self.said[k + 1..=k + below] {
            *s = true;
        }
        match mark {
            '+' => self.added += 1,
            '-' => self.removed += 1 + below,
            '~' => self.changed += 1,
            _ => {}
        }
        push_line(&mut self.body, mark, line);
        if below > 0 {
            self.body.pop();
            let plural = if below == 1 { "" } else { "s" };
            self.body.push_str(&format!(" (with {below} line{plural} below)\n"));
        }
        self.lines += 1;
        self.refs.extend_from_slice(&line.refs);
    }
}

/// What a line is called in a place line: its quoted name (`"Buy milk"`),
/// else its words quoted, list marks aside, cut at 40 characters.
fn words(head: &str) -> String {
    if let Some(open) = head.find('"') {
        if let Some(i) = closing_quote(&head[open + 1..]) {
            return head[open..open + 1 + i + 1].to_string();
        }
    }
    let w = head.trim_start_matches(['-', '|', '#', ' ']).trim();
    let w = w.split_once(". ").filter(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).map_or(w, |(_, rest)| rest);
    if w.is_empty() {
        return String::new();
    }
    match w.char_indices().nth(40) {
        Some((cut, _)) => format!("\"{}…\"", &w[..cut]),
        None => format!("\"{w}\""),
    }
}

/// A line as the full snapshot prints it.
fn raw(l: &Printed) -> String {
    let mut s = " ".repeat(l.depth);
    s.push_str(&l.text);
    s
}

const FOCUSED: &str = " focused";
/// One element of a list of options or tabs is selected, as one holds the focus.
const SELECTED: &str = " selected";

fn state_count(l: &Printed, state: &str) -> usize {
    raw(l).matches(state).count()
}

/// A changed line whose one change is that it lost the focus (when `focus`)
/// or the selection (when `selection`), or both.
fn only_lost(before: &Printed, now: &Printed, focus: bool, selection: bool) -> bool {
    let mut was = raw(before);
    for (on, state) in [(focus, FOCUSED), (selection, SELECTED)] {
        if on && state_count(before, state) > state_count(now, state) {
            was = was.replacen(state, "", 1);
        }
    }
    // Left out, it loses every state that moved: it must hold none of them now.
    let holds = |on: bool, state: &str| on && raw(now).contains(state);
    was == raw(now) && was != raw(before) && !holds(focus, FOCUSED) && !holds(selection, SELECTED)
}

const NO_CHANGE: &str = "no change since the previous snapshot";

/// The previous full snapshot `old` changed as the diff `diff` says: the
/// new full snapshot, or None when the diff does not fit it. This is what
/// a diff means, line by line: after the first line (the summary), each
/// line is a mark, a space and a line as the full snapshot prints it.
/// - `  ` an unchanged line: the first line from the cursor on that is it;
///   the lines before it are kept. The cursor moves after it.
/// - `- ` a removed line, found the same way, with the `N` lines below it
///   when it ends `(with N lines below)`.
/// - `~ ` a changed line as it is now: the first line from the cursor on
///   with the same first ref (without one: the same words at any depth).
/// - `+ ` an added line, put at the cursor.
/// - `@ ` where the next added line goes, in words: changes nothing.
///
/// The rest of the old lines are kept. When the diff shows a line that
/// gained the focus, each kept line that was not printed loses it; when it
/// shows a line that gained the selection (`selected`), each kept line not
/// printed among its siblings (the lines of its depth up to one less deep)
/// loses that.
pub fn patch(old: &str, diff: &str) -> Option<String> {
    let old: Vec<&str> = old.lines().collect();
    let mut lines = diff.lines();
    if lines.next()? == NO_CHANGE {
        return Some(old.iter().map(|l| format!("{l}\n")).collect());
    }
    // Each new line, and whether it is an old line kept without being printed.
    let mut out: Vec<(String, bool)> = Vec::with_capacity(old.len());
    let mut cursor = 0;
    let mut focus_moved = false;
    // Where in `out` a line gained the selection.
    let mut selected = Vec::new();
    let find = |from: usize, hit: &dyn Fn(&str) -> bool| (from..old.len()).find(|&x| hit(old[x]));
    for entry in lines {
        let (mark, line) = (entry.chars().next()?, entry.get(2..)?);
        let keep_to = |out: &mut Vec<(String, bool)>, to: usize, cursor: usize| out.extend(old[cursor..to].iter().map(|l| (l.to_string(), true)));
        match mark {
            ' ' | '-' => {
                let (line, below) = match (mark, line.strip_suffix(" line below)").or_else(|| line.strip_suffix(" lines below)"))) {
                    ('-', Some(rest)) => match rest.rsplit_once(" (with ") {
                        Some((line, n)) => (line, n.parse::<usize>().ok()?),
                        None => (line, 0),
                    },
                    _ => (line, 0),
                };
                let at = find(cursor, &|l| l == line)?;
                keep_to(&mut out, at, cursor);
                if mark == ' ' {
                    out.push((line.to_string(), false));
                }
                cursor = at + 1 + below;
                if cursor > old.len() {
                    return None;
                }
            }
            '~' => {
                let at = match first_ref(line) {
                    Some(r) => find(cursor, &|l| first_ref(l) == Some(r))?,
                    None => find(cursor, &|l| l.trim_start() == line.trim_start())?,
                };
                keep_to(&mut out, at, cursor);
                focus_moved |= line.matches(FOCUSED).count() > old[at].matches(FOCUSED).count();
                if line.matches(SELECTED).count() > old[at].matches(SELECTED).count() {
                    selected.push(out.len());
                }
                out.push((line.to_string(), false));
                cursor = at + 1;
            }
            // Where the next change is, in words: for the reader only.
            '@' => {}
            '+' => {
                focus_moved |= line.contains(FOCUSED);
                if line.contains(SELECTED) {
                    selected.push(out.len());
                }
                out.push((line.to_string(), false));
            }
            _ => return None,
        }
    }
    out.extend(old[cursor..].iter().map(|l| (l.to_string(), true)));
    let depth = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let mut unselect = vec![false; out.len()];
    for i in selected {
        let d = depth(&out[i].0);
        let first = (0..i).rev().take_while(|&x| depth(&out[x].0) >= d).last().unwrap_or(i);
        let end = (i + 1..out.len()).find(|&x| depth(&out[x].0) < d).unwrap_or(out.len());
        for x in first..end {
            unselect[x] |= out[x].1 && depth(&out[x].0) == d;
        }
    }
    for (_, (l, _)) in out.iter_mut().enumerate().filter(|&(x, _)| unselect[x]) {
        *l = l.replacen(SELECTED, "", 1);
    }
    Some(
        out.into_iter()
            .map(|(l, kept)| if kept && focus_moved { l.replacen(FOCUSED, "", 1) } else { l })
            .map(|l| l + "\n")
            .collect(),
    )
}

/// The first word of a line that is a ref (`A12`).
fn first_ref(line: &str) -> Option<&str> {
    line.split([' ', '\u{a0}']).find(|w| w.len() > 1 && w.starts_with('A') && w[1..].bytes().all(|b| b.is_ascii_digit()))
}

fn push_line(out: &mut String, mark: char, line: &Printed) {
    out.push(mark);
    out.push(' ');
    for _ in 0..line.depth {
        out.push(' ');
    }
    out.push_str(&line.text);
    out.push('\n');
}

/// `+3 -1 ~2 in dialog "Sign in"`: the lines the diff marks added, removed
/// and changed, by their marks (a count of none is left out), and the
/// innermost line holding them all.
pub fn summary(d: &Diff, within: Option<&Printed>) -> String {
    if d.is_empty() {
        return NO_CHANGE.to_string();
    }
    let counts: Vec<String> = [('+', d.added), ('-', d.removed), ('~', d.changed)].iter().filter(|(_, n)| *n > 0).map(|(m, n)| format!("{m}{n}")).collect();
    let mut s = counts.join(" ");
    if let Some(w) = within.filter(|w| !w.head.is_empty()) {
        s.push_str(" in ");
        s.push_str(&w.head);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(depth: usize, text: &str, refs: &[u32]) -> Printed {
        let kind = if text.starts_with('#') { Kind::Heading } else { Kind::Text };
        Printed::of(depth, kind, text, refs)
    }

    fn page() -> Vec<Printed> {
        vec![
            line(0, "page \"Shop\"", &[]),
            line(0, "main", &[]),
            line(1, "# Cart", &[]),
            line(1, "dialog \"Sign in\"", &[]),
            line(2, "textbox A1 \"Email\"", &[1]),
            line(2, "button A2 \"Send\"", &[2]),
            line(2, "Enter your email.", &[]),
            line(0, "footer", &[]),
        ]
    }

    #[test]
    fn unchanged_page_is_an_empty_diff() {
        let d = diff(&page(), &page());
        assert!(d.is_empty());
        assert_eq!(print(&page(), &d).text, "no change since the previous snapshot\n");
    }

    #[test]
    fn changes_are_marked_with_their_context_and_summarised() {
        let old = page();
        let mut new = page();
        new[4] = line(2, "textbox A1 \"Email\" invalid: ada@", &[1]);
        new[5] = line(2, "textbox A3 \"Code\"", &[3]);
        new.insert(6, line(2, "button A4 \"Verify\"", &[4]));
        let d = diff(&old, &new);
        assert_eq!((d.added, d.removed, d.changed), (2, 1, 1));
        assert_eq!(apply(&old, &d), new);
        assert_eq!(
            print(&old, &d).text,
            "+2 -1 ~1 in dialog \"Sign in\"\n~   textbox A1 \"Email\" invalid: ada@\n-   button A2 \"Send\"\n+   textbox A3 \"Code\"\n+   button A4 \"Verify\"\n"
        );
    }

    #[test]
    fn a_removed_line_takes_the_removed_lines_below_it_along() {
        let old = vec![line(0, "list", &[]), line(1, "- checkbox A1 \"Milk\"", &[1]), line(2, "Milk", &[]), line(2, "button A2 \"Edit\"", &[2]), line(1, "- checkbox A3 \"Rent\"", &[3])];
        let new = vec![line(0, "list", &[]), line(1, "- checkbox A3 \"Rent\"", &[3])];
        let d = diff(&old, &new);
        assert_eq!((d.added, d.removed, d.changed), (0, 3, 0));
        assert_eq!(print(&old, &d).text, "-3 in list\n-  - checkbox A1 \"Milk\" (with 2 lines below)\n");
    }

    #[test]
    fn the_line_that_only_lost_the_focus_is_left_out_when_the_focus_moved() {
        let old = vec![line(0, "form", &[]), line(1, "textbox A1 \"Name\" focused: Ada", &[1]), line(1, "button A2 \"Next\"", &[2])];
        let moved = vec![line(0, "form", &[]), line(1, "textbox A1 \"Name\": Ada", &[1]), line(1, "button A2 \"Next\" focused", &[2])];
        let d = diff(&old, &moved);
        assert_eq!(d.changed, 2);
        assert_eq!(print(&old, &d).text, "~1 in form\n~  button A2 \"Next\" focused\n");
        // Focus gone nowhere the snapshot shows: the line says it.
        let lost = vec![line(0, "form", &[]), line(1, "textbox A1 \"Name\": Ada", &[1]), line(1, "button A2 \"Next\"", &[2])];
        assert_eq!(print(&old, &diff(&old, &lost)).text, "~1 in form\n~  textbox A1 \"Name\": Ada\n");
    }

    #[test]
    fn the_option_that_only_lost_the_selection_is_left_out_when_a_sibling_gained_it() {
        let old = vec![line(0, "combobox A1 \"Size\": S", &[1]), line(1, "option A2 \"S\" selected", &[2]), line(1, "option A3 \"M\"", &[3]), line(0, "tab A4 \"One\" selected", &[4])];
        let new = vec![line(0, "combobox A1 \"Size\": M", &[1]), line(1, "option A2 \"S\"", &[2]), line(1, "option A3 \"M\" selected", &[3]), line(0, "tab A4 \"One\" selected", &[4])];
        let shown = print(&old, &diff(&old, &new));
        // The tab is no sibling of the options: it keeps its selection.
        assert_eq!(shown.text, "~2\n~ combobox A1 \"Size\": M\n~  option A3 \"M\" selected\n");
        assert_eq!(patch(&full(&old), &shown.text).as_deref(), Some(full(&new).as_str()));
    }

    #[test]
    fn an_added_line_the_line_above_does_not_place_says_where_it_goes_in_words() {
        let shop = |rows: &[(&str, u32)], field: &str, add: &str, left: &str| {
            let mut l = vec![line(0, "main", &[]), line(1, "form", &[]), line(2, field, &[0]), line(2, add, &[1]), line(1, "list \"Todos\"", &[])];
            for &(name, r) in rows {
                l.push(line(2, &format!("- checkbox A{r} \"{name}\""), &[r]));
                l.push(line(3, &format!("button A{} \"Delete\"", r + 1), &[r + 1]));
            }
            l.extend([line(1, left, &[]), line(1, "button A9 \"Clear completed\"", &[9])]);
            l
        };
        let old = shop(&[("Buy milk", 2), ("Return the books", 4)], "textbox A0 \"Item\" focused: Apples", "button A1 \"Add\"", "2 to buy");
        // Added at the end of the list: the line printed before it is the count below the list, removed.
        let new = shop(&[("Buy milk", 2), ("Return the books", 4), ("Apples", 6)], "textbox A0 \"Item\"", "button A1 \"Add\" focused", "3 to buy");
        let shown = print(&old, &diff(&old, &new));
        assert_eq!(
            shown.text,
            "+3 -1 ~2 in main\n   form\n~   textbox A0 \"Item\"\n~   button A1 \"Add\" focused\n-  2 to buy\n@ in list \"Todos\", after \"Return the books\"\n+   - checkbox A6 \"Apples\"\n+    button A7 \"Delete\"\n+  3 to buy\n"
        );
        assert_eq!(patch(&full(&old), &shown.text).as_deref(), Some(full(&new).as_str()));
        // Added between rows: the line above it is a twin's ("Delete"), which says nothing of where.
        let field = "textbox A0 \"Item\" focused: Apples";
        let new = shop(&[("Buy milk", 2), ("Apples", 6), ("Return the books", 4)], field, "button A1 \"Add\"", "2 to buy");
        let shown = print(&old, &diff(&old, &new));
        assert_eq!(shown.text, "+2 in list \"Todos\"\n     button A3 \"Delete\"\n@ after \"Buy milk\"\n+   - checkbox A6 \"Apples\"\n+    button A7 \"Delete\"\n");
        assert_eq!(patch(&full(&old), &shown.text).as_deref(), Some(full(&new).as_str()));
        // First in the list: said so.
        let new = shop(&[("Apples", 6), ("Buy milk", 2), ("Return the books", 4)], field, "button A1 \"Add\"", "2 to buy");
        assert_eq!(print(&old, &diff(&old, &new)).text, "+2 in list \"Todos\"\n   list \"Todos\"\n+   - checkbox A6 \"Apples\"\n+    button A7 \"Delete\"\n");
    }

    #[test]
    fn a_moved_line_is_removed_and_added() {
        let old = page();
        let mut new = page();
        new.swap(4, 5);
        let d = diff(&old, &new);
        assert_eq!((d.added, d.removed, d.changed), (1, 1, 0));
        assert_eq!(apply(&old, &d), new);
    }

    #[test]
    fn a_line_holding_refs_is_headed_by_what_it_names_its_refs_aside() {
        use crate::lines::{Line, Lines};
        let t = |s: &str| Segment::Text(s.to_string());
        let doc = Lines {
            lines: vec![
                Line::segments(0, Kind::Text, vec![t("button "), Segment::Ref(3), t(" \"OK\" focused")]),
                Line::segments(0, Kind::Text, vec![t("Password "), Segment::Ref(4), t(" [Forgot?]"), Segment::Url(0), t(" more")]),
                Line::segments(0, Kind::Text, vec![Segment::Ref(5), t(" "), Segment::Ref(6), t(" [Title]"), Segment::Url(0)]),
            ],
            urls: vec!["/f".to_string()],
            references: vec![0],
            unmarked: vec![None],
        };
        let heads: Vec<String> = printed(&doc).into_iter().map(|p| p.head).collect();
        assert_eq!(heads, ["button \"OK\"", "Password [Forgot?](/f)", "[Title](/f)"]);
    }

    #[test]
    fn repeated_text_is_told_apart_by_its_place() {
        let old = vec![line(0, "- Item", &[]), line(0, "- Item", &[]), line(0, "button A1 \"x\"", &[1]), line(1, "Item", &[])];
        let new = vec![line(0, "- Item", &[]), line(0, "button A1 \"x\"", &[1]), line(1, "Item", &[]), line(1, "Item", &[])];
        let d = diff(&old, &new);
        assert_eq!((d.added, d.removed, d.changed), (1, 1, 0));
        assert_eq!(apply(&old, &d), new);
    }

    use proptest::prelude::*;

    /// Random snapshots: a few texts (some holding the focus), depths that
    /// nest by at most one, refs unique per snapshot and shared between the
    /// two as a page's would be.
    fn arb_lines() -> impl Strategy<Value = Vec<Printed>> {
        prop::collection::vec((0usize..4, 0usize..9, prop::option::of(0u32..12)), 0..30).prop_map(|specs| {
            let mut used = std::collections::HashSet::new();
            let mut depth = 0;
            specs
                .into_iter()
                .map(|(d, t, r)| {
                    depth = d.min(depth + 1);
                    let word = ["Item", "button \"Go\"", "# Title", "Some text", "link", "textbox \"Name\" focused", "focused", "tab \"A\" selected", "option \"B\" selected focused"][t];
                    match r.filter(|r| used.insert(*r)) {
                        Some(r) => line(depth, &format!("{word} A{r}"), &[r]),
                        None => line(depth, word, &[]),
                    }
                })
                .collect()
        })
    }

    /// The lines as the full snapshot prints them.
    fn full(lines: &[Printed]) -> String {
        lines.iter().map(|l| format!("{}{}\n", " ".repeat(l.depth), l.text)).collect()
    }

    /// The old lines after a few edits: changed, removed, added, moved.
    fn arb_pair() -> impl Strategy<Value = (Vec<Printed>, Vec<Printed>)> {
        (arb_lines(), prop::collection::vec((0usize..7, any::<prop::sample::Index>(), 0usize..5), 0..6), 100u32..140).prop_map(|(old, edits, fresh)| {
            let mut new = old.clone();
            for (n, (kind, at, t)) in edits.into_iter().enumerate() {
                let i = at.index(new.len() + 1);
                let word = ["Item", "Some text", "checkbox \"Done\"", "focused", "tab \"C\" selected"][t];
                match kind {
                    0 if i < new.len() => new[i].text.push_str(" focused"),
                    5 if i < new.len() => new[i].text = new[i].text.replacen(" selected", "", 1),
                    6 if i < new.len() => new[i].text.push_str(" selected"),
                    1 if i < new.len() => {
                        new.remove(i);
                    }
                    2 if i < new.len() => new[i].depth = new[i].depth.saturating_sub(1),
                    3 => {
                        let r = fresh + n as u32;
                        new.insert(i, line(0, &format!("{word} A{r}"), &[r]));
                    }
                    _ => new.insert(i.min(new.len()), line(i % 3, word, &[])),
                }
            }
            (old, new)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

        #[test]
        fn applying_the_diff_to_the_old_lines_gives_the_new(old in arb_lines(), new in arb_lines()) {
            let d = diff(&old, &new);
            prop_assert_eq!(apply(&old, &d), new.clone());
            let marks = d.ops.iter().filter(|op| !matches!(op, Op::Keep(_))).count();
            prop_assert_eq!(marks, d.added + d.removed + d.changed);
            prop_assert!(diff(&new, &new).is_empty());
            the_text_makes_the_new_snapshot(&old, &new)?;
        }

        #[test]
        fn a_few_edits_are_said_exactly(pair in arb_pair()) {
            the_text_makes_the_new_snapshot(&pair.0, &pair.1)?;
        }
    }

    /// The contract: the old full text and the diff's text alone give the new
    /// full text, line by line, refs included; the first line counts what it marks.
    fn the_text_makes_the_new_snapshot(old: &[Printed], new: &[Printed]) -> Result<(), TestCaseError> {
        let shown = print(old, &diff(old, new));
        let patched = patch(&full(old), &shown.text);
        let want = full(new);
        prop_assert_eq!(patched.as_deref(), Some(want.as_str()), "old:\n{}diff:\n{}", full(old), shown.text);
        let body: Vec<&str> = shown.text.lines().skip(1).collect();
        let count = |m: char| body.iter().filter(|l| l.starts_with(m)).count();
        let taken_along: usize = body.iter().filter_map(|l| l.strip_suffix(" below)")?.rsplit(" (with ").next()?.split(' ').next()?.parse::<usize>().ok()).sum();
        prop_assert_eq!((count('+'), count('-') + taken_along, count('~')), (shown.added, shown.removed, shown.changed));
        Ok(())
    }
}
