//! How much of a long list, grid or tree the page holds. A virtualized
//! list keeps only the items in view in the DOM and says how many there are
//! with `aria-rowcount` / `aria-setsize` and where each item sits with
//! `aria-rowindex` / `aria-posinset` (read from the DOM by the extension:
//! Chrome's tree does not carry them). When the total is larger than what
//! is there, the container ends with one line saying which items are shown:
//! `rows 1–19 of 10,001; scroll for more` (`scroll up for more` when the
//! last ones are shown).

use crate::role::Role;
use crate::tree::{NodeId, Tree};

/// Kinds of containers, the role of their items and what the note calls them.
fn items_of(role: &Role) -> Option<(fn(&Role) -> bool, &'static str)> {
    match role {
        Role::Table | Role::Grid | Role::TreeGrid => Some((|r| *r == Role::Row, "rows")),
        Role::List => Some((|r| *r == Role::ListItem, "items")),
        Role::ListBox => Some((|r| matches!(r, Role::Option | Role::MenuListOption), "options")),
        Role::Tree => Some((|r| *r == Role::TreeItem, "items")),
        _ => None,
    }
}

/// The note for a container holding fewer items than its stated total.
pub fn note(tree: &Tree, id: NodeId) -> Option<String> {
    let container = tree.node(id);
    let (is_item, noun) = items_of(&container.role)?;
    let mut indices = Vec::new();
    let mut present = 0u64;
    let mut largest_set = None;
    // Items of this container, not of one nested in it.
    let mut stack: Vec<NodeId> = container.children.clone();
    while let Some(d) = stack.pop() {
        let n = tree.node(d);
        if is_item(&n.role) && !n.ignored {
            present += 1;
            indices.extend(n.props.set_index);
            largest_set = largest_set.max(n.props.set_count);
        }
        if items_of(&n.role).is_none() {
            stack.extend(n.children.iter().copied());
        }
    }
    let total = container.props.set_count.or(largest_set)?;
    if total <= present || present == 0 {
        return None;
    }
    if indices.len() as u64 != present {
        indices = (1..=present).collect();
    }
    indices.sort_unstable();
    indices.dedup();
    // The last items shown: what is missing lies above.
    let more = if indices.last() == Some(&total) { "scroll up for more" } else { "scroll for more" };
    Some(format!("{noun} {} of {}; {more}", ranges(&indices), thousands(total)))
}

/// `1, 100–125`: contiguous runs, the first three and then `…`.
fn ranges(sorted: &[u64]) -> String {
    let mut runs: Vec<(u64, u64)> = Vec::new();
    for &i in sorted {
        match runs.last_mut() {
            Some((_, end)) if *end + 1 == i => *end = i,
            _ => runs.push((i, i)),
        }
    }
    let mut parts: Vec<String> = runs
        .iter()
        .take(3)
        .map(|&(a, b)| if a == b { thousands(a) } else { format!("{}–{}", thousands(a), thousands(b)) })
        .collect();
    if runs.len() > 3 {
        parts.push("…".into());
    }
    parts.join(", ")
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::cdp::{FrameInput, PositionFact};
    use crate::rules::testing::*;

    fn with_positions(nodes: Vec<crate::AxNode>, facts: &[(u32, Option<u64>, Option<u64>)]) -> String {
        let positions = facts
            .iter()
            .map(|&(id, count, index)| PositionFact { backend_node_id: id as i64 + 100, count, index })
            .collect();
        text_of_frame(FrameInput { key: "main".into(), nodes, positions, ..FrameInput::default() })
    }

    #[test]
    fn a_virtual_list_says_which_items_it_shows() {
        let t = with_positions(
            vec![
                root(&[2]),
                n(2, "list", "", &[3, 5]),
                n(3, "listitem", "", &[4]),
                n(4, "StaticText", "Order 100", &[]),
                n(5, "listitem", "", &[6]),
                n(6, "StaticText", "Order 101", &[]),
            ],
            &[(3, Some(10000), Some(100)), (5, Some(10000), Some(101))],
        );
        assert!(t.ends_with("- Order 100\n- Order 101\nitems 100–101 of 10,000; scroll for more\n"), "{t}");
    }

    #[test]
    fn a_complete_list_says_nothing() {
        let t = with_positions(
            vec![root(&[2]), n(2, "list", "", &[3]), n(3, "listitem", "", &[4]), n(4, "StaticText", "Only", &[])],
            &[(3, Some(1), Some(1))],
        );
        assert_eq!(t, "page \"T\"\n- Only\n");
    }

    #[test]
    fn runs_and_thousands() {
        assert_eq!(super::ranges(&[1, 100, 101, 102]), "1, 100–102");
        assert_eq!(super::ranges(&[1, 3, 5, 7]), "1, 3, 5, …");
        assert_eq!(super::thousands(10001), "10,001");
        assert_eq!(super::thousands(999), "999");
    }
}
