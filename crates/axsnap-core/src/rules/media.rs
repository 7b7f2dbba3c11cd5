//! Rules about images and separators.

use super::text::contains_words;
use super::{Action, Rule};
use crate::role::Role;

fn is_image(role: &Role) -> bool {
    matches!(role, Role::Image | Role::Img)
}

pub const DROP_UNNAMED_IMAGES: Rule = Rule {
    name: "drop-unnamed-images",
    why: "an image without alt text is decorative: there is nothing to read, and actionable ones were kept earlier",
    visit: |v| {
        (is_image(&v.node.role) && v.node.name.trim().is_empty()).then_some(Action::Remove)
    },
    leave: super::on_the_way_in_only,
};

pub const DROP_ECHOED_IMAGES: Rule = Rule {
    name: "drop-echoed-images",
    why: "an image whose alt text and title are already its link's or button's name would be read twice",
    visit: |v| {
        if !is_image(&v.node.role) {
            return None;
        }
        let said = v.ancestor_name?;
        let title_said = super::readable_description(v.node).is_none_or(|d| contains_words(said, d));
        (contains_words(said, &v.node.name) && title_said).then_some(Action::Remove)
    },
    leave: super::on_the_way_in_only,
};

pub const DROP_SEPARATORS: Rule = Rule {
    name: "drop-separators",
    why: "a non-focusable separator is a drawn line; the list and landmark structure around it remains",
    visit: |v| {
        (v.node.role == Role::Separator).then_some(Action::Remove)
    },
    leave: super::on_the_way_in_only,
};

pub const DROP_SEPARATOR_ITEMS: Rule = Rule {
    name: "drop-separator-items",
    why: "a list item holding only a divider glyph (`|`, `>`, `/`, `»`) is drawn punctuation between items, not one",
    visit: |v| {
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
    },
    leave: super::on_the_way_in_only,
};

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
        assert_eq!(t, "page \"T\"\nA0 [Logo]\n");
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
        assert_eq!(t, "page \"T\"\n- A0 [Home]\n- …\n");
    }
}
