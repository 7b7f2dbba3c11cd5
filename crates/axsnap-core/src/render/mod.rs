//! Printing the distilled tree. `text` is what agents read; `json` is the
//! same tree as tuples for programs. Both share `describe`, so a state shown
//! in one is shown in the other.

pub mod json;
pub mod print;
pub mod text;

use crate::distill::Element;
use crate::role::Role;
use crate::tree::{Tri, Tree};
use crate::urls;
use crate::words::{clip, squashed};

/// The facts about one element both formats print.
#[derive(Clone)]
pub struct Description {
    pub role_word: String,
    pub name: Option<String>,
    pub url: Option<String>,
    pub value: Option<String>,
    pub states: Vec<String>,
    /// The description, unless the name already says it.
    pub description: Option<String>,
}

pub fn describe(tree: &Tree, e: &Element, max_text: Option<usize>) -> Description {
    let node = tree.node(e.src);
    let mut states = Vec::new();
    let p = &node.props;
    if let Some(s) = &e.secret {
        states.push(format!("secret={}", s.reason.as_str()));
        // Like `checked`, only the informative state is said: no word means empty.
        if s.filled {
            states.push("filled".into());
        }
    }
    match p.checked {
        Some(Tri::True) => states.push("checked".into()),
        Some(Tri::Mixed) => states.push("checked=mixed".into()),
        _ => {}
    }
    match p.pressed {
        Some(Tri::True) => states.push("pressed".into()),
        Some(Tri::Mixed) => states.push("pressed=mixed".into()),
        _ => {}
    }
    if p.selected == Some(true) {
        states.push("selected".into());
    }
    match p.expanded {
        Some(true) => states.push("expanded".into()),
        Some(false) => states.push("collapsed".into()),
        None => {}
    }
    for (on, word) in [
        (p.disabled, "disabled"),
        (p.required, "required"),
        (p.invalid, "invalid"),
        (p.readonly && (node.role.is_text_field() || p.editable), "readonly"),
        (p.focused && !node.role.is_root(), "focused"),
        (p.modal, "modal"),
        (p.multiselectable, "multiselectable"),
    ] {
        if on {
            states.push(word.into());
        }
    }
    if let Some(level) = p.level.filter(|_| matches!(node.role, Role::TreeItem | Role::Row)) {
        states.push(format!("level={level}"));
    }
    let name = (e.show_name || e.secret.is_some() && !node.name.is_empty())
        .then(|| clip(&squashed(&node.name), max_text));
    let url = if node.role == Role::Link || node.role.is_root() {
        let page = tree.frame_url(e.src);
        p.url.as_deref().and_then(|u| if node.role.is_root() { Some(u.to_string()) } else { urls::compact(u, page) })
    } else {
        None
    };
    let value = if e.secret.is_some() {
        None
    } else {
        let v = p.value_text.clone().or_else(|| node.value.clone()).filter(|v| !v.is_empty());
        let v = v.filter(|v| Some(v.as_str()) != name.as_deref() && node.role != Role::Link);
        let v = v.map(|v| match (&p.value_min, &p.value_max) {
            (Some(lo), Some(hi)) => format!("{v} ({lo}-{hi})"),
            _ => v,
        });
        v.map(|v| clip(&v.replace('\n', "\\n"), max_text))
    };
    // A description says what a control does or what is wrong with its
    // value, and what an icon, an abbreviation or a truncated cell means
    // (its title). A named link's description is its hover title
    // (Wikipedia's article names, "Permalink to this headline"): printing
    // those cost 7% more tokens on the corpus, so a link shows one only when
    // it has no name. Metadata for programs in a title (COinS) is no words.
    let titled_link = node.role == Role::Link && !node.name.trim().is_empty();
    let description = if e.secret.is_some() || titled_link {
        None
    } else {
        crate::rules::readable_description(node)
            .map(squashed)
            .filter(|d| !d.is_empty() && !crate::rules::contains_words(&node.name, d) && !in_text_below(tree, e.src, d))
            .map(|d| clip(&d, max_text))
    };
    Description {
        description,
        role_word: if node.role.is_root() { "page".into() } else { e.role.display().to_string() },
        name,
        url,
        value,
        states,
    }
}

/// Is `needle` said by the text under `id` (a button whose description is
/// its own label, "Watch 24")?
fn in_text_below(tree: &Tree, id: crate::tree::NodeId, needle: &str) -> bool {
    let mut text = String::new();
    for n in std::iter::once(id).chain(tree.descendants(id)).take(63) {
        let node = tree.node(n);
        if node.role == Role::StaticText && !node.ignored {
            text.push(' ');
            text.push_str(&node.name);
        }
    }
    crate::rules::contains_words(&text, needle)
}
