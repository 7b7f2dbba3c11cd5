//! The text format. One line per block, one space of indent per level,
//! inline runs (text, links, images) flowing on one line. Refs follow what
//! they name: `button "OK" A7`, `[Docs](/docs) A8`.

use super::{clip, describe};
use crate::distill::{is_blank, Element, Out};
use crate::role::Role;
use crate::tree::{starts_capitalised, Tree};

#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    pub depth: usize,
    pub text: String,
    /// Refs printed on this line.
    pub refs: usize,
}

pub struct TextRenderer<'a> {
    tree: &'a Tree,
    max_text: Option<usize>,
    /// Interactive mode prints no link URLs: the agent acts by ref, and
    /// `resolve` gives the URL of any link.
    link_urls: bool,
    max_url: Option<usize>,
    pub lines: Vec<Line>,
    /// Link URLs; lines hold `URL_START index URL_END` in their place until
    /// `budget::finish` decides between inline `(url)` and a `[n]` reference.
    pub urls: Vec<String>,
    url_index: std::collections::HashMap<String, usize>,
    /// Descriptions already printed: a description repeated down a list
    /// (every permalink's "Permalink to this headline") is printed once.
    said: std::collections::HashSet<String>,
}

pub const URL_START: char = '\u{E000}';
pub const URL_END: char = '\u{E001}';

/// An inline run being assembled into lines.
#[derive(Default)]
struct Run {
    text: String,
    refs: usize,
    pending_space: bool,
    /// The anchor of the last text pushed.
    anchor: Option<u32>,
    /// Inside preformatted text: whitespace is kept as it is.
    pre: bool,
}

impl Run {
    fn is_empty(&self) -> bool {
        self.text.is_empty()
    }

    /// Text from another box than the previous text, touching it without a
    /// space, is a new word ("description" then "$12"), unless it starts
    /// with closing punctuation. In the same box, a capitalised word touching
    /// a letter or digit is one too ("1" "History", "takeover" "Credit:"),
    /// while a lowercase one may continue it (a drop cap: "W" "hale").
    fn push_boxed_text(&mut self, raw: &str, anchor: u32) {
        let new_box = self.anchor.is_some_and(|a| a != anchor);
        self.anchor = Some(anchor);
        self.pre = self.pre || crate::rules::is_preformatted(raw);
        if self.pre {
            // In code every space is in the text itself.
            return self.push_scanned(raw);
        }
        let touching = !self.pending_space
            && self.text.chars().last().is_some_and(|c| c.is_alphanumeric() || matches!(c, ')' | '%' | '.' | ':'))
            && raw.chars().next().is_some_and(|c| !c.is_whitespace() && !matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | ')' | ']' | '}' | '%' | '\'' | '"' | '’' | '”' | '…' | '^'));
        let after_word = self.text.chars().last().is_some_and(char::is_alphanumeric);
        if touching && (new_box || starts_capitalised(raw) && after_word) {
            self.pending_space = true;
        }
        self.push_scanned(raw);
    }

    fn push_text(&mut self, raw: &str) {
        self.pre = self.pre || crate::rules::is_preformatted(raw);
        self.push_scanned(raw);
    }

    /// `raw` once `pre` has seen it. Preformatted text (code) goes in as it
    /// is, and so does the rest of its block: a highlighted line is many
    /// small spans.
    fn push_scanned(&mut self, raw: &str) {
        if self.pre {
            if self.pending_space && !self.text.is_empty() && !self.text.ends_with(char::is_whitespace) && !raw.starts_with(char::is_whitespace) {
                self.text.push(' ');
            }
            self.text.push_str(raw);
            self.pending_space = false;
            return;
        }
        let lead = raw.starts_with(char::is_whitespace);
        let trail = raw.ends_with(char::is_whitespace);
        let core = super::squash(raw);
        if core.is_empty() {
            self.pending_space = true;
            return;
        }
        if !self.text.is_empty() && !self.text.ends_with('\n') && (lead || self.pending_space) && !self.text.ends_with(' ') {
            self.text.push(' ');
        }
        self.text.push_str(&core);
        self.pending_space = trail;
    }

    fn push_element(&mut self, s: &str, refs: usize) {
        if !self.text.is_empty() && !self.text.ends_with(['\n', ' ']) {
            self.text.push(' ');
        }
        self.text.push_str(s);
        self.refs += refs;
        self.pending_space = true;
    }
}

impl<'a> TextRenderer<'a> {
    pub fn new(tree: &'a Tree, max_text: Option<usize>) -> Self {
        TextRenderer { tree, max_text, link_urls: true, max_url: None, lines: Vec::new(), urls: Vec::new(), url_index: Default::default(), said: Default::default() }
    }

    pub fn with_max_url(mut self, max_url: Option<usize>) -> Self {
        self.max_url = max_url.filter(|&m| m > 0);
        self
    }

    pub fn without_link_urls(mut self) -> Self {
        self.link_urls = false;
        self
    }

    /// Lines with URL placeholders, and the URLs they stand for.
    pub fn render(mut self, outs: &[Out]) -> (Vec<Line>, Vec<String>) {
        self.children(outs, 0);
        (self.lines, self.urls)
    }

    /// The placeholder of a URL, one per full URL: two URLs clipped to the
    /// same text are still two destinations, never one reference.
    fn url_slot(&mut self, url: &str, shown: &str) -> String {
        let next = self.urls.len();
        let i = *self.url_index.entry(url.to_string()).or_insert(next);
        if i == next {
            self.urls.push(shown.to_string());
        }
        format!("{URL_START}{i}{URL_END}")
    }

    fn flush(&mut self, run: &mut Run, depth: usize) {
        if run.is_empty() {
            *run = Run::default();
            return;
        }
        let mut refs = run.refs;
        for piece in run.text.split('\n') {
            let piece = piece.trim_end();
            if piece.trim().is_empty() {
                continue;
            }
            let text = clip(piece, self.max_text.map(|m| m.max(1)));
            self.lines.push(Line { depth, text, refs });
            refs = 0;
        }
        *run = Run::default();
    }

    fn children(&mut self, outs: &[Out], depth: usize) {
        let mut run = Run::default();
        for out in outs {
            match out {
                Out::Text(t, anchor) => run.push_boxed_text(&clip(t, self.max_text), *anchor),
                Out::Marker(t) => run.push_text(&clip(t, self.max_text)),
                Out::Break => self.flush(&mut run, depth),
                Out::Element(e) if inline_capable(e) => {
                    let (s, refs) = self.inline(e);
                    run.push_element(&s, refs);
                }
                Out::Element(e) => {
                    self.flush(&mut run, depth);
                    self.element(e, depth);
                }
            }
        }
        self.flush(&mut run, depth);
    }

    /// An inline element and its inline children, as one string.
    fn inline(&mut self, e: &Element) -> (String, usize) {
        let (mut s, mut refs) = (self.header(e), e.ref_count());
        let mut run = Run { text: s.clone(), pending_space: true, ..Run::default() };
        for c in &e.children {
            match c {
                Out::Text(t, anchor) => run.push_boxed_text(&clip(t, self.max_text), *anchor),
                Out::Marker(t) => run.push_text(&clip(t, self.max_text)),
                Out::Break => run.pending_space = true,
                Out::Element(ce) => {
                    let (cs, cr) = self.inline(ce);
                    run.push_element(&cs, cr);
                }
            }
        }
        refs += run.refs;
        s = run.text.replace('\n', " ");
        (s, refs)
    }

    /// The element's own words: role, name, ref, states, value, URL.
    pub fn header(&mut self, e: &Element) -> String {
        let d = describe(self.tree, e, self.max_text);
        let node = self.tree.node(e.src);
        let mut s = match node.role {
            Role::Heading => {
                let level = node.props.level.unwrap_or(2).clamp(1, 6) as usize;
                match &d.name {
                    Some(n) => format!("{} {n}", "#".repeat(level)),
                    None => "#".repeat(level),
                }
            }
            Role::Link => {
                let name = d.name.clone().unwrap_or_default().replace(']', "\\]");
                match &d.url {
                    // A same-page anchor, marked where the tokenizer merges
                    // the mark into the bracket (`#[`): `resolve` gives its fragment.
                    Some(u) if u.starts_with('#') => format!("#[{name}]"),
                    Some(_) if !self.link_urls => format!("[{name}]"),
                    Some(u) => {
                        let shown = clip(u, self.max_url.map(|m| m.saturating_sub(1).max(8)));
                        let slot = self.url_slot(u, &shown);
                        format!("[{name}]{slot}")
                    }
                    None => format!("[{name}]"),
                }
            }
            _ => match &d.name {
                Some(n) => format!("{} \"{}\"", d.role_word, n.replace('"', "\\\"")),
                None => d.role_word.clone(),
            },
        };
        for r in e.refs() {
            s.push_str(" A");
            s.push_str(&r.to_string());
        }
        for st in &d.states {
            s.push(' ');
            s.push_str(st);
        }
        if let Some(desc) = &d.description {
            if self.said.insert(desc.clone()) {
                s.push_str(" desc=\"");
                s.push_str(&desc.replace('"', "\\\""));
                s.push('"');
            }
        }
        if let Some(v) = &d.value {
            s.push_str(": ");
            s.push_str(v);
        }
        if node.role.is_root() {
            if let Some(u) = &d.url {
                s.push(' ');
                s.push_str(u);
            }
        }
        s
    }

    fn element(&mut self, e: &Element, depth: usize) {
        let refs = e.ref_count();
        let node = self.tree.node(e.src);
        match node.role {
            Role::List if node.name.is_empty() && e.reference.is_none() => {
                self.children(&e.children, depth);
            }
            Role::ListItem => {
                // Joined with its first line below, whatever starts it: "- item".
                let marker = match e.children.iter().find(|c| !is_blank(c)) {
                    Some(Out::Marker(m)) => m.clone(),
                    _ => "-".to_string(),
                };
                let rest: Vec<Out> = skip_first_marker(&e.children);
                let mut head = marker;
                if let Some(r) = e.reference {
                    head.push_str(&format!(" A{r}"));
                }
                self.joined(head, refs, &rest, depth);
            }
            Role::Row => self.row(e, depth),
            // The page line heads the snapshot; its content is not indented.
            _ if node.role.is_root() && node.parent.is_none() => {
                let text = self.header(e);
                self.lines.push(Line { depth, text, refs });
                self.children(&e.children, depth);
            }
            _ => {
                let head = self.header(e);
                let starts_inline = match e.children.iter().find(|c| !is_blank(c)) {
                    Some(Out::Element(c)) => inline_capable(c),
                    Some(_) => true,
                    None => false,
                };
                // Containers keep their own line unless they hold only words;
                // a control's leftover text reads best right after it.
                let joins = e.children.iter().all(|c| match c {
                    Out::Element(c) => e.reference.is_some() && inline_capable(c),
                    _ => true,
                });
                if (node.role == Role::Heading && starts_inline) || joins {
                    self.joined(head, refs, &e.children, depth);
                } else {
                    self.lines.push(Line { depth, text: head, refs });
                    self.children(&e.children, depth + 1);
                }
            }
        }
    }

    /// `head` followed on the same line by the children's first line, if
    /// that line starts the children; the rest nested below.
    fn joined(&mut self, head: String, refs: usize, children: &[Out], depth: usize) {
        let start = self.lines.len();
        self.children(children, depth + 1);
        if self.lines.len() > start && self.lines[start].depth == depth + 1 {
            let first = self.lines.remove(start);
            self.lines.insert(start, Line { depth, text: format!("{head} {}", first.text), refs: refs + first.refs });
        } else {
            self.lines.insert(start, Line { depth, text: head, refs });
        }
    }

    /// A table row as `| a | b |` when every cell fits on one line.
    fn row(&mut self, e: &Element, depth: usize) {
        // A fallback to nested lines prints the cells again: descriptions seen
        // in this attempt must still be printed then.
        let said_before = self.said.clone();
        let fallback = |me: &mut Self| {
            me.said = said_before.clone();
            me.row_as_block(e, depth)
        };
        let mut cells = Vec::new();
        let mut all_headers = true;
        for c in &e.children {
            match c {
                c if is_blank(c) => {}
                Out::Element(ce) if ce.role.is_cell() => {
                    // The cell's lines, rendered apart from the row's.
                    let outer = std::mem::take(&mut self.lines);
                    self.children(&ce.children, 0);
                    let sub = std::mem::replace(&mut self.lines, outer);
                    if sub.len() > 1 {
                        return fallback(self);
                    }
                    let mut text = sub.first().map(|l| l.text.replace('|', "\\|")).unwrap_or_default();
                    let mut refs = sub.first().map_or(0, |l| l.refs);
                    if let Some(r) = ce.reference {
                        text = if text.is_empty() { format!("A{r}") } else { format!("{text} A{r}") };
                        refs += 1;
                    }
                    all_headers &= ce.role == Role::ColumnHeader;
                    cells.push((text, refs));
                }
                _ => return fallback(self),
            }
        }
        if cells.is_empty() {
            return fallback(self);
        }
        let mut text = String::from("|");
        let mut refs = usize::from(e.reference.is_some());
        for (t, r) in &cells {
            text.push(' ');
            text.push_str(t);
            text.push_str(" |");
            refs += r;
        }
        if let Some(r) = e.reference {
            text.push_str(&format!(" A{r}"));
        }
        self.lines.push(Line { depth, text, refs });
        if all_headers {
            self.lines.push(Line { depth, text: format!("|{}", "-|".repeat(cells.len())), refs: 0 });
        }
    }

    fn row_as_block(&mut self, e: &Element, depth: usize) {
        let head = self.header(e);
        self.lines.push(Line { depth, text: head, refs: usize::from(e.reference.is_some()) });
        self.children(&e.children, depth + 1);
    }
}

fn inline_capable(e: &Element) -> bool {
    matches!(e.role, Role::Link | Role::Image | Role::Img)
        && e.secret.is_none()
        && e.children.iter().all(|c| match c {
            Out::Element(ce) => inline_capable(ce),
            _ => true,
        })
}

fn skip_first_marker(children: &[Out]) -> Vec<Out> {
    let mut out = Vec::with_capacity(children.len());
    let mut skipped = false;
    for c in children {
        if !skipped {
            match c {
                c if is_blank(c) => continue,
                Out::Marker(_) => {
                    skipped = true;
                    continue;
                }
                _ => skipped = true,
            }
        }
        out.push(c.clone());
    }
    out
}

/// Lines to one string, one space of indent per level.
pub fn join(lines: &[Line]) -> String {
    let mut s = String::with_capacity(lines.iter().map(|l| l.text.len() + l.depth + 1).sum());
    for l in lines {
        for _ in 0..l.depth {
            s.push(' ');
        }
        s.push_str(&l.text);
        s.push('\n');
    }
    s
}
