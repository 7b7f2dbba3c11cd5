//! Budgets applied to rendered lines: a depth limit and a character cap.
//! Both cut on line (node) boundaries and say what they left out.

use crate::render::text::{Line, URL_END, URL_START};

/// Room kept for the closing note, so the capped text never exceeds the cap.
const NOTE_ROOM: usize = 160;

/// Replaces each run of lines deeper than `max` by one line saying so.
pub fn limit_depth(lines: Vec<Line>, max: Option<usize>) -> (Vec<Line>, usize) {
    let Some(max) = max else { return (lines, 0) };
    let mut out = Vec::with_capacity(lines.len());
    let mut hidden = 0;
    let (mut run_lines, mut run_refs) = (0usize, 0usize);
    let close = |out: &mut Vec<Line>, n: &mut usize, r: &mut usize| {
        if *n > 0 {
            let text = format!("… {n} deeper lines ({r} refs); snapshot a subtree by ref to see them");
            out.push(Line { depth: max + 1, text, refs: 0 });
        }
        *n = 0;
        *r = 0;
    };
    for l in lines {
        if l.depth > max {
            run_lines += 1;
            run_refs += l.refs;
            hidden += 1;
        } else {
            close(&mut out, &mut run_lines, &mut run_refs);
            out.push(l);
        }
    }
    close(&mut out, &mut run_lines, &mut run_refs);
    (out, hidden)
}

/// Runs of more than this many sibling items of one shape are shortened in
/// capped output…
const RUN_MAX: usize = 40;
/// …to their first this many, and one line saying how many more there are.
const RUN_KEEP: usize = 25;

/// In capped output, a long run of same-shaped siblings (list items, table
/// rows, links) keeps its first items and one line saying how many more
/// there are and how many refs they hold, so the cap reaches the rest of
/// the page. Nothing is collapsed silently.
pub fn collapse_runs(lines: Vec<Line>) -> (Vec<Line>, usize) {
    let mut out = Vec::with_capacity(lines.len());
    let collapsed = collapse_in(&lines, &mut out);
    (out, collapsed)
}

/// Walks sibling items of `lines` (which start at one depth), collapsing
/// long runs, and recurses into each kept item's deeper lines.
fn collapse_in(lines: &[Line], out: &mut Vec<Line>) -> usize {
    let mut collapsed = 0;
    let mut i = 0;
    while i < lines.len() {
        let depth = lines[i].depth;
        let kind = shape(&lines[i].text);
        let mut items = vec![i];
        let mut j = item_end(lines, i);
        while kind.is_some() && j < lines.len() && lines[j].depth == depth && shape(&lines[j].text) == kind {
            items.push(j);
            j = item_end(lines, j);
        }
        let keep_until = if items.len() > RUN_MAX { items[RUN_KEEP] } else { j };
        let mut k = i;
        while k < keep_until {
            let end = item_end(lines, k);
            out.push(lines[k].clone());
            collapsed += collapse_in(&lines[k + 1..end], out);
            k = end;
        }
        if keep_until < j {
            let more = items.len() - RUN_KEEP;
            let refs: usize = lines[keep_until..j].iter().map(|l| l.refs).sum();
            collapsed += j - keep_until;
            out.push(Line {
                depth,
                text: format!("… {more} more like these ({refs} refs) not shown: ask for the full snapshot to see them"),
                refs: 0,
            });
        }
        i = j;
    }
    collapsed
}

fn item_end(lines: &[Line], start: usize) -> usize {
    let depth = lines[start].depth;
    let mut j = start + 1;
    while j < lines.len() && lines[j].depth > depth {
        j += 1;
    }
    j
}

/// A line's kind: its list marker or table bar and its first word or link.
fn shape(text: &str) -> Option<String> {
    let (marker, rest) = match text.strip_prefix("- ") {
        Some(r) => ("-", r),
        None if text.starts_with('|') => return Some("|".into()),
        None => match text.split_once(". ") {
            Some((n, r)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => ("1.", r),
            _ => ("", text),
        },
    };
    let kind = if rest.starts_with('[') {
        "link"
    } else if rest.starts_with('#') {
        return None;
    } else {
        let word = rest.split([' ', '"']).next().unwrap_or("");
        if word.chars().all(|c| c.is_ascii_lowercase()) && !word.is_empty() { word } else { "text" }
    };
    if marker.is_empty() && kind == "text" {
        return None; // prose is not a repeated structure
    }
    Some(format!("{marker}{kind}"))
}

/// Writes each link URL inline, or, when it repeats, as a Markdown reference
/// (`[Docs][3]`) defined once in a table after the content (`[3]: /docs`);
/// then keeps whole lines while they fit in `max` characters, the table
/// built from the kept lines only, and ends with one note saying what was
/// left out.
pub fn finish(lines: Vec<Line>, urls: &[String], max: Option<usize>) -> (Vec<Line>, usize) {
    let max = max.filter(|&m| m > 0);
    let (mut out, mut kept) = (materialize(&lines, lines.len(), urls), lines.len());
    if let Some(max) = max {
        if size(&out) > max {
            // The longest prefix whose text, table and note fit. Adding a
            // line never shortens the text, so the search is sound.
            let budget = max.saturating_sub(NOTE_ROOM);
            let (mut lo, mut hi) = (0, lines.len());
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if size(&materialize(&lines, mid, urls)) <= budget {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            kept = lo;
            out = materialize(&lines, kept, urls);
            let omitted = lines.len() - kept;
            let refs: usize = lines[kept..].iter().map(|l| l.refs).sum();
            out.push(Line {
                depth: 0,
                text: format!(
                    "… cut at {max} chars: {omitted} more lines with {refs} refs. Ask for the full snapshot, or a subtree by ref."
                ),
                refs: 0,
            });
        }
    }
    let omitted = lines.len() - kept;
    (out, omitted)
}

fn size(lines: &[Line]) -> usize {
    lines.iter().map(|l| l.depth + l.text.chars().count() + 1).sum()
}

/// The first `keep` lines with their URL placeholders resolved, then the
/// reference table for URLs that repeat among them.
fn materialize(lines: &[Line], keep: usize, urls: &[String]) -> Vec<Line> {
    let mut uses = vec![0usize; urls.len()];
    for l in &lines[..keep] {
        for i in slots(&l.text) {
            if let Some(u) = uses.get_mut(i) {
                *u += 1;
            }
        }
    }
    // Numbered in order of first use, only where a reference is shorter.
    let mut number = vec![0usize; urls.len()];
    let mut table = Vec::new();
    let mut next = 1;
    let mut assign = |i: usize, number: &mut Vec<usize>, table: &mut Vec<Line>| {
        if number[i] == 0 && worth_a_reference(&urls[i], uses[i], next) {
            number[i] = next;
            table.push(Line { depth: 0, text: format!("[{next}]: {}", urls[i]), refs: 0 });
            next += 1;
        }
    };
    let mut out = Vec::with_capacity(keep + 8);
    for l in &lines[..keep] {
        if !l.text.contains(URL_START) {
            out.push(l.clone());
            continue;
        }
        let mut text = String::with_capacity(l.text.len() + 32);
        let mut rest = l.text.as_str();
        while let Some(a) = rest.find(URL_START) {
            text.push_str(&rest[..a]);
            let after = &rest[a + URL_START.len_utf8()..];
            let b = after.find(URL_END).unwrap_or(after.len());
            let i: usize = after[..b].parse().unwrap_or(usize::MAX);
            if i < urls.len() {
                assign(i, &mut number, &mut table);
                if number[i] > 0 {
                    text.push_str(&format!("[{}]", number[i]));
                } else {
                    text.push('(');
                    text.push_str(&urls[i]);
                    text.push(')');
                }
            }
            rest = after.get(b + URL_END.len_utf8()..).unwrap_or("");
        }
        text.push_str(rest);
        out.push(Line { depth: l.depth, text, refs: l.refs });
    }
    out.extend(table);
    out
}

fn slots(text: &str) -> impl Iterator<Item = usize> + '_ {
    text.split(URL_START).skip(1).filter_map(|s| s.split(URL_END).next()?.parse().ok())
}

/// `uses` inline copies `(url)` cost more than `uses` references `[n]` plus
/// one table line `[n]: url`.
fn worth_a_reference(url: &str, uses: usize, n: usize) -> bool {
    let digits = n.to_string().len();
    let len = url.chars().count();
    uses >= 2 && uses * (len + 2) > uses * (digits + 2) + digits + 4 + len
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(depth: usize, text: &str, refs: usize) -> Line {
        Line { depth, text: text.into(), refs }
    }

    fn link(depth: usize, name: &str, slot: usize) -> Line {
        line(depth, &format!("[{name}]{URL_START}{slot}{URL_END} A{slot}"), 1)
    }

    #[test]
    fn char_cap_cuts_on_a_line_and_says_what_is_left() {
        let lines: Vec<Line> = (0..100).map(|i| line(0, &format!("button \"b{i}\" A{i}"), 1)).collect();
        let (out, omitted) = finish(lines, &[], Some(400));
        let text: String = out.iter().map(|l| format!("{}\n", l.text)).collect();
        assert!(text.chars().count() <= 400, "{}", text.len());
        assert!(omitted > 80);
        assert!(out.last().unwrap().text.starts_with("… cut at 400 chars"));
        assert!(out.last().unwrap().text.contains(&format!("{omitted} more lines with {omitted} refs")));
    }

    #[test]
    fn text_under_the_cap_is_untouched() {
        let lines = vec![line(0, "a", 0), line(1, "b", 0)];
        assert_eq!(finish(lines.clone(), &[], Some(100)).0, lines);
    }

    #[test]
    fn repeated_urls_become_references_defined_once() {
        let urls = vec!["/a/rather/long/path".to_string(), "/x".to_string()];
        let lines = vec![link(0, "A", 0), link(0, "B", 1), link(1, "C", 0), link(0, "D", 1)];
        let (out, _) = finish(lines, &urls, None);
        let text: Vec<&str> = out.iter().map(|l| l.text.as_str()).collect();
        assert_eq!(text, ["[A][1] A0", "[B](/x) A1", "[C][1] A0", "[D](/x) A1", "[1]: /a/rather/long/path"]);
    }

    #[test]
    fn capped_table_lists_only_urls_still_visible() {
        let urls: Vec<String> = (0..50).map(|i| format!("/some/fairly/long/path/number/{i}")).collect();
        let mut lines = Vec::new();
        for i in 0..50 {
            lines.push(link(0, "x", i));
            lines.push(link(0, "y", i));
        }
        let (out, omitted) = finish(lines, &urls, Some(600));
        let text: String = out.iter().map(|l| format!("{}\n", l.text)).collect();
        assert!(text.chars().count() <= 600, "{text}");
        assert!(omitted > 0);
        let defined = out.iter().filter(|l| l.text.starts_with('[') && l.text.contains("]: ")).count();
        let used = out.iter().filter(|l| l.text.starts_with("[x][")).count();
        assert_eq!(defined, used, "{text}");
        assert!(out.last().unwrap().text.starts_with("… cut at 600 chars"));
    }

    #[test]
    fn long_runs_of_list_items_keep_their_head_and_say_the_rest() {
        let mut lines = vec![line(0, "nav", 0)];
        for i in 0..60 {
            lines.push(line(1, &format!("- [item {i}] A{i}"), 1));
            lines.push(line(2, "detail", 0));
        }
        lines.push(line(0, "# After", 0));
        let (out, collapsed) = collapse_runs(lines);
        assert_eq!(collapsed, 70);
        assert_eq!(out.len(), 1 + 50 + 1 + 1);
        assert_eq!(out[51].text, "… 35 more like these (35 refs) not shown: ask for the full snapshot to see them");
        assert_eq!(out[52].text, "# After");
    }

    #[test]
    fn short_runs_and_prose_are_left_alone() {
        let lines: Vec<Line> = (0..100).map(|i| line(0, &format!("Sentence {i}."), 0)).collect();
        assert_eq!(collapse_runs(lines.clone()).0, lines);
        let items: Vec<Line> = (0..40).map(|i| line(0, &format!("- x{i}"), 0)).collect();
        assert_eq!(collapse_runs(items.clone()).0, items);
    }

    #[test]
    fn depth_limit_summarises_deeper_runs() {
        let lines = vec![line(0, "a", 0), line(1, "b", 1), line(2, "c", 1), line(0, "d", 0)];
        let (out, hidden) = limit_depth(lines, Some(0));
        assert_eq!(hidden, 2);
        assert_eq!(out.len(), 3);
        assert_eq!(out[1].text, "… 2 deeper lines (2 refs); snapshot a subtree by ref to see them");
    }
}
