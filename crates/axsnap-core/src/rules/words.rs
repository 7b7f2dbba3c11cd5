//! Names and descriptions a node says that its content does not: a heading
//! whose label is more than its link, a `<span title>` explaining an
//! abbreviation, a `<div aria-label>` naming a toolbar of share links.

use super::{Action, Rule};
use crate::cdp::NameSource;
use crate::role::Role;
use crate::tree::{NodeId, Tree};

/// How many nodes below a node are read to learn what its content says.
const CONTENT_SCAN: usize = 256;

/// The words of a string, as the comparisons here see them: runs of letters
/// and digits, ASCII case folded (Unicode case tables would cost the Wasm ~10 KB).
fn words(s: &str) -> impl Iterator<Item = String> + '_ {
    s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_ascii_lowercase)
}

/// The same words in the same order, whatever the punctuation, quotes and
/// ASCII case around them: `'Dracula Untold' May Get…` says what
/// `‘Dracula Untold’ May Get…` says (a CMS writes the image's alt text with
/// straight quotes, the title with curly ones).
pub fn same_word_sequence(a: &str, b: &str) -> bool {
    words(a).eq(words(b))
}

/// The words `id` shows below it: its text, its images' alt texts and its
/// controls' names.
fn shown_below(tree: &Tree, id: NodeId) -> Vec<String> {
    let mut shown: Vec<String> = Vec::new();
    for d in tree.descendants(id).take(CONTENT_SCAN) {
        let n = tree.node(d);
        if !n.ignored && (n.role == Role::StaticText || matches!(n.role, Role::Image | Role::Img) || n.role.is_control()) {
            shown.extend(words(&n.name));
        }
    }
    shown
}

/// Does what `id` shows below it say every word of `s`? Then `s` adds
/// nothing to it.
pub fn content_says(tree: &Tree, id: NodeId, s: &str) -> bool {
    let shown = shown_below(tree, id);
    words(s).all(|w| shown.contains(&w))
}

/// Is most of `s` said by what `id` shows below it? A name Chrome computed
/// from the content is, even where it also took in a hidden word or a
/// link's title; a label of its own (`aria-label`, `title`) is not.
fn mostly_said(tree: &Tree, id: NodeId, s: &str) -> bool {
    let shown = shown_below(tree, id);
    let (mut all, mut said) = (0, 0);
    for w in words(s) {
        all += 1;
        said += usize::from(shown.contains(&w));
    }
    2 * said >= all
}

/// A description that is data for programs, not words for people: a query
/// string in a title (COinS, `<span class="Z3988" title="ctx_ver=Z39.88-2004&…">`,
/// the OpenURL metadata reference managers read).
pub fn is_data(s: &str) -> bool {
    !s.trim().contains(' ') && s.contains('=') && s.contains('&')
}

/// The node's description, if it says words for people.
pub fn readable_description(node: &crate::tree::Node) -> Option<&str> {
    node.description.as_deref().filter(|d| !d.trim().is_empty() && !is_data(d))
}

/// Roles the wrapper rules lift when they carry no name: layout, generic
/// spans and inline formatting.
pub fn is_wrapper_role(role: &Role) -> bool {
    matches!(
        role,
        Role::Generic | Role::LabelText | Role::Paragraph | Role::LayoutTableCell | Role::Term | Role::Definition
            | Role::Figcaption | Role::Caption | Role::Blockquote | Role::Note | Role::SectionHeader
            | Role::SectionFooter | Role::DescriptionList | Role::Group | Role::Section | Role::Region
            | Role::Figure | Role::Article | Role::Document
    ) || super::is_inline_formatting(role)
}

/// Does a wrapper say words its content does not, by a name of its own or
/// its description? Then it is kept, and those words are printed with it.
pub fn says_more_than_content(tree: &Tree, id: NodeId) -> bool {
    let node = tree.node(id);
    let name = node.name.trim();
    let desc = readable_description(node).map(str::trim);
    has_own_name(tree, id) || desc.is_some_and(|d| !content_says(tree, id, d) && !words(d).all(|w| words(name).any(|n| n == w)))
}

/// A name of its own (an `aria-label`, a `title`), never one Chrome
/// computed from the content (which may also take in a hidden word or a
/// link's title). Where the tree does not say where a name comes from, one
/// mostly said by the content is taken for a name from content. Whether
/// the name is printed is decided where it would be: a span's after its
/// words unless they say it, a block's unless the line below says it.
pub fn has_own_name(tree: &Tree, id: NodeId) -> bool {
    let node = tree.node(id);
    let name = node.name.trim();
    !name.is_empty()
        && match node.name_from {
            NameSource::Contents => false,
            NameSource::Own => true,
            NameSource::Unknown => !mostly_said(tree, id, name),
        }
}

pub const KEEP_WRAPPERS_THAT_SAY_MORE: Rule = Rule {
    name: "keep-wrappers-that-say-more",
    why: "a span or block whose name or description (aria-label, title) says words its content does not is kept, so those words are printed with it",
    visit: |v| (!v.node.ignored && is_wrapper_role(&v.node.role) && says_more_than_content(v.tree, v.id)).then_some(Action::Keep),
    leave: super::on_the_way_in_only,
};

#[cfg(test)]
mod tests {
    use crate::rules::testing::*;
    use serde_json::json;

    fn titled(node: crate::cdp::AxNode, title: &str) -> crate::cdp::AxNode {
        let mut node = node;
        node.description = val(json!(title));
        node
    }

    #[test]
    fn the_same_word_sequence_ignores_quotes_dashes_and_ascii_case_but_not_words_or_order() {
        use super::same_word_sequence;
        assert!(same_word_sequence("'Dracula Untold' May Get Another Chance", "‘Dracula Untold’ May Get Another Chance"));
        assert!(same_word_sequence("The Great Wall - A Review", "The Great Wall – a review"));
        assert!(!same_word_sequence("Dracula Untold", "Dracula Untold Returns"));
        assert!(!same_word_sequence("Untold Dracula", "Dracula Untold"));
        assert!(!same_word_sequence("Photo", "Other title"));
    }

    #[test]
    fn a_titled_abbreviation_says_its_title_after_its_words() {
        let t = text(vec![
            root(&[2]),
            n(2, "paragraph", "", &[3, 4, 6]),
            n(3, "StaticText", "The ", &[]),
            titled(n(4, "generic", "", &[5]), "Estimated time of arrival"),
            n(5, "StaticText", "ETA", &[]),
            n(6, "StaticText", " is 5 min.", &[]),
        ]);
        assert_eq!(t, "page \"T\"\nThe ETA desc=\"Estimated time of arrival\" is 5 min.\n");
    }

    #[test]
    fn a_labelled_span_says_its_label_after_its_words() {
        let t = text(vec![
            root(&[2]),
            n(2, "paragraph", "", &[3, 4]),
            n(3, "StaticText", "Stars: ", &[]),
            n(4, "generic", "2569 users starred this repository", &[5]),
            n(5, "StaticText", "2.6k", &[]),
        ]);
        assert_eq!(t, "page \"T\"\nStars: 2.6k \"2569 users starred this repository\"\n");
    }

    #[test]
    fn a_labelled_block_is_a_line_of_its_own() {
        let t = text(vec![
            root(&[2]),
            n(2, "generic", "Share tools", &[3]),
            n(3, "list", "", &[4, 6]),
            n(4, "listitem", "", &[5]),
            prop(n(5, "link", "Facebook", &[]), "url", json!("https://facebook.com/share")),
            n(6, "listitem", "", &[7]),
            prop(n(7, "link", "Email", &[]), "url", json!("mailto:?subject=x")),
        ]);
        assert_eq!(
            t,
            "page \"T\"\ngeneric \"Share tools\"\n - A0 [Facebook](https://facebook.com/share)\n - A1 [Email](mailto:?subject=x)\n"
        );
    }

    #[test]
    fn a_span_whose_title_its_words_say_stays_a_span() {
        let t = text(vec![
            root(&[2]),
            n(2, "paragraph", "", &[3]),
            titled(n(3, "generic", "", &[4]), "2 concerts"),
            n(4, "StaticText", "2 concerts", &[]),
        ]);
        assert_eq!(t, "page \"T\"\n2 concerts\n");
    }

    #[test]
    fn metadata_for_programs_in_a_title_is_not_printed() {
        let t = text(vec![
            root(&[2]),
            n(2, "paragraph", "", &[3, 4]),
            n(3, "StaticText", "Jones, M. (2015). Time Travel.", &[]),
            titled(n(4, "generic", "", &[]), "ctx_ver=Z39.88-2004&rft.genre=book&rft.btitle=Time+Travel"),
        ]);
        assert_eq!(t, "page \"T\"\nJones, M. (2015). Time Travel.\n");
    }
}
