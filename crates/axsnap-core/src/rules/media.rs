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
}
