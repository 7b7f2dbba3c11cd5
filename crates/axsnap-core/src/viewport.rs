//! What is on screen. The extension gives the main frame's element boxes
//! and the part of the document in view (`FrameInput::boxes`, `viewport`);
//! here each line of a snapshot gets its distance from the viewport, from
//! the box of the element its ref names. A line without a ref of its own (a
//! heading, text, a container) lies where the first line inside it does,
//! or else where the line before it does. Elements inside iframes count
//! where their neighbours are. The budget keeps what is in and near the
//! viewport when it must cut ([`crate::budget::fit_near_view`]), and the
//! `viewport` option marks where the page leaves and enters the view.

use crate::cdp::{Rect, SnapshotInput};
use crate::lines::{Line, Lines};
use crate::refs::RefTable;
use std::collections::HashMap;

/// Where a line lies, seen from the viewport.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    Above,
    In,
    Below,
}

pub fn side(distance: f64) -> Side {
    if distance < 0.0 {
        Side::Above
    } else if distance > 0.0 {
        Side::Below
    } else {
        Side::In
    }
}

/// Per line of `doc`: 0 when its element is (partly) in view, else how far
/// above (negative) or below (positive) the viewport it is, in CSS pixels.
/// `None` without a viewport or boxes for the main frame.
pub fn distances(doc: &Lines, input: &SnapshotInput, refs: &RefTable) -> Option<Vec<f64>> {
    let main = input.frames.iter().find(|f| f.parent.is_none())?;
    let view = main.viewport.filter(|v| v.height > 0.0)?;
    let boxes: HashMap<i64, Rect> = main
        .boxes
        .chunks_exact(5)
        .map(|c| (c[0] as i64, Rect { x: c[1], y: c[2], width: c[3], height: c[4] }))
        .filter(|(_, r)| r.width > 0.0 && r.height > 0.0)
        .collect();
    let own = |line: &Line| {
        line.refs().find_map(|n| {
            let t = refs.target(n).filter(|t| t.frame == main.key)?;
            boxes.get(&t.backend_node_id).map(|b| distance(b, &view))
        })
    };
    let mut d: Vec<Option<f64>> = doc.lines.iter().map(own).collect();
    for i in (0..d.len().saturating_sub(1)).rev() {
        if d[i].is_none() && doc.lines[i + 1].depth > doc.lines[i].depth {
            d[i] = d[i + 1];
        }
    }
    let mut last = None;
    for x in d.iter_mut() {
        match x {
            Some(v) => last = Some(*v),
            None => *x = last,
        }
    }
    let first = d.iter().flatten().next().copied()?;
    Some(d.into_iter().map(|x| x.unwrap_or(first)).collect())
}

fn distance(b: &Rect, view: &Rect) -> f64 {
    let (top, bottom) = (view.y, view.y + view.height);
    if b.y + b.height <= top {
        (b.y + b.height - top).min(-1.0)
    } else if b.y >= bottom {
        (b.y - bottom).max(1.0)
    } else {
        0.0
    }
}

/// What a note calls a side.
pub fn where_(side: Option<Side>) -> &'static str {
    match side {
        Some(Side::Above) => "above the view",
        Some(Side::Below) => "below the fold",
        Some(Side::In) => "in view",
        None => "out of view",
    }
}

/// The `viewport` option: a note line wherever the page leaves or enters
/// the view (`(below the fold)`, `(above the view)`, `(in view)`); lines
/// before the first note are in view. Returns the distances of the new lines.
pub fn mark(doc: &mut Lines, dist: &[f64]) -> Vec<f64> {
    let lines = std::mem::take(&mut doc.lines);
    let mut out = Vec::with_capacity(lines.len() + 4);
    let mut out_dist = Vec::with_capacity(lines.len() + 4);
    let mut was = Side::In;
    for (i, line) in lines.into_iter().enumerate() {
        let now = side(dist[i]);
        if i > 0 && now != was {
            out.push(Line::note(line.depth, 0, 0, format!("({})", where_(Some(now)))));
            out_dist.push(dist[i]);
            was = now;
        }
        out.push(line);
        out_dist.push(dist[i]);
    }
    doc.lines = out;
    out_dist
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cdp::FrameInput;
    use crate::lines::{Kind, Segment};

    fn view_input(boxes: &[(i64, f64)]) -> SnapshotInput {
        let frame = FrameInput {
            key: "main".into(),
            boxes: boxes.iter().flat_map(|&(id, y)| [id as f64, 0.0, y, 100.0, 20.0]).collect(),
            viewport: Some(Rect { x: 0.0, y: 1000.0, width: 1280.0, height: 800.0 }),
            ..Default::default()
        };
        SnapshotInput { frames: vec![frame] }
    }

    fn with_refs(n: usize) -> RefTable {
        let mut refs = RefTable::new();
        refs.begin(&[], false, false);
        for i in 0..n {
            refs.assign("main", i as i64 + 1, "button", "b", None);
        }
        refs
    }

    fn button(depth: usize, r: u32) -> Line {
        Line::segments(depth, Kind::Element(crate::role::Role::Button), vec![Segment::Text("button".into()), Segment::Ref(r)])
    }

    fn text(depth: usize) -> Line {
        Line::segments(depth, Kind::Text, vec![Segment::Text("words".into())])
    }

    #[test]
    fn each_line_lies_where_its_element_is_and_others_inherit() {
        // Element 1 above the view, 2 in it, 3 below it.
        let input = view_input(&[(1, 100.0), (2, 1200.0), (3, 2500.0)]);
        let refs = with_refs(3);
        let doc = Lines { lines: vec![text(0), button(1, 0), text(1), button(1, 1), text(0), button(1, 2)], ..Default::default() };
        let d = distances(&doc, &input, &refs).unwrap();
        let sides: Vec<Side> = d.iter().map(|&x| side(x)).collect();
        assert_eq!(sides, [Side::Above, Side::Above, Side::Above, Side::In, Side::Below, Side::Below]);
        assert_eq!(d[5], 700.0);
    }

    #[test]
    fn no_viewport_or_no_boxes_no_distances() {
        let mut input = view_input(&[]);
        let doc = Lines { lines: vec![button(0, 0)], ..Default::default() };
        assert_eq!(distances(&doc, &input, &with_refs(1)), None);
        input.frames[0].viewport = None;
        assert_eq!(distances(&doc, &input, &with_refs(1)), None);
    }

    #[test]
    fn marks_say_where_the_page_leaves_and_enters_the_view() {
        let mut doc = Lines { lines: vec![text(0), button(1, 0), button(1, 1), button(1, 2)], ..Default::default() };
        let d = mark(&mut doc, &[0.0, 0.0, 40.0, 90.0]);
        let notes: Vec<(usize, String)> = doc
            .lines
            .iter()
            .enumerate()
            .filter_map(|(i, l)| match &l.body {
                crate::lines::Body::Note(t) => Some((i, t.clone())),
                _ => None,
            })
            .collect();
        assert_eq!(notes, [(2, "(below the fold)".to_string())]);
        assert_eq!(d.len(), 5);
    }
}
