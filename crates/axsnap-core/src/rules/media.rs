//! Rules about images and separators.

use super::text::contains_words;
use super::{Action, Rule, Visit};
use crate::role::Role;

fn is_image(role: &Role) -> bool {
    matches!(role, Role::Image | Role::Img)
}

pub struct DropUnnamedImages;
impl Rule for DropUnnamedImages {
    fn name(&self) -> &'static str {
        "drop-unnamed-images"
    }
    fn why(&self) -> &'static str {
        "an image without alt text is decorative: there is nothing to read, and actionable ones were kept earlier"
    }
    fn visit(&self, v: &Visit) -> Option<Action> {
        (is_image(&v.node.role) && v.node.name.trim().is_empty()).then_some(Action::Remove)
    }
}

pub struct DropEchoedImages;
impl Rule for DropEchoedImages {
    fn name(&self) -> &'static str {
        "drop-echoed-images"
    }
    fn why(&self) -> &'static str {
        "an image whose alt text is already its link's or button's name would be read twice"
    }
    fn visit(&self, v: &Visit) -> Option<Action> {
        if !is_image(&v.node.role) {
            return None;
        }
        contains_words(v.ancestor_name?, &v.node.name).then_some(Action::Remove)
    }
}

pub struct DropSeparators;
impl Rule for DropSeparators {
    fn name(&self) -> &'static str {
        "drop-separators"
    }
    fn why(&self) -> &'static str {
        "a non-focusable separator is a drawn line; the list and landmark structure around it remains"
    }
    fn visit(&self, v: &Visit) -> Option<Action> {
        (v.node.role == Role::Separator).then_some(Action::Remove)
    }
}

pub struct DropSeparatorItems;
impl Rule for DropSeparatorItems {
    fn name(&self) -> &'static str {
        "drop-separator-items"
    }
    fn why(&self) -> &'static str {
        "a list item holding only a divider glyph (`|`, `>`, `/`, `»`) is drawn punctuation between items, not one"
    }
    fn visit(&self, v: &Visit) -> Option<Action> {
        if v.node.role != Role::ListItem || v.is_actionable(v.id) {
            return None;
        }
        let mut glyphs = 0;
        // A divider item is tiny; a bigger one is content whatever it starts with.
        for (seen, d) in v.tree.descendants(v.id).enumerate() {
            if seen == 16 {
                return None;
            }
            let n = v.tree.node(d);
            if v.is_actionable(d) || (is_image(&n.role) && !n.name.trim().is_empty()) {
                return None;
            }
            if n.role == Role::StaticText && !n.ignored {
                for c in n.name.chars().filter(|c| !c.is_whitespace()) {
                    if !DIVIDERS.contains(c) {
                        return None;
                    }
                    glyphs += 1;
                }
            }
        }
        (1..=2).contains(&glyphs).then_some(Action::Remove)
    }
}

const DIVIDERS: &str = "|/\\>›»·•∙⋅¦";

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;

    #[test]
    fn decorative_image_is_dropped_named_image_stays() {
        let t = text(vec![root(&[2, 3]), n(2, "image", "", &[]), n(3, "image", "A cat", &[])]);
        assert_eq!(t, "page \"T\"\nimg \"A cat\"\n");
    }

    #[test]
    fn image_echoing_link_name_is_dropped() {
        let t = text(vec![root(&[2]), n(2, "link", "Logo", &[3]), n(3, "image", "Logo", &[])]);
        assert_eq!(t, "page \"T\"\n[Logo] A0\n");
    }

    #[test]
    fn separators_are_dropped() {
        let t = text(vec![root(&[2, 3]), n(2, "separator", "", &[]), n(3, "StaticText", "x", &[])]);
        assert_eq!(t, "page \"T\"\nx\n");
    }

    #[test]
    fn divider_items_go_items_with_words_or_links_stay() {
        let t = text(vec![
            root(&[2]),
            n(2, "list", "", &[3, 5, 7, 9]),
            n(3, "listitem", "", &[4]),
            n(4, "link", "Home", &[]),
            n(5, "listitem", "", &[6]),
            n(6, "StaticText", " | ", &[]),
            n(7, "listitem", "", &[8]),
            n(8, "StaticText", "…", &[]),
            n(9, "listitem", "", &[10]),
            n(10, "StaticText", "»", &[]),
        ]);
        assert_eq!(t, "page \"T\"\n- [Home] A0\n- …\n");
    }
}
