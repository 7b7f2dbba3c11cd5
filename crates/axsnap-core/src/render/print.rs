//! The one printer: lines to the text format or to JSON rows. Budgets ask it
//! how long a line prints, so a cap measures exactly what is printed.

use crate::lines::{format_ref, push_ref, Body, Line, Lines, Row, Segment};
use crate::options::Format;
use serde_json::{Map, Value};
use std::borrow::Cow;

/// The text format: one space of indent per level, one line each.
pub fn text(doc: &Lines) -> String {
    let mut s = String::with_capacity(doc.lines.iter().map(|l| l.depth + 48).sum());
    for l in &doc.lines {
        for _ in 0..l.depth {
            s.push(' ');
        }
        match &l.body {
            Body::Segments(segments) => push_segments(&mut s, doc, segments),
            Body::Note(t) => s.push_str(t),
            Body::Row(r) => s.push_str(&r.name),
        }
        s.push('\n');
    }
    s
}

fn push_segments(s: &mut String, doc: &Lines, segments: &[Segment]) {
    for seg in segments {
        match seg {
            Segment::Text(t) => s.push_str(t),
            Segment::Ref(n) => push_ref(s, *n),
            Segment::Url(i) => match doc.references.get(*i).copied().unwrap_or(0) {
                0 => {
                    s.push('(');
                    s.push_str(&doc.urls[*i]);
                    s.push(')');
                }
                n => {
                    s.push('[');
                    s.push_str(&n.to_string());
                    s.push(']');
                }
            },
        }
    }
}

/// The JSON format: an array of rows `[depth, role, name, props, ref]`.
pub fn json(doc: &Lines) -> String {
    let mut s = String::with_capacity(doc.lines.len() * 48 + 2);
    s.push('[');
    for (i, l) in doc.lines.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        push_row(&mut s, doc, l);
    }
    s.push(']');
    s
}

fn push_row(s: &mut String, doc: &Lines, l: &Line) {
    let row = match &l.body {
        Body::Row(r) => serde_json::to_string(&(l.depth, &r.role, &r.name, props(r), r.reference.map(format_ref))),
        Body::Note(t) => serde_json::to_string(&(l.depth, "note", t, (), ())),
        Body::Segments(segments) => {
            let mut text = String::new();
            push_segments(&mut text, doc, segments);
            serde_json::to_string(&(l.depth, "text", text, (), ()))
        }
    };
    // Strings, numbers and string maps always serialize.
    s.push_str(&row.unwrap_or_default());
}

/// A row's props, with the refs of twin links folded into it as `also`.
fn props(r: &Row) -> Option<Cow<'_, Map<String, Value>>> {
    if r.also.is_empty() {
        return (!r.props.is_empty()).then_some(Cow::Borrowed(&r.props));
    }
    let mut props = r.props.clone();
    props.insert("also".into(), r.also.iter().map(|&n| Value::String(format_ref(n))).collect());
    Some(Cow::Owned(props))
}

/// Characters a line prints, its URLs aside (the budget adds those once it
/// knows which are references), with its line break or separating comma.
pub fn fixed_size(format: Format, doc: &Lines, l: &Line) -> usize {
    match format {
        Format::Text => {
            let body = match &l.body {
                Body::Segments(segments) => segments
                    .iter()
                    .map(|seg| match seg {
                        Segment::Text(t) => t.chars().count(),
                        Segment::Ref(n) => 1 + digits(*n as usize),
                        Segment::Url(_) => 0,
                    })
                    .sum(),
                Body::Note(t) => t.chars().count(),
                Body::Row(r) => r.name.chars().count(),
            };
            l.depth + body + 1
        }
        Format::Json => {
            let mut s = String::new();
            push_row(&mut s, doc, l);
            s.chars().count() + 1
        }
    }
}

/// Characters the format adds around its lines: JSON's brackets (one of
/// them counted by the rows' commas).
pub fn frame_size(format: Format) -> usize {
    match format {
        Format::Text => 0,
        Format::Json => 1,
    }
}

pub fn digits(n: usize) -> usize {
    n.checked_ilog10().unwrap_or(0) as usize + 1
}
