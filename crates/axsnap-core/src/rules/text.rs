//! Rules about text nodes.

use super::{Action, Rule, Visit};
use crate::role::Role;
use crate::words::squashed;
use crate::tree::NodeId;

pub const DROP_INLINE_TEXT_BOXES: Rule = Rule {
    name: "drop-inline-text-boxes",
    why: "an InlineTextBox is a layout slice of its parent StaticText, which carries the same text",
    visit: |v| {
        (v.node.role == Role::InlineTextBox).then_some(Action::Remove)
    },
    leave: super::on_the_way_in_only,
};

pub const DROP_HIDDEN_TEXT: Rule = Rule {
    name: "drop-hidden-text",
    why: "ignored text is hidden from users (display:none, aria-hidden), so it is not on the page",
    visit: |v| {
        (v.node.ignored && matches!(v.node.role, Role::StaticText | Role::ListMarker | Role::LineBreak))
            .then_some(Action::Remove)
    },
    leave: super::on_the_way_in_only,
};

pub const DROP_BLANK_TEXT: Rule = Rule {
    name: "drop-blank-text",
    why: "whitespace-only text carries no words; where CSS keeps whitespace (a code block's newlines and indents) it stays",
    visit: |v| {
        let name = &v.node.name;
        (v.node.role == Role::StaticText && name.trim().is_empty() && !is_preformatted(name)).then_some(Action::Remove)
    },
    leave: super::on_the_way_in_only,
};

pub const DROP_ECHOED_TEXT: Rule = Rule {
    name: "drop-echoed-text",
    why: "text already printed as its ancestor's name would be read twice",
    visit: |v| {
        if v.node.role != Role::StaticText {
            return None;
        }
        let name = v.ancestor_name?;
        contains_words(name, &v.node.name).then_some(Action::Remove)
    },
    leave: super::on_the_way_in_only,
};

/// Chrome collapses whitespace in a text's name unless CSS keeps it, so a
/// newline, a tab or two spaces in a row mean preformatted text (code).
pub fn is_preformatted(text: &str) -> bool {
    // One pass over the bytes: a line break, a tab or two spaces running.
    let b = text.as_bytes();
    b.iter().enumerate().any(|(i, &c)| c == b'\n' || c == b'\t' || c == b' ' && b.get(i + 1) == Some(&b' '))
}

/// Whitespace-insensitive containment of whole words: "Sign\n in" is in
/// "Sign in", "in" is not in "Main". Chrome joins a name from its parts
/// without spaces, so a part may also start or end the name: "1.1" and
/// "1972" are both in "1.11972".
pub fn contains_words(haystack: &str, needle: &str) -> bool {
    let (h, n) = (squashed(haystack), squashed(needle));
    if n.is_empty() || n.len() > h.len() {
        return false;
    }
    // As long as the haystack, the needle can only be all of it (and that
    // starts it): no substring searcher to set up for a text echoing a name.
    if n.len() == h.len() {
        return h == n;
    }
    h.match_indices(&*n).any(|(at, _)| {
        let end = at + n.len();
        let open = word_boundary(h[..at].chars().next_back(), n.chars().next());
        let close = word_boundary(n.chars().next_back(), h[end..].chars().next());
        at == 0 || end == h.len() || open && close
    })
}

/// Between these two characters a word may end: not inside a run of
/// letters or of digits, and not in the middle of a lowercase word.
fn word_boundary(a: Option<char>, b: Option<char>) -> bool {
    let (Some(a), Some(b)) = (a, b) else { return true };
    if !a.is_alphanumeric() || !b.is_alphanumeric() {
        return true;
    }
    // ASCII case and digits only: Unicode case tables would cost the Wasm ~10 KB.
    a.is_ascii_digit() != b.is_ascii_digit() || (a.is_ascii_lowercase() && b.is_ascii_uppercase())
}

pub const DROP_TEXT_FIELD_CONTENTS: Rule = Rule {
    name: "drop-text-field-contents",
    why: "the text inside a text field is its value, which the field's line prints (or redacts)",
    visit: |v| {
        if v.node.role != Role::StaticText {
            return None;
        }
        let field = v.tree.ancestors(v.id).take(3).map(|p| v.tree.node(p)).find(|p| {
            p.role.is_text_field() || p.props.editable && p.role == Role::TextBox
        })?;
        let value = field.value.as_deref().unwrap_or("");
        contains_words(value, &v.node.name).then_some(Action::Remove)
    },
    leave: super::on_the_way_in_only,
};

pub const DROP_LABEL_ECHOING_ITS_CONTROL: Rule = Rule {
    name: "drop-label-echoing-its-control",
    why: "a label's text is its control's name, which the control's line prints",
    visit: |v| {
        if v.node.role != Role::StaticText {
            return None;
        }
        let label = label_ancestor(v, v.id)?;
        let tree = v.tree;
        if names_a_control_elsewhere(v, label) {
            return Some(Action::Remove);
        }
        // The labelled control sits inside the label or next to it.
        let scope = tree.node(label).parent.unwrap_or(label);
        let mut stack = vec![scope];
        let mut budget = 200;
        while let Some(id) = stack.pop() {
            budget -= 1;
            if budget == 0 {
                return None;
            }
            let node = tree.node(id);
            // A link is never what a label names (`<label>Password <a>Forgot
            // password?</a></label>` keeps its word).
            if v.is_actionable(id) && node.role != Role::Link && contains_words(&node.name, &v.node.name) {
                return Some(Action::Remove);
            }
            stack.extend(node.children.iter().copied());
        }
        None
    },
    leave: super::on_the_way_in_only,
};

/// A `<label for>` away from its field (in a `<dt>` beside the field's
/// `<dd>`, in the table cell before the field's): Chrome says which control
/// it names, so the words are its name wherever the two sit. Only a
/// `<label>`, never an `aria-labelledby` target (a heading, a sentence), and
/// only one that is the whole name: where two labels name one field (one of
/// them meant for the field beside it), each stays where it is drawn.
fn names_a_control_elsewhere(v: &Visit, label: NodeId) -> bool {
    let tree = v.tree;
    let node = tree.node(label);
    // A label that is itself a control (a drawn toggle over a hidden box) keeps its words.
    let Some(backend) = node.backend_id.filter(|_| node.role == Role::LabelText && !v.is_actionable(label)) else { return false };
    tree.relations.iter().any(|&(control, b)| {
        let c = tree.node(control);
        b == backend && c.frame == node.frame && v.is_actionable(control) && c.role != Role::Link
            && crate::words::same_words(&c.name, &v.node.name)
    })
}

fn label_ancestor(v: &Visit, id: NodeId) -> Option<NodeId> {
    for p in v.tree.ancestors(id).take(4) {
        let role = &v.tree.node(p).role;
        if matches!(role, Role::LabelText | Role::Legend) {
            return Some(p);
        }
        if !matches!(role, Role::Generic | Role::None | Role::Strong | Role::Emphasis) {
            return None;
        }
    }
    None
}

pub const DROP_BULLET_GLYPHS: Rule = Rule {
    name: "drop-bullet-glyphs",
    why: "a text node that is only a bullet or middle dot is drawn between items; the words around it stay, a space apart",
    visit: |v| {
        if v.node.role != Role::StaticText || !is_bullet_glyph(&v.node.name) {
            return None;
        }
        // Alone in a table cell a dot is a value ("included"), not a divider.
        let cell = v.tree.ancestors(v.id).take(4).find(|&p| v.tree.node(p).role.is_cell());
        let alone = cell.is_some_and(|c| {
            let mut texts = v.tree.descendants(c).take(32).filter(|&d| {
                let n = v.tree.node(d);
                n.role == Role::StaticText && !n.name.trim().is_empty()
            });
            texts.next() == Some(v.id) && texts.next().is_none()
        });
        (!alone).then_some(Action::Remove)
    },
    leave: super::on_the_way_in_only,
};

/// One or two bullets or dots and nothing else (`•`, `◦`, ` · `).
pub fn is_bullet_glyph(text: &str) -> bool {
    let mut glyphs = text.chars().filter(|c| !c.is_whitespace());
    // Counted no further than it matters: text nodes can be paragraphs.
    let n = glyphs.clone().take(3).count();
    (1..=2).contains(&n) && glyphs.all(|c| "•◦▪▫‣⁃∙·⋅".contains(c))
}

pub const DROP_BULLET_MARKERS: Rule = Rule {
    name: "drop-bullet-markers",
    why: "a bullet glyph says only 'list item', which the '-' prefix already says; numbers are kept",
    visit: |v| {
        if v.node.role != Role::ListMarker {
            return None;
        }
        let has_word = v.node.name.chars().any(|c| c.is_alphanumeric());
        (!has_word).then_some(Action::Remove)
    },
    leave: super::on_the_way_in_only,
};

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;

    #[test]
    fn inline_text_boxes_never_appear() {
        let t = text(vec![root(&[2]), n(2, "StaticText", "Hello", &[3]), n(3, "InlineTextBox", "Hello", &[])]);
        assert_eq!(t, "page \"T\"\nHello\n");
    }

    #[test]
    fn text_echoing_link_name_is_dropped() {
        let t = text(vec![root(&[2]), n(2, "link", "Home", &[3]), n(3, "StaticText", "Home", &[])]);
        assert_eq!(t, "page \"T\"\nA0 [Home]\n");
    }

    #[test]
    fn echo_means_whole_words_or_a_part_the_name_starts_or_ends_with() {
        use super::contains_words;
        assert!(contains_words("Sign in", "Sign\n in"));
        assert!(contains_words("1.11972–1985: Founding", "1.1"));
        assert!(contains_words("1.11972–1985: Founding", "1972–1985: Founding"));
        assert!(!contains_words("Main navigation", "in"));
        assert!(!contains_words("Mercurial tutorial", "to"));
        assert!(!contains_words("Top 2021 picks", "2"));
    }

    #[test]
    fn text_echoing_the_page_title_stays() {
        let t = text(vec![n(1, "RootWebArea", "Cats and dogs", &[2]), n(2, "paragraph", "", &[3, 4, 5]),
            n(3, "StaticText", "Cats", &[]), n(4, "StaticText", " and ", &[]), n(5, "StaticText", "mice", &[])]);
        assert_eq!(t, "page \"Cats and dogs\"\nCats and mice\n");
    }

    #[test]
    fn text_not_in_the_name_stays() {
        let t = text(vec![root(&[2]), n(2, "button", "Close", &[3]), n(3, "StaticText", "×", &[])]);
        assert_eq!(t, "page \"T\"\nbutton A0 \"Close\" ×\n");
    }

    #[test]
    fn blank_and_hidden_text_are_dropped() {
        let t = text(vec![
            root(&[2, 3, 4]),
            n(2, "StaticText", " ", &[]),
            ignored(n(3, "StaticText", "hidden", &[])),
            n(4, "StaticText", "shown", &[]),
        ]);
        assert_eq!(t, "page \"T\"\nshown\n");
    }

    #[test]
    fn text_field_contents_print_once_as_its_value() {
        let t = text(vec![root(&[2]), value(n(2, "textbox", "City", &[3]), "Oslo"), n(3, "StaticText", "Oslo", &[])]);
        assert_eq!(t, "page \"T\"\ntextbox A0 \"City\": Oslo\n");
    }

    #[test]
    fn label_text_echoing_its_textbox_is_dropped() {
        let t = text(vec![
            root(&[2]),
            n(2, "generic", "", &[3, 5]),
            n(3, "LabelText", "", &[4]),
            n(4, "StaticText", "Email", &[]),
            n(5, "textbox", "Email", &[]),
        ]);
        assert_eq!(t, "page \"T\"\ntextbox A0 \"Email\"\n");
    }

    #[test]
    fn a_label_for_a_field_elsewhere_says_its_words_once_as_the_fields_name() {
        use serde_json::json;
        // <dl><dt><label for=email>Email</label></dt><dd><input id=email></dd></dl>
        let labelled = |node, label: i64| {
            let mut node: crate::cdp::AxNode = node;
            node.properties.push(crate::cdp::AxProperty {
                name: "labelledby".into(),
                value: serde_json::from_value(json!({ "type": "nodeList", "relatedNodes": [{ "backendDOMNodeId": label }] })).unwrap(),
            });
            node
        };
        let t = text(vec![
            root(&[2]),
            n(2, "DescriptionList", "", &[3, 6, 8, 11]),
            n(3, "term", "", &[4]),
            n(4, "LabelText", "", &[5]),
            n(5, "StaticText", "Email", &[]),
            n(6, "definition", "", &[7]),
            labelled(n(7, "textbox", "Email", &[]), 104),
            // Labelled by a sentence (aria-labelledby), not a <label>: the sentence stays.
            n(8, "term", "", &[9]),
            n(9, "paragraph", "", &[10]),
            n(10, "StaticText", "Your city", &[]),
            n(11, "definition", "", &[12]),
            labelled(n(12, "textbox", "Your city", &[]), 109),
        ]);
        assert_eq!(t, "page \"T\"\ntextbox A0 \"Email\"\nYour city\ntextbox A1 \"Your city\"\n");
    }

    #[test]
    fn label_text_a_link_in_the_label_repeats_stays() {
        let t = text(vec![
            root(&[2]),
            n(2, "generic", "", &[3, 6]),
            n(3, "LabelText", "", &[4, 5]),
            n(4, "StaticText", "Password ", &[]),
            n(5, "link", "(Forgot Password?)", &[]),
            n(6, "textbox", "", &[]),
        ]);
        assert_eq!(t, "page \"T\"\nPassword A0 [(Forgot Password?)]\ntextbox A1\n");
    }

    #[test]
    fn bullet_markers_go_numbers_stay() {
        let t = text(vec![
            root(&[2]),
            n(2, "list", "", &[3, 6]),
            n(3, "listitem", "", &[4, 5]),
            n(4, "ListMarker", "• ", &[]),
            n(5, "StaticText", "one", &[]),
            n(6, "listitem", "", &[7, 8]),
            n(7, "ListMarker", "2. ", &[]),
            n(8, "StaticText", "two", &[]),
        ]);
        assert_eq!(t, "page \"T\"\n- one\n2. two\n");
    }

    #[test]
    fn bullet_glyph_text_goes_and_still_parts_the_words() {
        let t = text(vec![
            root(&[2]),
            n(2, "paragraph", "", &[3, 4, 5, 6]),
            n(3, "StaticText", "4 yr. ago", &[]),
            n(4, "StaticText", "·", &[]),
            n(5, "StaticText", "edited", &[]),
            n(6, "StaticText", " • 2 • ", &[]),
        ]);
        assert_eq!(t, "page \"T\"\n4 yr. ago edited • 2 •\n");
    }

    #[test]
    fn a_bullet_alone_in_a_table_cell_is_a_value() {
        let t = text(vec![
            root(&[2]),
            n(2, "table", "", &[3]),
            n(3, "row", "", &[4, 6]),
            n(4, "cell", "", &[5]),
            n(5, "StaticText", "Backups", &[]),
            n(6, "cell", "", &[7]),
            n(7, "StaticText", "•", &[]),
        ]);
        assert_eq!(t, "page \"T\"\ntable\n | Backups | •\n");
    }
}
