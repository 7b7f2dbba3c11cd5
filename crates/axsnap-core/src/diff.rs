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
        // The closing quote of the name: the first not escaped.
        let mut escaped = false;
        b[name..].char_indices().find(|&(_, c)| {
            let close = c == '"' && !escaped;
            escaped = c == '\\' && !escaped;
            close
        }).map_or(b.len(), |(i, _)| name + i + 1)
    } else if let Some(at) = b.find("](").or_else(|| b.find("][")) {
        let close = if b[at + 1..].starts_with('(') { ')' } else { ']' };
        b[at + 2..].find(close).map_or(b.len(), |i| at + 2 + i + 1)
    } else {
        b.len()
    };
    b[..end].trim_end().to_string()
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
}

/// The diff as text: a summary line, then each changed line marked `+ `
/// (added), `- ` (removed) or `~ ` (changed, as it is now) and then printed
/// as in the full format, after the unchanged lines that place it (its
/// parent line and its section's heading), marked with two spaces. Two
/// things are said once rather than line by line: a removed line takes the
/// removed lines below it along (`(with 3 lines below)`), and when the focus
/// moved to a line the diff shows, the line that only lost it is left out.
pub fn print(old: &[Printed], d: &Diff) -> DiffText {
    let entries: Vec<(char, &Printed)> = d
        .ops
        .iter()
        .map(|op| match op {
            Op::Keep(j) => (' ', &old[*j]),
            Op::Change(_, l) => ('~', l),
            Op::Add(l) => ('+', l),
            Op::Remove(j) => ('-', &old[*j]),
        })
        .collect();
    let mut shown = vec![false; entries.len()];
    let mut out = String::new();
    let mut common: Option<Vec<usize>> = None;
    // Ancestors of each entry: of a removed line among the old lines, of
    // any other among the new.
    let (mut old_stack, mut new_stack): (Vec<usize>, Vec<usize>) = (Vec::new(), Vec::new());
    let mut body = String::new();
    let (mut lines, mut refs) = (1, Vec::new());
    let mut push = |body: &mut String, mark: char, line: &Printed| {
        push_line(body, mark, line);
        lines += 1;
        refs.extend_from_slice(&line.refs);
    };
    let focus_moved = d.ops.iter().any(|op| gains_focus(op, old));
    // Removed lines already said by a removed line above them.
    let mut below = 0;
    for (k, &(mark, line)) in entries.iter().enumerate() {
        let (in_old, in_new) = (mark != '+', mark != '-');
        if in_old {
            while old_stack.last().is_some_and(|&a| entries[a].1.depth >= line.depth) {
                old_stack.pop();
            }
        }
        if in_new {
            while new_stack.last().is_some_and(|&a| entries[a].1.depth >= line.depth) {
                new_stack.pop();
            }
        }
        let ancestors = if in_new { new_stack.clone() } else { old_stack.clone() };
        if in_old {
            old_stack.push(k);
        }
        if in_new {
            new_stack.push(k);
        }
        if mark == ' ' {
            continue;
        }
        if below > 0 {
            below -= 1;
            shown[k] = true;
            continue;
        }
        if focus_moved && mark == '~' && only_lost_focus(old_line(&d.ops[k], old), line) {
            continue;
        }
        common = Some(match common {
            None => ancestors.clone(),
            Some(c) => c.iter().zip(&ancestors).take_while(|(a, b)| a == b).map(|(a, _)| *a).collect(),
        });
        let parent = ancestors.last().copied();
        let mut context: Vec<usize> = parent.into_iter().filter(|&a| !shown[a]).collect();
        // The section this line is in: the nearest heading before it among its siblings.
        let from = parent.map_or(0, |p| p + 1);
        let heading = (from..k).rev().take(400).find(|&h| {
            entries[h].0 == ' ' && entries[h].1.kind == Kind::Heading && entries[h].1.depth == line.depth
        });
        context.extend(heading.filter(|&h| !shown[h]));
        for c in context {
            shown[c] = true;
            push(&mut body, entries[c].0, entries[c].1);
        }
        shown[k] = true;
        if mark == '-' {
            below = entries[k + 1..].iter().take_while(|&&(m, l)| m == '-' && l.depth > line.depth).count();
        }
        if below > 0 {
            let plural = if below == 1 { "" } else { "s" };
            let with = Printed { text: format!("{} (with {below} line{plural} below)", line.text), ..line.clone() };
            push(&mut body, mark, &with);
        } else {
            push(&mut body, mark, line);
        }
    }
    out.push_str(&summary(d, common.as_deref().and_then(<[usize]>::last).map(|&a| entries[a].1)));
    out.push('\n');
    out.push_str(&body);
    DiffText { text: out, lines, refs }
}

/// The old line a changed or removed op stands for.
fn old_line<'a>(op: &Op, old: &'a [Printed]) -> Option<&'a Printed> {
    match op {
        Op::Change(j, _) | Op::Remove(j) | Op::Keep(j) => old.get(*j),
        Op::Add(_) => None,
    }
}

const FOCUSED: &str = " focused";

/// A line now holding the focus that it did not hold before.
fn gains_focus(op: &Op, old: &[Printed]) -> bool {
    let focused = |l: &Printed| l.text.matches(FOCUSED).count();
    match op {
        Op::Add(l) => focused(l) > 0,
        Op::Change(j, l) => focused(l) > old.get(*j).map_or(0, focused),
        _ => false,
    }
}

/// A changed line whose one change is that it lost the focus.
fn only_lost_focus(before: Option<&Printed>, now: &Printed) -> bool {
    before.is_some_and(|b| {
        b.depth == now.depth
            && b.text.find(FOCUSED).is_some_and(|at| {
                b.text.len() == now.text.len() + FOCUSED.len()
                    && now.text.get(..at) == Some(&b.text[..at])
                    && now.text.get(at..) == Some(&b.text[at + FOCUSED.len()..])
            })
    })
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

/// `3 added, 1 removed, 2 changed in dialog "Sign in"`
pub fn summary(d: &Diff, within: Option<&Printed>) -> String {
    if d.is_empty() {
        return "no change since the previous snapshot".to_string();
    }
    let mut parts = Vec::new();
    for (n, word) in [(d.added, "added"), (d.removed, "removed"), (d.changed, "changed")] {
        if n > 0 {
            parts.push(format!("{n} {word}"));
        }
    }
    let mut s = parts.join(", ");
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
            "2 added, 1 removed, 1 changed in dialog \"Sign in\"\n   dialog \"Sign in\"\n~   textbox A1 \"Email\" invalid: ada@\n-   button A2 \"Send\"\n+   textbox A3 \"Code\"\n+   button A4 \"Verify\"\n"
        );
    }

    #[test]
    fn a_removed_line_takes_the_removed_lines_below_it_along() {
        let old = vec![line(0, "list", &[]), line(1, "- checkbox A1 \"Milk\"", &[1]), line(2, "Milk", &[]), line(2, "button A2 \"Edit\"", &[2]), line(1, "- checkbox A3 \"Rent\"", &[3])];
        let new = vec![line(0, "list", &[]), line(1, "- checkbox A3 \"Rent\"", &[3])];
        let d = diff(&old, &new);
        assert_eq!((d.added, d.removed, d.changed), (0, 3, 0));
        assert_eq!(print(&old, &d).text, "3 removed in list\n  list\n-  - checkbox A1 \"Milk\" (with 2 lines below)\n");
    }

    #[test]
    fn the_line_that_only_lost_the_focus_is_left_out_when_the_focus_moved() {
        let old = vec![line(0, "form", &[]), line(1, "textbox A1 \"Name\" focused: Ada", &[1]), line(1, "button A2 \"Next\"", &[2])];
        let moved = vec![line(0, "form", &[]), line(1, "textbox A1 \"Name\": Ada", &[1]), line(1, "button A2 \"Next\" focused", &[2])];
        let d = diff(&old, &moved);
        assert_eq!(d.changed, 2);
        assert_eq!(print(&old, &d).text, "2 changed in form\n  form\n~  button A2 \"Next\" focused\n");
        // Focus gone nowhere the snapshot shows: the line says it.
        let lost = vec![line(0, "form", &[]), line(1, "textbox A1 \"Name\": Ada", &[1]), line(1, "button A2 \"Next\"", &[2])];
        assert_eq!(print(&old, &diff(&old, &lost)).text, "1 changed in form\n  form\n~  textbox A1 \"Name\": Ada\n");
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

    /// Random snapshots: a few texts, depths that nest by at most one, refs
    /// unique per snapshot and shared between the two as a page's would be.
    fn arb_lines() -> impl Strategy<Value = Vec<Printed>> {
        prop::collection::vec((0usize..4, 0usize..5, prop::option::of(0u32..12)), 0..30).prop_map(|specs| {
            let mut used = std::collections::HashSet::new();
            let mut depth = 0;
            specs
                .into_iter()
                .map(|(d, t, r)| {
                    depth = d.min(depth + 1);
                    let word = ["Item", "button \"Go\"", "# Title", "Some text", "link"][t];
                    match r.filter(|r| used.insert(*r)) {
                        Some(r) => line(depth, &format!("{word} A{r}"), &[r]),
                        None => line(depth, word, &[]),
                    }
                })
                .collect()
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

        #[test]
        fn applying_the_diff_to_the_old_lines_gives_the_new(old in arb_lines(), new in arb_lines()) {
            let d = diff(&old, &new);
            prop_assert_eq!(apply(&old, &d), new.clone());
            let marks = d.ops.iter().filter(|op| !matches!(op, Op::Keep(_))).count();
            prop_assert_eq!(marks, d.added + d.removed + d.changed);
            let shown = print(&old, &d);
            let changed: Vec<&str> = shown.text.lines().skip(1).filter(|l| !l.starts_with("  ")).collect();
            let taken_along: usize = changed.iter().filter_map(|l| l.split(" (with ").nth(1)?.split(' ').next()?.parse::<usize>().ok()).sum();
            prop_assert_eq!(changed.len() + taken_along, marks, "every change is printed once: {}", shown.text);
            prop_assert!(diff(&new, &new).is_empty());
        }
    }
}
