//! Budgets over the line model: a depth limit, run collapsing and a
//! character cap. Each cuts on line boundaries and says what it left out;
//! the cap also decides which link URLs become Markdown references. They
//! work the same on text lines and JSON rows.

use crate::lines::{Body, Kind, Line, Lines, Segment};
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
/// reaches the rest of the page. Nothing is collapsed silently. With the
/// lines' places on screen (`dist`, see [`crate::viewport`]), the items kept
/// are those from the first one not above the viewport, and the run's
/// items before them get a line of their own; `dist` is then updated to the
/// lines kept. Returns how many lines it left out.
pub fn collapse_runs(doc: &mut Lines, dist: &mut Option<Vec<f64>>) -> usize {
    let lines = std::mem::take(&mut doc.lines);
    let shapes: Vec<Option<Shape>> = lines.iter().map(|l| shape(&l.kind)).collect();
    let mut out = Vec::with_capacity(lines.len());
    let mut lines: Vec<Option<Line>> = lines.into_iter().map(Some).collect();
    let mut places = Places { dist: dist.take().unwrap_or_default(), out: Vec::new() };
    let collapsed = collapse_in(&mut lines, &shapes, 0, &mut out, &mut places);
    if !places.dist.is_empty() {
        *dist = Some(places.out);
    }
    doc.lines = out;
    collapsed
}

/// The lines' distances from the viewport (empty: unknown), and those of the lines kept.
struct Places {
    dist: Vec<f64>,
    out: Vec<f64>,
}

impl Places {
    fn keep(&mut self, i: usize) {
        if let Some(&d) = self.dist.get(i) {
            self.out.push(d);
        }
    }

    /// The first of `items` (indices from `base`) not above the viewport,
    /// and the last one in it (or that first one).
    fn in_view(&self, base: usize, items: &[usize]) -> (usize, usize) {
        let first = items.iter().position(|&k| self.dist.get(base + k).is_some_and(|&d| d >= 0.0)).unwrap_or(0);
        let last = items.iter().rposition(|&k| self.dist.get(base + k) == Some(&0.0)).unwrap_or(first).max(first);
        (first, last)
    }
}

/// Walks sibling items of `lines[from..]` (which start at one depth),
/// collapsing long runs, and recurses into each kept item's deeper lines.
fn collapse_in(lines: &mut [Option<Line>], shapes: &[Option<Shape>], base: usize, out: &mut Vec<Line>, places: &mut Places) -> usize {
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
        let long = items.len() > RUN_MAX;
        // Every item in view is kept, with two neighbours each side, however many.
        let (first, end) = if long {
            let (seen, last) = places.in_view(base, &items);
            let first = seen.saturating_sub(2).min(items.len() - RUN_KEEP);
            (first, (first + RUN_KEEP).max(last + 3).min(items.len()))
        } else {
            (0, items.len())
        };
        let keep_from = items[first];
        let keep_until = items.get(end).copied().unwrap_or(j);
        if keep_from > i {
            collapsed += say_run(&lines[i..keep_from], depth, first, " above the view", out);
            places.keep(base + i);
        }
        let mut k = keep_from;
        while k < keep_until {
            let end = item_end(lines, k);
            places.keep(base + k);
            out.extend(lines[k].take());
            collapsed += collapse_in(&mut lines[k + 1..end], shapes, base + k + 1, out, places);
            k = end;
        }
        if keep_until < j {
            collapsed += say_run(&lines[keep_until..j], depth, items.len() - end, "", out);
            places.keep(base + keep_until);
        }
        i = j;
    }
    collapsed
}

/// One line for the `more` items of a run left out; returns how many lines they were.
fn say_run(run: &[Option<Line>], depth: usize, more: usize, place: &str, out: &mut Vec<Line>) -> usize {
    let (hidden, refs) = sum_stands_for(run.iter().flatten());
    let text = format!("… {more} more like these{place} ({refs} refs) not shown: ask for the full snapshot to see them");
    out.push(Line::note(depth, hidden, refs, text));
    run.len()
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

/// Lines longer than this are broken before a cap, so the cap cuts inside
/// them: a window of 1,000 links read as one paragraph is one line of
/// 15,000 characters, which a cap on whole lines would drop with every ref
/// in view.
const LONG_LINE: usize = 1000;

/// Breaks each line longer than [`LONG_LINE`] at spaces (never inside a
/// word, a link or a ref) into lines of at most that length where the
/// words allow; the lines after the first are text at the same depth.
/// Returns how many lines it added.
pub fn break_long_lines(doc: &mut Lines) -> usize {
    let lines = std::mem::take(&mut doc.lines);
    let mut out = Vec::with_capacity(lines.len());
    for line in lines {
        let Body::Segments(segments) = &line.body else {
            out.push(line);
            continue;
        };
        if segments.iter().map(|s| segment_len(doc, s)).sum::<usize>() <= LONG_LINE {
            out.push(line);
            continue;
        }
        let (depth, mut kind) = (line.depth, Some(line.kind.clone()));
        let Body::Segments(segments) = line.body else { unreachable!() };
        let mut emit = |out: &mut Vec<Line>, mut segs: Vec<Segment>| {
            if let Some(Segment::Text(t)) = segs.last_mut() {
                t.truncate(t.trim_end_matches(' ').len());
            }
            out.push(Line::segments(depth, kind.take().unwrap_or(Kind::Text), segs));
        };
        // Text is split after each space: a line may end after such a piece.
        let atoms = segments.into_iter().flat_map(|s| match s {
            Segment::Text(t) => t.split_inclusive(' ').map(|p| Segment::Text(p.to_string())).collect::<Vec<_>>(),
            s => vec![s],
        });
        // Where the line may break last: before a ref (an element's name
        // stays whole), else after any space.
        let (mut cur, mut len): (Vec<Segment>, usize) = (Vec::new(), 0);
        let (mut before_ref, mut after_space): (Option<usize>, Option<usize>) = (None, None);
        let after_a_space = |cur: &[Segment]| matches!(cur.last(), Some(Segment::Text(t)) if t.ends_with(' '));
        for atom in atoms {
            let n = segment_len(doc, &atom);
            if let (true, Some(at)) = (len + n > LONG_LINE, before_ref.or(after_space)) {
                let rest = cur.split_off(at);
                emit(&mut out, merge_text(std::mem::take(&mut cur)));
                len = rest.iter().map(|s| segment_len(doc, s)).sum();
                cur = rest;
                (before_ref, after_space) = (None, None);
            }
            if matches!(atom, Segment::Ref(_)) && after_a_space(&cur) {
                before_ref = Some(cur.len());
            }
            cur.push(atom);
            len += n;
            if after_a_space(&cur) {
                after_space = Some(cur.len());
            }
        }
        emit(&mut out, merge_text(cur));
    }
    let added = out.len() - doc.lines.len();
    doc.lines = out;
    added
}

/// About how many characters a segment prints as.
fn segment_len(doc: &Lines, s: &Segment) -> usize {
    match s {
        Segment::Text(t) => t.chars().count(),
        Segment::Ref(n) => digits(*n as usize) + 1,
        Segment::Url(i) => doc.urls.get(*i).map_or(0, |u| u.chars().count()) + 2,
    }
}

/// Adjacent text segments as one.
fn merge_text(segments: Vec<Segment>) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::with_capacity(segments.len());
    for s in segments {
        match (out.last_mut(), s) {
            (Some(Segment::Text(a)), Segment::Text(b)) => a.push_str(&b),
            (_, s) => out.push(s),
        }
    }
    out
}

/// Decides which URLs become references (`[Docs][3]`, defined once after
/// the content as `[3]: /docs`), then keeps whole lines while they fit in
/// `max` characters, the references decided on the kept lines only, and
/// ends with one note saying what was left out (counting what the notes it
/// cut stood for). Returns how many lines it left out, notes aside.
pub fn fit(doc: &mut Lines, format: Format, max: Option<usize>) -> usize {
    let sizes: Vec<usize> = doc.lines.iter().map(|l| print::fixed_size(format, doc, l)).collect();
    let slots: Vec<Vec<usize>> = doc.lines.iter().map(|l| l.urls().collect()).collect();
    let url_chars = UrlChars::of(doc);
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
        let text = format!("[{}]: {}", chosen.number[i], doc.table_url(i));
        doc.lines.push(Line::segments(0, Kind::Reference, vec![Segment::Text(text)]));
    }
    doc.references = chosen.number;
    if let (Some(max), true) = (max, kept < total) {
        let text = format!("… cut at {max} chars: {hidden} more lines with {refs} refs. Ask for the full snapshot, or a subtree by ref.");
        doc.lines.push(Line::note(0, hidden, refs, text));
    }
    omitted
}

/// The character cap when the lines' places on screen are known (`dist`:
/// per line, 0 in view, negative above, positive below; see
/// [`crate::viewport`]): keeps the lines nearest the viewport (below before
/// above at the same distance: reading goes down), with every line that
/// holds them, and says in one note per run of lines left out how many
/// lines, links and refs it held and where they are (`… 12 more links below
/// the fold (31 lines with 14 refs)`). The run at the end gets the cut note.
/// When everything fits, or nothing is known, this is [`fit`].
pub fn fit_near_view(doc: &mut Lines, format: Format, max: usize, dist: &[f64]) -> usize {
    let n = doc.lines.len();
    let sizes: Vec<usize> = doc.lines.iter().map(|l| print::fixed_size(format, doc, l)).collect();
    let slots: Vec<Vec<usize>> = doc.lines.iter().map(|l| l.urls().collect()).collect();
    let url_chars = UrlChars::of(doc);
    let whole = sizes.iter().sum::<usize>() + Plan::new(&slots, &url_chars).size(&slots, &url_chars) + print::frame_size(format);
    if dist.len() != n || whole <= max {
        return fit(doc, format, Some(max));
    }
    // need[i]: the first step of the order at which line i is kept (itself or a line inside it).
    let key = |i: usize| if dist[i] < 0.0 { -dist[i] * 1.5 } else { dist[i] };
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
    let mut need = vec![0usize; n];
    for (pos, &i) in order.iter().enumerate() {
        need[i] = pos;
    }
    let mut stack: Vec<usize> = Vec::new();
    let mut parent = vec![None; n];
    for i in 0..n {
        while stack.last().is_some_and(|&t| doc.lines[t].depth >= doc.lines[i].depth) {
            stack.pop();
        }
        parent[i] = stack.last().copied();
        stack.push(i);
    }
    for i in (0..n).rev() {
        if let Some(p) = parent[i] {
            need[p] = need[p].min(need[i]);
        }
    }
    need[0] = 0;
    let runs = |k: usize| {
        let mut out = Vec::new();
        let mut i = 0;
        while i < n {
            if need[i] < k {
                i += 1;
                continue;
            }
            let start = i;
            while i < n && need[i] >= k {
                i += 1;
            }
            out.push(start..i);
        }
        out
    };
    // A note costs its depth and about this many characters.
    const GAP_NOTE: usize = 72;
    let size = |k: usize| {
        let kept: Vec<usize> = (0..n).filter(|&i| need[i] < k).collect();
        let kept_slots: Vec<Vec<usize>> = kept.iter().map(|&i| slots[i].clone()).collect();
        let notes: usize = runs(k).iter().map(|r| doc.lines[r.start].depth + GAP_NOTE).sum();
        kept.iter().map(|&i| sizes[i]).sum::<usize>() + Plan::new(&kept_slots, &url_chars).size(&kept_slots, &url_chars) + notes + print::frame_size(format)
    };
    let budget = max.saturating_sub(NOTE_ROOM);
    let (mut lo, mut hi) = (1, n);
    while lo < hi {
        let mid = (lo + hi).div_ceil(2);
        if size(mid) <= budget {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let lines = std::mem::take(&mut doc.lines);
    let gaps = runs(lo);
    let mut omitted = 0;
    let mut out = Vec::with_capacity(n);
    let mut kept_slots = Vec::new();
    let mut next_gap = gaps.iter().peekable();
    let mut lines: Vec<Option<Line>> = lines.into_iter().map(Some).collect();
    let mut i = 0;
    while i < n {
        let Some(gap) = next_gap.next_if(|g| g.start == i) else {
            kept_slots.push(slots[i].clone());
            out.extend(lines[i].take());
            i += 1;
            continue;
        };
        let run: Vec<Line> = lines[gap.clone()].iter_mut().filter_map(Option::take).collect();
        let (hidden, refs) = sum_stands_for(run.iter());
        omitted += run.iter().filter(|l| !matches!(l.kind, Kind::Note { .. })).count();
        let links = run.iter().filter(|l| is_link(&l.kind)).count();
        let sides: Vec<_> = gap.clone().map(|j| crate::viewport::side(dist[j])).collect();
        let side = sides.iter().all(|s| *s == sides[0]).then_some(sides[0]);
        let place = crate::viewport::where_(side);
        let depth = run[0].depth;
        let text = if gap.end == n {
            let links = if links > 0 { format!(", {links} of them links") } else { String::new() };
            format!("… cut at {max} chars: {hidden} more lines with {refs} refs {place}{links}. Scroll, or ask for the full snapshot or a subtree by ref.")
        } else if links > 0 {
            format!("… {links} more links {place} ({hidden} lines with {refs} refs)")
        } else {
            format!("… {hidden} more lines {place} ({refs} refs)")
        };
        out.push(Line::note(if gap.end == n { 0 } else { depth }, hidden, refs, text));
        kept_slots.push(Vec::new());
        i = gap.end;
    }
    let chosen = Plan::new(&kept_slots, &url_chars);
    for &u in &chosen.order {
        let text = format!("[{}]: {}", chosen.number[u], doc.table_url(u));
        out.push(Line::segments(0, Kind::Reference, vec![Segment::Text(text)]));
    }
    doc.references = chosen.number;
    doc.lines = out;
    omitted
}

fn is_link(kind: &Kind) -> bool {
    match kind {
        Kind::Link { .. } => true,
        Kind::ListItem { first: Some(f), .. } => matches!(**f, Kind::Link { .. }),
        _ => false,
    }
}

/// Which URLs of some lines are printed as references, numbered in order of
/// first use, only where a reference is shorter than the URLs inline.
struct Plan {
    /// Per URL: its reference number, or 0.
    number: Vec<usize>,
    /// URLs with a number, in number order.
    order: Vec<usize>,
}

/// Per URL slot, its characters inline and on a reference's table line:
/// the same but for a URL marking its link's words (`/wiki/*`), which the
/// table prints without the mark.
struct UrlChars {
    inline: Vec<usize>,
    table: Vec<usize>,
}

impl UrlChars {
    fn of(doc: &Lines) -> UrlChars {
        let inline: Vec<usize> = doc.urls.iter().map(|u| u.chars().count()).collect();
        let table = (0..inline.len()).map(|i| doc.unmarked.get(i).and_then(Option::as_deref).map_or(inline[i], |u| u.chars().count())).collect();
        UrlChars { inline, table }
    }
}

impl Plan {
    fn new(slots: &[Vec<usize>], url_chars: &UrlChars) -> Plan {
        let n = url_chars.inline.len();
        let mut uses = vec![0usize; n];
        for &i in slots.iter().flatten() {
            uses[i] += 1;
        }
        let mut number = vec![0usize; n];
        let mut seen = vec![false; n];
        let mut order = Vec::new();
        for &i in slots.iter().flatten() {
            if !std::mem::replace(&mut seen[i], true) && worth_a_reference(url_chars.inline[i], url_chars.table[i], uses[i], order.len() + 1) {
                order.push(i);
                number[i] = order.len();
            }
        }
        Plan { number, order }
    }

    /// Characters the URLs add: `(url)` or `[n]` per use, and one table
    /// line `[n]: url` per reference.
    fn size(&self, slots: &[Vec<usize>], url_chars: &UrlChars) -> usize {
        let uses: usize = slots
            .iter()
            .flatten()
            .map(|&i| match self.number[i] {
                0 => url_chars.inline[i] + 2,
                n => digits(n) + 2,
            })
            .sum();
        let table: usize = self.order.iter().map(|&i| digits(self.number[i]) + 4 + url_chars.table[i] + 1).sum();
        uses + table
    }
}

/// `uses` inline copies `(url)`, `inline` characters each, cost more than
/// `uses` references `[n]` plus one table line `[n]: url` holding `table`
/// characters, by more than [`REFERENCE_MARGIN`].
fn worth_a_reference(inline: usize, table: usize, uses: usize, n: usize) -> bool {
    let digits = digits(n);
    uses >= 2 && uses * (inline + 2) > uses * (digits + 2) + digits + 4 + table + REFERENCE_MARGIN
}

/// Characters a reference must save to save tokens: its marks are a token
/// each (`[`, `12`, `]`, `]:`, the line break) where a URL's words run 3 to
/// 4 characters a token, so a reference saving a few characters costs
/// more than it saves (o200k_base; with 0 here the corpus took 200 tokens
/// more, its median page 0.2% more).
const REFERENCE_MARGIN: usize = 10;

#[cfg(test)]
mod tests {
    use super::*;
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
        Lines { lines, urls: urls.iter().map(|u| u.to_string()).collect(), references: vec![0; urls.len()], unmarked: vec![None; urls.len()] }
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
    fn a_cap_with_places_keeps_what_is_in_view_and_says_what_lies_outside() {
        // 100 buttons, 20 px apart; the viewport shows buttons 50 to 59.
        let mut lines = vec![line(0, Kind::Page, "page", &[])];
        lines.extend((0..100).map(|i| {
            let mut b = button(i);
            b.depth = 1;
            b
        }));
        let dist: Vec<f64> = std::iter::once(0.0).chain((0..100).map(|i| if i < 50 { -20.0 * (50 - i) as f64 } else if i < 60 { 0.0 } else { 20.0 * (i - 59) as f64 })).collect();
        let mut d = doc(lines, &[]);
        let omitted = fit_near_view(&mut d, Format::Text, 600, &dist);
        let text = printed(&d);
        assert!(text.iter().map(|l| l.chars().count() + 1).sum::<usize>() <= 600, "{text:?}");
        for i in 50..60 {
            assert!(text.contains(&format!(" button \"b{i}\" A{i}")), "{text:?}");
        }
        assert!(text[1].starts_with(" … ") && text[1].contains("above the view"), "{text:?}");
        let last = text.last().unwrap();
        assert!(last.starts_with("… cut at 600 chars: ") && last.contains("below the fold"), "{last}");
        // Every left-out line and ref is counted once.
        let (lines_said, refs_said) = sum_stands_for(d.lines.iter().filter(|l| matches!(l.kind, Kind::Note { .. })));
        assert_eq!((lines_said, refs_said), (omitted, omitted));
        assert_eq!(d.refs().count() + omitted, 100);
    }

    #[test]
    fn a_cap_with_places_on_a_page_that_fits_is_the_plain_cap() {
        let mut d = doc((0..5).map(button).collect(), &[]);
        let before = d.lines.clone();
        assert_eq!(fit_near_view(&mut d, Format::Text, 1000, &[0.0, 0.0, 10.0, 20.0, 30.0]), 0);
        assert_eq!(d.lines, before);
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
        let collapsed = collapse_runs(&mut d, &mut None);
        assert_eq!(collapsed, 70);
        assert_eq!(d.lines.len(), 1 + 50 + 1 + 1);
        assert_eq!(note_text(&d.lines[51]), "… 35 more like these (35 refs) not shown: ask for the full snapshot to see them");
        assert_eq!(printed(&d)[52], "# After");
    }

    #[test]
    fn a_long_run_keeps_the_items_from_the_view_on() {
        let mut d = doc((0..60).map(button).collect(), &[]);
        // Items 30 to 39 are in view.
        let mut dist = Some((0..60).map(|i| if i < 30 { -10.0 } else if i < 40 { 0.0 } else { 10.0 }).collect::<Vec<f64>>());
        assert_eq!(collapse_runs(&mut d, &mut dist), 35);
        let text = printed(&d);
        assert_eq!(text[0], "… 28 more like these above the view (28 refs) not shown: ask for the full snapshot to see them");
        assert_eq!(text[1], "button \"b28\" A28");
        assert_eq!(text[26], "… 7 more like these (7 refs) not shown: ask for the full snapshot to see them");
        assert_eq!(dist.unwrap().len(), d.lines.len());
    }

    #[test]
    fn a_long_run_keeps_every_item_in_view_with_two_neighbours() {
        let mut d = doc((0..1000).map(button).collect(), &[]);
        // Items 0 to 36 are in view: more than a shortened run keeps.
        let mut dist = Some((0..1000).map(|i| if i < 37 { 0.0 } else { 10.0 }).collect::<Vec<f64>>());
        assert_eq!(collapse_runs(&mut d, &mut dist), 1000 - 39);
        let text = printed(&d);
        assert_eq!(text[38], "button \"b38\" A38");
        assert_eq!(text[39], "… 961 more like these (961 refs) not shown: ask for the full snapshot to see them");
        // In view in the middle of the run: from two before to two after.
        let mut d = doc((0..1000).map(button).collect(), &[]);
        let mut dist = Some((0..1000).map(|i| if i < 500 { -10.0 } else if i < 540 { 0.0 } else { 10.0 }).collect::<Vec<f64>>());
        collapse_runs(&mut d, &mut dist);
        let text = printed(&d);
        assert_eq!(text[1], "button \"b498\" A498");
        assert_eq!(text[44], "button \"b541\" A541");
        assert!(text[45].starts_with("… 458 more like these ("), "{}", text[45]);
    }

    #[test]
    fn a_line_longer_than_a_cap_is_broken_so_the_cap_keeps_its_head() {
        // A window of links read as one paragraph: `A0 [Link 0] A1 [Link 1] …`.
        let mut segs = Vec::new();
        for i in 0..1000u32 {
            segs.push(Segment::Ref(i));
            segs.push(Segment::Text(format!(" [Link {i}] ")));
        }
        let mut d = doc(vec![line(0, Kind::Page, "page", &[]), Line::segments(0, Kind::Text, segs)], &[]);
        let words_before: Vec<String> = printed(&d).join(" ").split_whitespace().map(str::to_string).collect();
        assert!(break_long_lines(&mut d) > 10);
        let text = printed(&d);
        assert!(text.iter().all(|l| l.chars().count() <= LONG_LINE), "{:?}", text.iter().map(|l| l.len()).max());
        assert!(text[1].starts_with("A0 [Link 0] A1 [Link 1]") && text[2].starts_with('A'), "{}", &text[2][..40]);
        let words_after: Vec<String> = text.join(" ").split_whitespace().map(str::to_string).collect();
        assert_eq!(words_before, words_after);
        fit(&mut d, Format::Text, Some(12000));
        let kept = printed(&d).join("\n");
        assert!(kept.chars().count() <= 12000);
        for i in 0..40 {
            assert!(kept.contains(&format!("A{i} [Link {i}]")), "link {i}");
        }
    }

    #[test]
    fn list_items_of_words_form_a_run_whatever_their_first_word() {
        let item = Kind::ListItem { numbered: false, first: Some(Box::new(Kind::Text)) };
        let words = ["apple", "Banana", "cherry", "#tag", "[1] note", "2. two"];
        let lines: Vec<Line> = (0..60).map(|i| line(0, item.clone(), &format!("- {}", words[i % words.len()]), &[])).collect();
        let mut d = doc(lines, &[]);
        assert_eq!(collapse_runs(&mut d, &mut None), 35);
    }

    #[test]
    fn short_runs_and_prose_are_left_alone() {
        let lines: Vec<Line> = (0..100).map(|i| line(0, Kind::Text, &format!("sentence {i}."), &[])).collect();
        let mut d = doc(lines.clone(), &[]);
        collapse_runs(&mut d, &mut None);
        assert_eq!(d.lines, lines);
        let item = Kind::ListItem { numbered: false, first: Some(Box::new(Kind::Text)) };
        let items: Vec<Line> = (0..40).map(|i| line(0, item.clone(), &format!("- x{i}"), &[])).collect();
        let mut d = doc(items.clone(), &[]);
        collapse_runs(&mut d, &mut None);
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
