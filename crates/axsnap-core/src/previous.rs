//! A tab's previous text snapshot, and what a diff snapshot compares with.
//!
//! Usually that is the snapshot just before. One exception: a modal dialog
//! hides the page behind it (Chrome leaves everything else out of the tree
//! while it is open), so an agent's view goes page → dialog → page. When the
//! dialog closes, the page comes back much as it was before the dialog
//! opened; compared with the dialog, all of it would read as new and the
//! whole page would be sent again. So the snapshot taken before a modal
//! dialog opened is kept while it is open, and the first snapshot after it
//! closes is compared with that one, saying so (`dialog "New project"
//! closed; since the page before it: …`). The agent read that page; the diff
//! says everything that differs from it, so nothing is hidden.

use crate::diff;
use crate::options::Mode;

#[derive(Debug, Clone, Default)]
pub struct Previous {
    basis: Option<Basis>,
    lines: Vec<diff::Printed>,
    /// The modal dialog this snapshot showed (its line's words, `dialog "New project"`).
    modal: Option<String>,
    /// While a modal dialog is open: the last snapshot before it opened.
    behind: Option<Box<Previous>>,
}

/// What a snapshot's lines depend on besides the page.
#[derive(Debug, Clone, PartialEq)]
pub struct Basis {
    /// The main frame's document.
    pub document: String,
    pub mode: Mode,
    pub max_text: Option<usize>,
    pub max_url: Option<usize>,
}

/// How a `diff: true` snapshot answered.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct DiffOutcome {
    /// The full snapshot was returned instead of a diff; `reason` says why.
    pub full: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<&'static str>,
    pub added: usize,
    pub removed: usize,
    pub changed: usize,
    /// The diff compares with the page as it was before this modal dialog
    /// opened, not with the dialog (the previous snapshot).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub closed: Option<String>,
}

impl DiffOutcome {
    fn whole(reason: &'static str) -> Self {
        DiffOutcome { full: true, reason: Some(reason), added: 0, removed: 0, changed: 0, closed: None }
    }
}

impl Previous {
    /// Makes `lines` the tab's previous snapshot and returns what a diff
    /// should compare them with. `modal` is the modal dialog they show.
    pub fn replace(&mut self, basis: Basis, lines: Vec<diff::Printed>, modal: Option<String>) -> Previous {
        let mut before = std::mem::take(self);
        self.basis = Some(basis);
        self.lines = lines;
        self.modal = modal;
        if self.modal.is_some() {
            // The page before the first of the dialogs open now.
            self.behind = match (before.modal.is_some(), before.behind.take()) {
                (true, behind) => behind,
                (false, _) => Some(Box::new(before.clone())),
            };
        }
        before
    }

    /// Cuts text out of every line kept (`cut` answers the new text, or
    /// `None` to keep it): what was typed since they were printed. The
    /// lines are cut together, joined by `\n` (a text with line breaks is
    /// printed as several lines); `cut` must keep the line breaks.
    pub fn cut(&mut self, cut: &dyn Fn(&str) -> Option<String>) {
        let joined = self.lines.iter().map(|l| l.text.as_str()).collect::<Vec<_>>().join("\n");
        if let Some(clean) = cut(&joined) {
            let parts: Vec<&str> = clean.split('\n').collect();
            if parts.len() == self.lines.len() {
                for (l, p) in self.lines.iter_mut().zip(parts) {
                    l.text = p.to_string();
                }
            } else {
                // A line of its own holds a line break: one by one.
                for l in &mut self.lines {
                    l.text = cut(&l.text).unwrap_or_else(|| std::mem::take(&mut l.text));
                }
            }
        }
        for l in &mut self.lines {
            l.head = cut(&l.head).unwrap_or_else(|| std::mem::take(&mut l.head));
        }
        if let Some(m) = self.modal.as_mut().and_then(|m| cut(m)) {
            self.modal = Some(m);
        }
        if let Some(b) = &mut self.behind {
            b.cut(cut);
        }
    }

    /// The lines of the tab's latest snapshot.
    pub fn lines(&self) -> &[diff::Printed] {
        &self.lines
    }
}

/// The diff of `now` against `before` (the previous snapshot, as
/// [`Previous::replace`] returned it), if it is worth sending: its text, or
/// none (the full snapshot goes instead), and what to say.
pub fn compare(before: &Previous, basis: &Basis, now: &[diff::Printed], modal: bool, max_chars: Option<usize>) -> (Option<diff::DiffText>, DiffOutcome) {
    // A modal dialog closed: compare with the page it covered.
    let (base, closed) = match (&before.modal, &before.behind, modal) {
        (Some(dialog), Some(behind), false) if behind.basis.as_ref() == Some(basis) => (&**behind, Some(dialog.clone())),
        _ => (before, None),
    };
    match &base.basis {
        None => return (None, DiffOutcome::whole("no previous snapshot of this tab to compare with")),
        Some(b) if b.document != basis.document => return (None, DiffOutcome::whole("the tab shows a new document")),
        Some(b) if b != basis => return (None, DiffOutcome::whole("the options changed since the previous snapshot")),
        Some(_) => {}
    }
    let d = diff::diff(&base.lines, now);
    let mut shown = diff::print(&base.lines, &d);
    let (added, removed, changed) = (shown.added, shown.removed, shown.changed);
    let outcome = |full, reason| DiffOutcome { full, reason, added, removed, changed, closed: closed.clone() };
    let whole = text_of(now);
    // The contract: the previous snapshot and the diff make the new one, line for line.
    if diff::patch(&text_of(&base.lines), &shown.text).as_deref() != Some(whole.as_str()) {
        return (None, outcome(true, Some("the diff cannot say this change exactly")));
    }
    if let Some(dialog) = &closed {
        shown.text.insert_str(0, &format!("{dialog} closed; since the page before it: "));
    }
    let size = shown.text.chars().count();
    // A diff costs a reader more than the same words whole: it is sent while smaller by a tenth.
    if size * 10 > whole.chars().count() * 9 && !d.is_empty() {
        return (None, outcome(true, Some("the diff is not much smaller than the full snapshot")));
    }
    if max_chars.is_some_and(|m| size > m) {
        return (None, outcome(true, Some("the diff is larger than the character cap")));
    }
    (Some(shown), outcome(false, None))
}

/// Lines as the full text snapshot prints them.
fn text_of(lines: &[diff::Printed]) -> String {
    let mut s = String::with_capacity(lines.iter().map(|l| l.depth + l.text.len() + 1).sum());
    for l in lines {
        s.extend(std::iter::repeat_n(' ', l.depth));
        s.push_str(&l.text);
        s.push('\n');
    }
    s
}

/// The words of the line of the outermost modal dialog among `lines`.
pub fn modal_line(lines: &[diff::Printed], shown: bool) -> Option<String> {
    use crate::role::Role;
    if !shown {
        return None;
    }
    lines
        .iter()
        .filter(|l| matches!(l.kind, crate::lines::Kind::Element(Role::Dialog | Role::AlertDialog)))
        .min_by_key(|l| l.depth)
        .map(|l| l.head.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::Kind;
    use crate::role::Role;

    fn line(depth: usize, kind: Kind, text: &str, refs: &[u32]) -> diff::Printed {
        diff::Printed::of(depth, kind, text, refs)
    }

    fn basis() -> Basis {
        Basis { document: "d1".into(), mode: Mode::Full, max_text: None, max_url: None }
    }

    fn page(extra: &[&str]) -> Vec<diff::Printed> {
        let mut l = vec![line(0, Kind::Element(Role::Main), "main", &[]), line(1, Kind::Heading, "# Projects", &[])];
        for t in extra {
            l.push(line(1, Kind::Text, t, &[]));
        }
        for i in 0..20 {
            l.push(line(1, Kind::Link { same_page: false }, &format!("[Project {i}](/p/{i}) A{i}"), &[i]));
        }
        l
    }

    fn dialog() -> Vec<diff::Printed> {
        vec![
            line(0, Kind::Element(Role::Dialog), "dialog A90 \"New project\" modal", &[90]),
            line(1, Kind::Element(Role::TextBox), "textbox A91 \"Name\" focused", &[91]),
            line(1, Kind::Element(Role::TextBox), "textbox A92 \"Description of the project\"", &[92]),
            line(1, Kind::Element(Role::TextBox), "textbox A93 \"Owner of the project\"", &[93]),
            line(1, Kind::Element(Role::Button), "button A94 \"Cancel\"", &[94]),
            line(1, Kind::Element(Role::Button), "button A95 \"Create\"", &[95]),
        ]
    }

    #[test]
    fn the_page_after_a_modal_dialog_is_compared_with_the_page_before_it() {
        let mut prev = Previous::default();
        prev.replace(basis(), page(&[]), None);
        let d = dialog();
        let modal = modal_line(&d, true);
        assert_eq!(modal.as_deref(), Some("dialog \"New project\""));
        prev.replace(basis(), d, modal);
        // A second look inside the dialog keeps the page it covers.
        let before = prev.replace(basis(), dialog(), Some("dialog \"New project\"".into()));
        let (_, o) = compare(&before, &basis(), prev.lines(), true, None);
        assert!(!o.full && o.closed.is_none() && o.added + o.removed + o.changed == 0);
        let now = page(&["Created Apollo"]);
        let before = prev.replace(basis(), now.clone(), None);
        let (shown, o) = compare(&before, &basis(), &now, false, None);
        let shown = shown.expect("a diff, not the whole page");
        assert_eq!(o.closed.as_deref(), Some("dialog \"New project\""));
        assert_eq!((o.added, o.removed, o.changed), (1, 0, 0));
        assert!(shown.text.starts_with("dialog \"New project\" closed; since the page before it: +1 in main\n"), "{}", shown.text);
        // The dialog is gone: the next diff compares with the page again.
        let before = prev.replace(basis(), now.clone(), None);
        let (_, o) = compare(&before, &basis(), &now, false, None);
        assert!(o.closed.is_none() && !o.full);
    }

    #[test]
    fn a_new_document_behind_the_dialog_is_sent_whole() {
        let mut prev = Previous::default();
        prev.replace(basis(), page(&[]), None);
        prev.replace(basis(), dialog(), Some("dialog \"New project\"".into()));
        let other = Basis { document: "d2".into(), ..basis() };
        let before = prev.replace(other.clone(), page(&[]), None);
        let (shown, o) = compare(&before, &other, prev.lines(), false, None);
        assert!(shown.is_none() && o.full);
        assert_eq!(o.reason, Some("the tab shows a new document"));
    }

    #[test]
    fn a_dialog_that_stays_is_compared_with_the_previous_snapshot() {
        let mut prev = Previous::default();
        prev.replace(basis(), page(&[]), None);
        prev.replace(basis(), dialog(), Some("dialog \"New project\"".into()));
        let mut d = dialog();
        d.push(line(1, Kind::Element(Role::Alert), "alert Name the project", &[]));
        let before = prev.replace(basis(), d.clone(), Some("dialog \"New project\"".into()));
        let (shown, o) = compare(&before, &basis(), &d, true, None);
        assert!(o.closed.is_none() && (o.added, o.removed) == (1, 0), "{o:?}");
        assert!(shown.unwrap().text.starts_with("+1 in dialog \"New project\""));
    }
}
