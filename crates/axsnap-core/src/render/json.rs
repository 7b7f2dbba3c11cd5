//! The JSON format's lines: one row per printed node,
//! `[depth, role, name, props, ref]`, with text as role "text".

use super::describe;
use crate::words::clip;
use crate::distill::{Element, Out};
use crate::lines::{Body, Kind, Line, Lines, Row};
use crate::role::Role;
use crate::tree::Tree;
use serde_json::{json, Map, Value};

pub fn render(tree: &Tree, outs: &[Out], max_text: Option<usize>) -> Lines {
    let mut lines = Vec::new();
    walk(tree, outs, 0, max_text, &mut lines);
    Lines { lines, ..Lines::default() }
}

fn walk(tree: &Tree, outs: &[Out], depth: usize, max_text: Option<usize>, lines: &mut Vec<Line>) {
    let mut text = String::new();
    let flush = |text: &mut String, lines: &mut Vec<Line>| {
        let t = text.trim();
        if !t.is_empty() {
            let row = Row { role: "text".into(), name: clip(t, max_text), ..Row::default() };
            lines.push(Line { depth, kind: Kind::Text, body: Body::Row(row) });
        }
        text.clear();
    };
    for out in outs {
        match out {
            Out::Text(t, _) | Out::Marker(t) => {
                if !text.is_empty() && !text.ends_with(char::is_whitespace) && !t.starts_with(char::is_whitespace) {
                    text.push(' ');
                }
                text.push_str(t);
            }
            Out::Break => flush(&mut text, lines),
            Out::Element(e) => {
                flush(&mut text, lines);
                lines.push(row(tree, e, depth, max_text));
                walk(tree, &e.children, depth + 1, max_text, lines);
            }
        }
    }
    flush(&mut text, lines);
}

fn row(tree: &Tree, e: &Element, depth: usize, max_text: Option<usize>) -> Line {
    let d = describe(tree, e, max_text);
    let node = tree.node(e.src);
    let kind = match node.role {
        Role::Heading => Kind::Heading,
        Role::Link => Kind::Link { same_page: d.url.as_deref().is_some_and(|u| u.starts_with('#')) },
        Role::ListItem => Kind::ListItem { numbered: false, first: None },
        Role::Row => Kind::Row,
        ref r if r.is_root() => Kind::Page,
        ref r => Kind::Element(r.clone()),
    };
    let mut props = Map::new();
    if let Some(u) = d.url {
        props.insert("url".into(), Value::String(u));
    }
    if let Some(v) = d.value {
        props.insert("value".into(), Value::String(v));
    }
    if let Some(desc) = d.description {
        props.insert("desc".into(), Value::String(desc));
    }
    if let Some(level) = node.props.level {
        props.insert("level".into(), json!(level));
    }
    for s in d.states {
        match s.split_once('=') {
            Some((k, v)) => props.insert(k.into(), Value::String(v.into())),
            None => props.insert(s, Value::Bool(true)),
        };
    }
    let row = Row { role: d.role_word, name: d.name.unwrap_or_default(), props, reference: e.reference, also: e.also.clone() };
    Line { depth, kind, body: Body::Row(row) }
}
