//! How much of a long list, grid or tree the page holds. A virtualized
//! list keeps only the items in view in the DOM and says how many there are
//! with `aria-rowcount` / `aria-setsize` and where each item sits with
//! `aria-rowindex` / `aria-posinset` (read from the DOM by the extension:
//! Chrome's tree does not carry them). When the total is larger than what
//! is there, the container ends with one line saying which items are shown:
//! `rows 1–19 of 10,001; scroll for more` (`scroll up for more` when the
//! last ones are shown).
//!
//! A virtualized list that says nothing of its size is told by its scroll
//! container: when the text the DOM holds covers less of its scroll height
//! than a screen short of it, above or below, the container ends with
//! `items 1–17 of about 10,000; scroll for more` (the total, and where the
//! items shown sit, estimated from the items' height: the first is the
//! number of item heights above it, plus one; `more than shown here;
//! scroll for more` without items to count).

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

/// The note for a container holding fewer items than its stated total, or
/// for a scroll container whose content the DOM holds only part of.
pub fn note(tree: &Tree, id: NodeId) -> Option<String> {
    stated(tree, id).or_else(|| scrolled(tree, id))
}

/// Items of a container, not of one nested in it: how many, their
/// positions and the largest set size they state.
fn items(tree: &Tree, id: NodeId, is_item: fn(&Role) -> bool) -> (u64, Vec<u64>, Option<u64>) {
    let mut indices = Vec::new();
    let mut present = 0u64;
    let mut largest_set = None;
    let mut stack: Vec<NodeId> = tree.node(id).children.clone();
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
    (present, indices, largest_set)
}

fn scrolled(tree: &Tree, id: NodeId) -> Option<String> {
    let s = tree.node(id).props.scroll?;
    let below = s.height - s.content_bottom > s.client;
    let above = s.content_top > s.client;
    let more = match (above, below) {
        (true, true) => "scroll up or down for more",
        (false, true) => "scroll for more",
        (true, false) => "scroll up for more",
        (false, false) => return None,
    };
    // The first list, table, grid, listbox or tree inside: its items are what the container shows.
    let mut queue = std::collections::VecDeque::from([id]);
    while let Some(d) = queue.pop_front() {
        let n = tree.node(d);
        if let Some((is_item, noun)) = items_of(&n.role) {
            let (present, _, largest_set) = items(tree, d, is_item);
            if n.props.set_count.or(largest_set).is_some() {
                return None; // it states its size: its own note says it
            }
            let span = s.content_bottom - s.content_top;
            if present == 0 || span <= 0.0 {
                break;
            }
            let each = span / present as f64;
            let total = about(s.height / each).max(present);
            let first = ((s.content_top / each).floor().max(0.0) as u64 + 1).min(total + 1 - present);
            let last = first + present - 1;
            let shown = if present == 1 { thousands(first) } else { format!("{}–{}", thousands(first), thousands(last)) };
            return Some(format!("{noun} {shown} of about {}; {more}", thousands(total)));
        }
        queue.extend(n.children.iter().copied());
    }
    Some(format!("more than shown here; {more}"))
}

/// Two significant digits: an estimate says no more than it knows.
fn about(x: f64) -> u64 {
    if !x.is_finite() || x < 1.0 {
        return 0;
    }
    let step = 10f64.powi((x.log10().floor() as i32 - 1).max(0));
    ((x / step).round() * step) as u64
}

fn stated(tree: &Tree, id: NodeId) -> Option<String> {
    let container = tree.node(id);
    let (is_item, noun) = items_of(&container.role)?;
    let (present, mut indices, largest_set) = items(tree, id, is_item);
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
            .map(|&(id, count, index)| PositionFact { backend_node_id: id as i64 + 100, count, index, scroll: None })
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
    fn a_virtual_list_without_counts_is_told_by_its_scroll_height() {
        use crate::cdp::Scroll;
        let nodes = || vec![
            root(&[2]),
            n(2, "generic", "", &[3]),
            n(3, "list", "", &[4, 6]),
            n(4, "listitem", "", &[5]),
            n(5, "StaticText", "Message 1", &[]),
            n(6, "listitem", "", &[7]),
            n(7, "StaticText", "Message 2", &[]),
        ];
        let with_scroll = |scroll: Scroll| {
            let positions = vec![PositionFact { backend_node_id: 102, scroll: Some(scroll), ..Default::default() }];
            text_of_frame(FrameInput { key: "main".into(), nodes: nodes(), positions, ..FrameInput::default() })
        };
        // 10,000 rows of 30 px, the first two in the DOM.
        let top = with_scroll(Scroll { top: 0.0, height: 300_000.0, client: 400.0, content_top: 5.0, content_bottom: 65.0 });
        assert!(top.ends_with("- Message 2\nitems 1–2 of about 10,000; scroll for more\n"), "{top}");
        let middle = with_scroll(Scroll { top: 3000.0, height: 300_000.0, client: 400.0, content_top: 3005.0, content_bottom: 3065.0 });
        assert!(middle.ends_with("\nitems 101–102 of about 10,000; scroll up or down for more\n"), "{middle}");
        // Near the end, the places stay within the estimated total.
        let end = with_scroll(Scroll { top: 299_500.0, height: 300_000.0, client: 400.0, content_top: 299_990.0, content_bottom: 300_050.0 });
        assert!(end.ends_with("\nitems 9,999–10,000 of about 10,000; scroll up for more\n"), "{end}");
        // All of it in the DOM: nothing to say.
        let whole = with_scroll(Scroll { top: 0.0, height: 1000.0, client: 400.0, content_top: 5.0, content_bottom: 995.0 });
        assert!(!whole.contains("scroll"), "{whole}");
    }

    #[test]
    fn estimates_keep_two_digits() {
        assert_eq!(super::about(10_344.8), 10_000);
        assert_eq!(super::about(1_567.0), 1_600);
        assert_eq!(super::about(47.4), 47);
    }

    #[test]
    fn runs_and_thousands() {
        assert_eq!(super::ranges(&[1, 100, 101, 102]), "1, 100–102");
        assert_eq!(super::ranges(&[1, 3, 5, 7]), "1, 3, 5, …");
        assert_eq!(super::thousands(10001), "10,001");
        assert_eq!(super::thousands(999), "999");
    }
}
