//! Budgets applied to rendered lines: a depth limit and a character cap.
//! Both cut on line (node) boundaries and say what they left out.

use crate::render::text::Line;

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

/// Keeps whole lines while they fit in `max` characters; then one note.
pub fn limit_chars(lines: Vec<Line>, max: Option<usize>) -> (Vec<Line>, usize) {
    let Some(max) = max.filter(|&m| m > 0) else { return (lines, 0) };
    let total: usize = lines.iter().map(|l| l.depth + l.text.chars().count() + 1).sum();
    if total <= max {
        return (lines, 0);
    }
    let budget = max.saturating_sub(NOTE_ROOM);
    let mut used = 0;
    let mut keep = 0;
    for l in &lines {
        let len = l.depth + l.text.chars().count() + 1;
        if used + len > budget {
            break;
        }
        used += len;
        keep += 1;
    }
    let omitted = lines.len() - keep;
    let refs: usize = lines[keep..].iter().map(|l| l.refs).sum();
    let mut out = lines;
    out.truncate(keep);
    out.push(Line {
        depth: 0,
        text: format!(
            "… cut at {max} chars: {omitted} more lines with {refs} refs. Ask for the full snapshot, or a subtree by ref."
        ),
        refs: 0,
    });
    (out, omitted)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(depth: usize, text: &str, refs: usize) -> Line {
        Line { depth, text: text.into(), refs }
    }

    #[test]
    fn char_cap_cuts_on_a_line_and_says_what_is_left() {
        let lines: Vec<Line> = (0..100).map(|i| line(0, &format!("button \"b{i}\" A{i}"), 1)).collect();
        let (out, omitted) = limit_chars(lines, Some(400));
        let text: String = out.iter().map(|l| format!("{}\n", l.text)).collect();
        assert!(text.chars().count() <= 400, "{}", text.len());
        assert!(omitted > 80);
        assert!(out.last().unwrap().text.starts_with("… cut at 400 chars"));
        assert!(out.last().unwrap().text.contains(&format!("{omitted} more lines with {omitted} refs")));
    }

    #[test]
    fn text_under_the_cap_is_untouched() {
        let lines = vec![line(0, "a", 0), line(1, "b", 0)];
        assert_eq!(limit_chars(lines.clone(), Some(100)).0, lines);
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
