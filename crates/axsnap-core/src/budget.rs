//! Budgets over the line model: a depth limit, run collapsing and a
//! character cap. Each cuts on line boundaries and says what it left out;
//! the cap also decides which link URLs become Markdown references. They
//! work the same on text lines and JSON rows.

use crate::lines::{Kind, Line, Lines, Segment};
use crate::options::Format;
use crate::render::print::{self, digits};

/// Room kept for the closing note, so the capped output never exceeds the cap.
const NOTE_ROOM: usize = 160;

/// Replaces each run of lines deeper than `max` by one line saying so;
/// returns how many lines it hid.
pub fn limit_depth(doc: &mut Lines, max: Option<usize>) -> usize {
    let Some(max) = max else { return 0 };
    let lines = std::mem::take(&mut doc.lines);
    let mut out = Vec::with_capacity(lines.len());
    let mut hidden = 0;
    let (mut run_lines, mut run_refs) = (0usize, 0usize);
    let close = |out: &mut Vec<Line>, n: &mut usize, r: &mut usize| {
        if *n > 0 {
            let text = format!("… {n} deeper lines ({r} refs); snapshot a subtree by ref to see them");
            out.push(Line::note(max + 1, *n, *r, text));
        }
        *n = 0;
        *r = 0;
    };
    for l in lines {
        if l.depth > max {
            run_lines += 1;
            run_refs += l.ref_count();
            hidden += 1;
        } else {
            close(&mut out, &mut run_lines, &mut run_refs);
            out.push(l);
        }
    }
    close(&mut out, &mut run_lines, &mut run_refs);
    doc.lines = out;
    hidden
}

/// Runs of more than this many sibling items of one shape are shortened in
/// capped output…
const RUN_MAX: usize = 40;
/// …to their first this many, and one line saying how many more there are.
const RUN_KEEP: usize = 25;

/// In capped output, a long run of same-shaped siblings (list items, table
/// rows, links, elements of one role) keeps its first items and one line
/// saying how many more there are and how many refs they hold, so the cap
/// reaches the rest of the page. Nothing is collapsed silently. Returns how
/// many lines it left out.
pub fn collapse_runs(doc: &mut Lines) -> usize {
    let lines = std::mem::take(&mut doc.lines);
    let shapes: Vec<Option<Shape>> = lines.iter().map(|l| shape(&l.kind)).collect();
    let mut out = Vec::with_capacity(lines.len());
    let mut lines: Vec<Option<Line>> = lines.into_iter().map(Some).collect();
    let collapsed = collapse_in(&mut lines, &shapes, 0, &mut out);
    doc.lines = out;
    collapsed
}

/// Walks sibling items of `lines[from..]` (which start at one depth),
/// collapsing long runs, and recurses into each kept item's deeper lines.
fn collapse_in(lines: &mut [Option<Line>], shapes: &[Option<Shape>], base: usize, out: &mut Vec<Line>) -> usize {
    let depth_of = |lines: &[Option<Line>], i: usize| lines[i].as_ref().map_or(0, |l| l.depth);
    let mut collapsed = 0;
    let mut i = 0;
    while i < lines.len() {
        let depth = depth_of(lines, i);
        let shape = &shapes[base + i];
        let mut items = vec![i];
        let mut j = item_end(lines, i);
        while shape.is_some() && j < lines.len() && depth_of(lines, j) == depth && &shapes[base + j] == shape {
            items.push(j);
            j = item_end(lines, j);
        }
        let keep_until = if items.len() > RUN_MAX { items[RUN_KEEP] } else { j };
        let mut k = i;
        while k < keep_until {
            let end = item_end(lines, k);
            out.extend(lines[k].take());
            collapsed += collapse_in(&mut lines[k + 1..end], shapes, base + k + 1, out);
            k = end;
        }
        if keep_until < j {
            let more = items.len() - RUN_KEEP;
            let (hidden, refs) = sum_stands_for(lines[keep_until..j].iter().flatten());
            collapsed += j - keep_until;
            let text = format!("… {more} more like these ({refs} refs) not shown: ask for the full snapshot to see them");
            out.push(Line::note(depth, hidden, refs, text));
        }
        i = j;
    }
    collapsed
}

/// What some lines stand for in the full snapshot: lines, refs.
fn sum_stands_for<'a>(lines: impl Iterator<Item = &'a Line>) -> (usize, usize) {
    lines.map(Line::stands_for).fold((0, 0), |(a, b), (l, r)| (a + l, b + r))
}

fn item_end(lines: &[Option<Line>], start: usize) -> usize {
    let depth = lines[start].as_ref().map_or(0, |l| l.depth);
    let mut j = start + 1;
    while j < lines.len() && lines[j].as_ref().is_some_and(|l| l.depth > depth) {
        j += 1;
    }
    j
}

/// Which siblings form a run: list items (bulleted or numbered) by what they
/// start with, table rows, links, elements of one role. Headings and prose
/// are never a repeated structure.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Shape {
    Row,
    Item { numbered: bool, first: Start },
    Plain(Start),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Start {
    Link,
    /// An element's role word (two roles printed alike are one shape).
    Role(String),
    /// Text, or an element whose role word is not one plain lowercase word.
    Other,
}

fn shape(kind: &Kind) -> Option<Shape> {
    match kind {
        Kind::Row => Some(Shape::Row),
        Kind::ListItem { numbered, first } => {
            let first = match first.as_deref() {
                Some(Kind::Heading | Kind::Link { same_page: true }) => return None,
                Some(k) => start(k),
                None => Start::Other,
            };
            Some(Shape::Item { numbered: *numbered, first })
        }
        k => match start(k) {
            Start::Other => None,
            s => Some(Shape::Plain(s)),
        },
    }
}

fn start(kind: &Kind) -> Start {
    let word = match kind {
        Kind::Link { same_page: false } => return Start::Link,
        Kind::Page => "page",
        Kind::Element(role) => role.display(),
        _ => return Start::Other,
    };
    if !word.is_empty() && word.bytes().all(|b| b.is_ascii_lowercase()) {
        Start::Role(word.to_string())
    } else {
        Start::Other
    }
}

/// Decides which URLs become references (`[Docs][3]`, defined once after
/// the content as `[3]: /docs`), then keeps whole lines while they fit in
/// `max` characters, the references decided on the kept lines only, and
/// ends with one note saying what was left out (counting what the notes it
/// cut stood for). Returns how many lines it left out, notes aside.
pub fn fit(doc: &mut Lines, format: Format, max: Option<usize>) -> usize {
    let sizes: Vec<usize> = doc.lines.iter().map(|l| print::fixed_size(format, doc, l)).collect();
    let slots: Vec<Vec<usize>> = doc.lines.iter().map(|l| l.urls().collect()).collect();
    let url_chars: Vec<usize> = doc.urls.iter().map(|u| u.chars().count()).collect();
    let plan = |keep: usize| Plan::new(&slots[..keep], &url_chars);
    let size = |keep: usize, plan: &Plan| {
        let fixed: usize = sizes[..keep].iter().sum();
        fixed + plan.size(&slots[..keep], &url_chars) + print::frame_size(format)
    };
    let total = doc.lines.len();
    let mut kept = total;
    let mut chosen = plan(total);
    if let Some(max) = max {
        if size(total, &chosen) > max {
            // The longest prefix whose lines, references and note fit.
            // Adding a line never shortens the output, so the search is sound.
            let budget = max.saturating_sub(NOTE_ROOM);
            let (mut lo, mut hi) = (0, total);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if size(mid, &plan(mid)) <= budget {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            kept = lo;
            chosen = plan(kept);
        }
    }
    let (hidden, refs) = sum_stands_for(doc.lines[kept..].iter());
    let omitted = doc.lines[kept..].iter().filter(|l| !matches!(l.kind, Kind::Note { .. })).count();
    doc.lines.truncate(kept);
    for &i in &chosen.order {
        let text = format!("[{}]: {}", chosen.number[i], doc.urls[i]);
        doc.lines.push(Line::segments(0, Kind::Reference, vec![Segment::Text(text)]));
    }
    doc.references = chosen.number;
    if let (Some(max), true) = (max, kept < total) {
        let text = format!("… cut at {max} chars: {hidden} more lines with {refs} refs. Ask for the full snapshot, or a subtree by ref.");
        doc.lines.push(Line::note(0, hidden, refs, text));
    }
    omitted
}

/// Which URLs of some lines are printed as references, numbered in order of
/// first use, only where a reference is shorter than the URLs inline.
struct Plan {
    /// Per URL: its reference number, or 0.
    number: Vec<usize>,
    /// URLs with a number, in number order.
    order: Vec<usize>,
}

impl Plan {
    fn new(slots: &[Vec<usize>], url_chars: &[usize]) -> Plan {
        let mut uses = vec![0usize; url_chars.len()];
        for &i in slots.iter().flatten() {
            uses[i] += 1;
        }
        let mut number = vec![0usize; url_chars.len()];
        let mut seen = vec![false; url_chars.len()];
        let mut order = Vec::new();
        for &i in slots.iter().flatten() {
            if !std::mem::replace(&mut seen[i], true) && worth_a_reference(url_chars[i], uses[i], order.len() + 1) {
                order.push(i);
                number[i] = order.len();
            }
        }
        Plan { number, order }
    }

    /// Characters the URLs add: `(url)` or `[n]` per use, and one table
    /// line `[n]: url` per reference.
    fn size(&self, slots: &[Vec<usize>], url_chars: &[usize]) -> usize {
        let uses: usize = slots
            .iter()
            .flatten()
            .map(|&i| match self.number[i] {
                0 => url_chars[i] + 2,
                n => digits(n) + 2,
            })
            .sum();
        let table: usize = self.order.iter().map(|&i| digits(self.number[i]) + 4 + url_chars[i] + 1).sum();
        uses + table
    }
}

/// `uses` inline copies `(url)` cost more than `uses` references `[n]` plus
/// one table line `[n]: url`.
fn worth_a_reference(len: usize, uses: usize, n: usize) -> bool {
    let digits = digits(n);
    uses >= 2 && uses * (len + 2) > uses * (digits + 2) + digits + 4 + len
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::Body;
    use crate::role::Role;

    fn note_text(l: &Line) -> &str {
        match &l.body {
            Body::Note(t) => t,
            _ => "",
        }
    }

    fn line(depth: usize, kind: Kind, text: &str, refs: &[u32]) -> Line {
        let mut segs = vec![Segment::Text(text.into())];
        for &r in refs {
            segs.push(Segment::Text(" ".into()));
            segs.push(Segment::Ref(r));
        }
        Line::segments(depth, kind, segs)
    }

    fn doc(lines: Vec<Line>, urls: &[&str]) -> Lines {
        Lines { lines, urls: urls.iter().map(|u| u.to_string()).collect(), references: vec![0; urls.len()] }
    }

    fn link(depth: usize, name: &str, slot: usize) -> Line {
        let segs = vec![Segment::Text(format!("[{name}]")), Segment::Url(slot), Segment::Text(" ".into()), Segment::Ref(slot as u32)];
        Line::segments(depth, Kind::Link { same_page: false }, segs)
    }

    fn printed(d: &Lines) -> Vec<String> {
        print::text(d).lines().map(str::to_string).collect()
    }

    fn button(i: u32) -> Line {
        line(0, Kind::Element(Role::Button), &format!("button \"b{i}\""), &[i])
    }

    #[test]
    fn char_cap_cuts_on_a_line_and_says_what_is_left() {
        let mut d = doc((0..100).map(button).collect(), &[]);
        let omitted = fit(&mut d, Format::Text, Some(400));
        let text = print::text(&d);
        assert!(text.chars().count() <= 400, "{}", text.len());
        assert!(omitted > 80);
        let last = note_text(d.lines.last().unwrap());
        assert!(last.starts_with("… cut at 400 chars"));
        assert!(last.contains(&format!("{omitted} more lines with {omitted} refs")));
    }

    #[test]
    fn text_under_the_cap_is_untouched() {
        let lines = vec![line(0, Kind::Text, "a", &[]), line(1, Kind::Text, "b", &[])];
        let mut d = doc(lines.clone(), &[]);
        assert_eq!(fit(&mut d, Format::Text, Some(100)), 0);
        assert_eq!(d.lines, lines);
    }

    #[test]
    fn repeated_urls_become_references_defined_once() {
        let mut d = doc(vec![link(0, "A", 0), link(0, "B", 1), link(1, "C", 0), link(0, "D", 1)], &["/a/rather/long/path", "/x"]);
        fit(&mut d, Format::Text, None);
        assert_eq!(printed(&d), ["[A][1] A0", "[B](/x) A1", " [C][1] A0", "[D](/x) A1", "[1]: /a/rather/long/path"]);
    }

    #[test]
    fn capped_table_lists_only_urls_still_visible() {
        let urls: Vec<String> = (0..50).map(|i| format!("/some/fairly/long/path/number/{i}")).collect();
        let urls: Vec<&str> = urls.iter().map(String::as_str).collect();
        let mut lines = Vec::new();
        for i in 0..50 {
            lines.push(link(0, "x", i));
            lines.push(link(0, "y", i));
        }
        let mut d = doc(lines, &urls);
        let omitted = fit(&mut d, Format::Text, Some(600));
        let text = printed(&d);
        assert!(text.iter().map(|l| l.chars().count() + 1).sum::<usize>() <= 600, "{text:?}");
        assert!(omitted > 0);
        let defined = d.lines.iter().filter(|l| l.kind == Kind::Reference).count();
        let used = text.iter().filter(|l| l.starts_with("[x][")).count();
        assert_eq!(defined, used, "{text:?}");
        assert!(note_text(d.lines.last().unwrap()).starts_with("… cut at 600 chars"));
    }

    #[test]
    fn long_runs_of_list_items_keep_their_head_and_say_the_rest() {
        let item = |first: Kind| Kind::ListItem { numbered: false, first: Some(Box::new(first)) };
        let mut lines = vec![line(0, Kind::Element(Role::Navigation), "nav", &[])];
        for i in 0..60 {
            lines.push(line(1, item(Kind::Link { same_page: false }), &format!("- [item {i}]"), &[i]));
            lines.push(line(2, Kind::Text, "detail", &[]));
        }
        lines.push(line(0, Kind::Heading, "# After", &[]));
        let mut d = doc(lines, &[]);
        let collapsed = collapse_runs(&mut d);
        assert_eq!(collapsed, 70);
        assert_eq!(d.lines.len(), 1 + 50 + 1 + 1);
        assert_eq!(note_text(&d.lines[51]), "… 35 more like these (35 refs) not shown: ask for the full snapshot to see them");
        assert_eq!(printed(&d)[52], "# After");
    }

    #[test]
    fn list_items_of_words_form_a_run_whatever_their_first_word() {
        let item = Kind::ListItem { numbered: false, first: Some(Box::new(Kind::Text)) };
        let words = ["apple", "Banana", "cherry", "#tag", "[1] note", "2. two"];
        let lines: Vec<Line> = (0..60).map(|i| line(0, item.clone(), &format!("- {}", words[i % words.len()]), &[])).collect();
        let mut d = doc(lines, &[]);
        assert_eq!(collapse_runs(&mut d), 35);
    }

    #[test]
    fn short_runs_and_prose_are_left_alone() {
        let lines: Vec<Line> = (0..100).map(|i| line(0, Kind::Text, &format!("sentence {i}."), &[])).collect();
        let mut d = doc(lines.clone(), &[]);
        collapse_runs(&mut d);
        assert_eq!(d.lines, lines);
        let item = Kind::ListItem { numbered: false, first: Some(Box::new(Kind::Text)) };
        let items: Vec<Line> = (0..40).map(|i| line(0, item.clone(), &format!("- x{i}"), &[])).collect();
        let mut d = doc(items.clone(), &[]);
        collapse_runs(&mut d);
        assert_eq!(d.lines, items);
    }

    #[test]
    fn depth_limit_summarises_deeper_runs() {
        let lines = vec![line(0, Kind::Text, "a", &[]), line(1, Kind::Text, "b", &[1]), line(2, Kind::Text, "c", &[2]), line(0, Kind::Text, "d", &[])];
        let mut d = doc(lines, &[]);
        assert_eq!(limit_depth(&mut d, Some(0)), 2);
        assert_eq!(d.lines.len(), 3);
        assert_eq!(note_text(&d.lines[1]), "… 2 deeper lines (2 refs); snapshot a subtree by ref to see them");
    }
}
