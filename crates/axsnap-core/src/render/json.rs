//! The JSON format: one tuple per printed node,
//! `[depth, role, name, props, ref]`, with text as role "text".

use super::{clip, describe};
use crate::distill::Out;
use crate::tree::Tree;
use serde_json::{json, Map, Value};

pub fn render(tree: &Tree, outs: &[Out], max_text: Option<usize>) -> Vec<Value> {
    let mut rows = Vec::new();
    walk(tree, outs, 0, max_text, &mut rows);
    rows
}

fn walk(tree: &Tree, outs: &[Out], depth: usize, max_text: Option<usize>, rows: &mut Vec<Value>) {
    let mut text = String::new();
    let flush = |text: &mut String, rows: &mut Vec<Value>| {
        let t = text.trim();
        if !t.is_empty() {
            rows.push(json!([depth, "text", clip(t, max_text), Value::Null, Value::Null]));
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
            Out::Break => flush(&mut text, rows),
            Out::Element(e) => {
                flush(&mut text, rows);
                let d = describe(tree, e, max_text);
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
                if let Some(level) = tree.node(e.src).props.level {
                    props.insert("level".into(), json!(level));
                }
                for s in d.states {
                    match s.split_once('=') {
                        Some((k, v)) => props.insert(k.into(), Value::String(v.into())),
                        None => props.insert(s, Value::Bool(true)),
                    };
                }
                if !e.also.is_empty() {
                    props.insert("also".into(), e.also.iter().map(|r| Value::String(format!("A{r}"))).collect());
                }
                let reference = e.reference.map_or(Value::Null, |r| Value::String(format!("A{r}")));
                let props = if props.is_empty() { Value::Null } else { Value::Object(props) };
                rows.push(json!([depth, d.role_word, d.name.unwrap_or_default(), props, reference]));
                walk(tree, &e.children, depth + 1, max_text, rows);
            }
        }
    }
    flush(&mut text, rows);
}
