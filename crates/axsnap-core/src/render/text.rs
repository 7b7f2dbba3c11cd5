//! The text format's lines. One line per block, one space of indent per
//! level, inline runs (text, links, images) flowing on one line. Refs follow
//! what they name: `button A7 "OK"`, `A8 [Docs](/docs)`. Lines are built as
//! typed segments (text, URL slot, ref); `print` writes them out.

use super::{describe, Description};
use crate::words::{clipped, squashed};
use crate::distill::{is_blank, Element, Out};
use crate::lines::{Kind, Line, Lines, Segment};
use crate::role::Role;
use crate::tree::{starts_capitalised, NodeId, Tree};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

pub struct TextRenderer<'a> {
    tree: &'a Tree,
    max_text: Option<usize>,
    /// Interactive mode prints no link URLs: the agent acts by ref, and
    /// `resolve` gives the URL of any link.
    link_urls: bool,
    max_url: Option<usize>,
    lines: Vec<Line>,
    urls: Vec<String>,
    unmarked: Vec<Option<String>>,
    url_index: HashMap<String, usize>,
    /// Descriptions already printed: a description repeated down a list
    /// (every permalink's "Permalink to this headline") is printed once.
    said: Said,
    /// Each element's description, made once: a line that does not fit
    /// inline is laid out again, and URL compaction is not cheap.
    described: crate::tree::IdMap<(NodeId, bool), Rc<Description>>,
    /// Links whose URL is a copy of a link's printed right after them (see
    /// [`copies_beside`]): what the URL holds of the other is said there.
    copies: HashMap<NodeId, usize>,
    /// See [`link_words`]: where printed links with different words lead to
    /// one URL, none of them marks its words (`/wiki/*`), so they all share
    /// one slot, and one reference where the URL repeats.
    link_words: HashMap<&'a str, usize>,
    /// While a table cell is tried as one line of its row: the most lines
    /// worth rendering, past which the row is nested lines whatever follows.
    cap: Option<usize>,
}

/// Descriptions printed, and in what order, so that a layout tried and
/// given up can take back what it printed.
#[derive(Default)]
struct Said {
    set: HashSet<String>,
    order: Vec<String>,
}

impl Said {
    /// Whether `desc` is new (it is then said).
    fn insert(&mut self, desc: &str) -> bool {
        if self.set.contains(desc) {
            return false;
        }
        self.set.insert(desc.to_string());
        self.order.push(desc.to_string());
        true
    }

    fn mark(&self) -> usize {
        self.order.len()
    }

    /// Forgets what was said since `mark`.
    fn undo(&mut self, mark: usize) {
        for desc in self.order.drain(mark..) {
            self.set.remove(&desc);
        }
    }
}

/// Segments being assembled; text goes into the last text segment.
#[derive(Debug, Default, Clone)]
struct Segs(Vec<Segment>);

impl Segs {
    fn push_str(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        match self.0.last_mut() {
            Some(Segment::Text(t)) => t.push_str(s),
            _ => self.0.push(Segment::Text(s.to_string())),
        }
    }

    fn push_ref(&mut self, n: u32) {
        self.push_str(" ");
        self.0.push(Segment::Ref(n));
    }

    fn refs_before(&mut self, e: &Element) {
        for r in e.refs() {
            self.0.push(Segment::Ref(r));
            self.push_str(" ");
        }
    }

    fn append(&mut self, other: Segs) {
        for s in other.0 {
            match s {
                Segment::Text(t) => self.push_str(&t),
                other => self.0.push(other),
            }
        }
    }

    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The last character as printed: a ref ends in a digit, a URL in `)` or `]`.
    fn last_char(&self) -> Option<char> {
        match self.0.last()? {
            Segment::Text(t) => t.chars().last(),
            Segment::Ref(_) => Some('0'),
            Segment::Url(_) => Some(')'),
        }
    }

    /// Each text segment holding `from` with it replaced by `to`.
    fn replace(&mut self, from: char, to: &str) {
        for s in &mut self.0 {
            if let Segment::Text(t) = s {
                if t.contains(from) {
                    *t = t.replace(from, to);
                }
            }
        }
    }

    /// Split at the line breaks inside text segments.
    fn split_lines(self) -> Vec<Vec<Segment>> {
        let mut pieces = vec![Vec::new()];
        for s in self.0 {
            match s {
                Segment::Text(t) if t.contains('\n') => {
                    for (i, part) in t.split('\n').enumerate() {
                        if i > 0 {
                            pieces.push(Vec::new());
                        }
                        if !part.is_empty() {
                            pieces.last_mut().unwrap().push(Segment::Text(part.to_string()));
                        }
                    }
                }
                other => pieces.last_mut().unwrap().push(other),
            }
        }
        pieces
    }
}

/// The words a clickable's line shows after its ref, given its content:
/// the first line of it where that joins its line, else all of it (a
/// clickable card holding a heading and a paragraph). Lines of controls
/// inside with refs of their own (a card's favourite heart) are theirs.
pub fn first_words(tree: &Tree, children: &[Out]) -> String {
    let lines = TextRenderer::new(tree, None).without_link_urls().render(children).lines;
    let joins = children.iter().all(|c| !matches!(c, Out::Element(e) if !inline_capable(e)));
    let own = |l: &&Line| !matches!(&l.body, crate::lines::Body::Segments(segs) if segs.iter().any(|s| matches!(s, Segment::Ref(_))));
    let words = lines.iter().filter(own).take(if joins { 1 } else { lines.len() }).map(|l| match &l.body {
        crate::lines::Body::Segments(segs) => segs.iter().filter_map(|s| if let Segment::Text(t) = s { Some(t.as_str()) } else { None }).collect::<String>(),
        _ => String::new(),
    });
    squashed(&words.collect::<Vec<_>>().join(" ")).into_owned()
}

/// An inline run being assembled into lines.
#[derive(Default)]
struct Run {
    segs: Segs,
    /// What the run starts with: the kind of its first line.
    kind: Option<Kind>,
    pending_space: bool,
    /// The anchor of the last text pushed.
    anchor: Option<u32>,
    /// Inside preformatted text: whitespace is kept as it is.
    pre: bool,
}

impl Run {
    fn started(&mut self, kind: impl FnOnce() -> Kind) {
        if self.kind.is_none() && !self.segs.is_empty() {
            self.kind = Some(kind());
        }
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
        let last = self.segs.last_char();
        let touching = !self.pending_space
            && last.is_some_and(|c| c.is_alphanumeric() || matches!(c, ')' | '%' | '.' | ':'))
            && raw.chars().next().is_some_and(|c| !c.is_whitespace() && !matches!(c, '.' | ',' | ';' | ':' | '!' | '?' | ')' | ']' | '}' | '%' | '\'' | '"' | '’' | '”' | '…' | '^'));
        let after_word = last.is_some_and(char::is_alphanumeric);
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
        let last = self.segs.last_char();
        if self.pre {
            if self.pending_space && last.is_some_and(|c| !c.is_whitespace()) && !raw.starts_with(char::is_whitespace) {
                self.segs.push_str(" ");
            }
            self.segs.push_str(raw);
            self.pending_space = false;
            return self.started(|| Kind::Text);
        }
        let lead = raw.starts_with(char::is_whitespace);
        let trail = raw.ends_with(char::is_whitespace);
        let core = squashed(raw);
        if core.is_empty() {
            self.pending_space = true;
            return;
        }
        // Punctuation right after a quoted name, a description or a link
        // closes the sentence it is in: `GitHub desc="…", Inc.`, `see
        // A5 [the guide](/g).` (a ref never ends an element: refs come first).
        let closes = !lead && matches!(last, Some('"' | ')' | ']' | '>')) && core.starts_with(['.', ',', ';', ':', '!', '?', ')']);
        if last.is_some_and(|c| c != '\n' && c != ' ') && (lead || self.pending_space) && !closes {
            self.segs.push_str(" ");
        }
        self.segs.push_str(&core);
        self.pending_space = trail;
        self.started(|| Kind::Text);
    }

    fn push_element(&mut self, segs: Segs, kind: Kind) {
        if self.segs.last_char().is_some_and(|c| c != '\n' && c != ' ') {
            self.segs.push_str(" ");
        }
        self.segs.append(segs);
        self.pending_space = true;
        self.started(|| kind);
    }
}

impl<'a> TextRenderer<'a> {
    pub fn new(tree: &'a Tree, max_text: Option<usize>) -> Self {
        TextRenderer {
            tree,
            max_text,
            link_urls: true,
            max_url: None,
            lines: Vec::new(),
            urls: Vec::new(),
            unmarked: Vec::new(),
            url_index: HashMap::new(),
            said: Said::default(),
            described: Default::default(),
            copies: HashMap::new(),
            link_words: HashMap::new(),
            cap: None,
        }
    }

    pub fn with_max_url(mut self, max_url: Option<usize>) -> Self {
        self.max_url = max_url;
        self
    }

    pub fn without_link_urls(mut self) -> Self {
        self.link_urls = false;
        self
    }

    /// The lines, and the URLs their slots stand for.
    pub fn render(mut self, outs: &[Out]) -> Lines {
        // Both only shape printed URLs: interactive mode prints none.
        if self.link_urls {
            let links = printed_links(outs);
            self.copies = copies_beside(self.tree, &links);
            self.link_words = link_words(self.tree, &links);
        }
        self.children(outs, 0);
        let references = vec![0; self.urls.len()];
        Lines { lines: self.lines, urls: self.urls, references, unmarked: self.unmarked }
    }

    /// The slot of a URL, one per full URL: two URLs clipped to the same
    /// text are still two destinations, never one reference.
    fn url_slot(&mut self, url: &str, shown: &str, unmarked: Option<&str>) -> Segment {
        if let Some(&i) = self.url_index.get(url) {
            return Segment::Url(i);
        }
        let i = self.urls.len();
        self.url_index.insert(url.to_string(), i);
        self.urls.push(shown.to_string());
        self.unmarked.push(unmarked.map(str::to_string));
        Segment::Url(i)
    }

    fn flush(&mut self, run: &mut Run, depth: usize) {
        let Run { segs, kind, .. } = std::mem::take(run);
        let mut kind = Some(kind.unwrap_or(Kind::Text));
        for mut piece in segs.split_lines() {
            trim_end(&mut piece);
            if piece.is_empty() {
                continue;
            }
            // A line of words is clipped as a whole; a line holding refs or
            // URLs keeps them (its texts and names were clipped one by one).
            if let [Segment::Text(t)] = piece.as_mut_slice() {
                if let Cow::Owned(clipped) = clipped(t, self.max_text.map(|m| m.max(1))) {
                    *t = clipped;
                }
            }
            self.lines.push(Line::segments(depth, kind.take().unwrap_or(Kind::Text), piece));
        }
    }

    fn children(&mut self, outs: &[Out], depth: usize) {
        let mut run = Run::default();
        for out in outs {
            if self.cap.is_some_and(|cap| self.lines.len() > cap) {
                return;
            }
            match out {
                Out::Text(t, anchor) => run.push_boxed_text(&clipped(t, self.max_text), *anchor),
                Out::Marker(t) => run.push_text(&clipped(t, self.max_text)),
                Out::Break => self.flush(&mut run, depth),
                Out::Element(e) if inline_capable(e) => {
                    let (segs, kind) = self.inline(e);
                    run.push_element(segs, kind);
                }
                Out::Element(e) => {
                    self.flush(&mut run, depth);
                    self.element(e, depth);
                }
            }
        }
        self.flush(&mut run, depth);
    }

    /// An inline element and its inline children, on one line. A span's
    /// words come first, then what its name and description say more:
    /// `ETA desc="Estimated time of arrival"`.
    fn inline(&mut self, e: &Element) -> (Segs, Kind) {
        let (segs, kind) = if e.span { (Segs::default(), Kind::Text) } else { self.header(e, e.show_name) };
        let mut run = Run { segs, pending_space: true, ..Run::default() };
        for c in &e.children {
            match c {
                Out::Text(t, anchor) => run.push_boxed_text(&clipped(t, self.max_text), *anchor),
                Out::Marker(t) => run.push_text(&clipped(t, self.max_text)),
                Out::Break => run.pending_space = true,
                Out::Element(ce) => {
                    let (cs, ck) = self.inline(ce);
                    run.push_element(cs, ck);
                }
            }
        }
        if e.span {
            let d = self.describe(e);
            let mut said = Segs::default();
            if let Some(n) = &d.name {
                said.push_str(&format!("\"{}\"", n.replace('"', "\\\"")));
            }
            self.push_description(&mut said, d.description.as_deref());
            if !said.is_empty() {
                run.push_element(said, Kind::Text);
            }
        }
        let mut segs = run.segs;
        segs.replace('\n', " ");
        (segs, kind)
    }

    fn describe(&mut self, e: &Element) -> Rc<Description> {
        let (tree, max_text) = (self.tree, self.max_text);
        self.described.entry((e.src, e.show_name)).or_insert_with(|| Rc::new(describe(tree, e, max_text))).clone()
    }

    /// ` desc="…"`, once per snapshot: a description repeated down a list
    /// (every permalink's "Permalink to this headline") is printed once.
    fn push_description(&mut self, s: &mut Segs, description: Option<&str>) {
        if let Some(desc) = description {
            if self.said.insert(desc) {
                if !s.is_empty() {
                    s.push_str(" ");
                }
                s.push_str("desc=\"");
                s.push_str(&desc.replace('"', "\\\""));
                s.push_str("\"");
            }
        }
    }

    /// The element's own words: role, name (unless `with_name` is false),
    /// ref, states, value, URL.
    fn header(&mut self, e: &Element, with_name: bool) -> (Segs, Kind) {
        let d = self.describe(e);
        let name = d.name.as_deref().filter(|_| with_name);
        let node = self.tree.node(e.src);
        let mut s = Segs::default();
        let kind = match node.role {
            Role::Heading => {
                let level = node.props.level.unwrap_or(2).clamp(1, 6) as usize;
                s.push_str(&"#".repeat(level));
                // Its refs before its words, as every element's: `## A5 Release notes`.
                for r in e.refs() {
                    s.push_ref(r);
                }
                if let Some(n) = name {
                    s.push_str(" ");
                    s.push_str(n);
                }
                Kind::Heading
            }
            Role::Link => {
                let bracketed = name.unwrap_or_default().replace(']', "\\]");
                s.refs_before(e);
                match &d.url {
                    // A same-page anchor, marked where the tokenizer merges
                    // the mark into the bracket (`#[`): `resolve` gives its fragment.
                    Some(u) if u.starts_with('#') => {
                        s.push_str(&format!("#[{bracketed}]"));
                        Kind::Link { same_page: true }
                    }
                    Some(u) if self.link_urls => {
                        let copy = self.copies.get(&e.src).and_then(|&at| Some(format!("{}…", node.props.url.as_deref()?.get(..at)?)));
                        let shown = copy.unwrap_or_else(|| crate::urls::clip_opaque(u));
                        let shown = clipped(&shown, self.max_url.map(|m| m.saturating_sub(1).max(8)));
                        let absolute = !u.starts_with('/') && u.contains(':');
                        if absolute && name.is_some_and(|n| n == u || node.props.url.as_deref() == Some(n)) {
                            // A link whose words are its URL is a Markdown autolink: said once.
                            s.push_str(&format!("<{shown}>"));
                        } else if let Some(address) = shown.strip_prefix("mailto:").filter(|a| name == Some(*a) && a.contains('@') && !a.contains(['?', '>'])) {
                            // A mail link whose words are its address: Markdown's email autolink.
                            s.push_str(&format!("<{address}>"));
                        } else {
                            let shown = crate::urls::scheme_relative(&shown, self.tree.frame_url(e.src));
                            s.push_str("[");
                            s.push_str(&bracketed);
                            s.push_str("]");
                            // A path ending in the link's words says them once, `*` or `~`
                            // (a slot of its own: the mark stands for these words only).
                            let may_mark = node.props.url.as_deref().is_some_and(|u| self.link_words.get(u) != Some(&WORDED_APART));
                            let starred = if may_mark { crate::urls::star_words(shown, name.unwrap_or_default()) } else { None };
                            let slot = match starred {
                                Some(starred) => self.url_slot(&format!("{u}\n{starred}"), &starred, Some(shown)),
                                None => self.url_slot(u, shown, None),
                            };
                            s.0.push(slot);
                        }
                        Kind::Link { same_page: false }
                    }
                    _ => {
                        s.push_str("[");
                        s.push_str(&bracketed);
                        s.push_str("]");
                        Kind::Link { same_page: false }
                    }
                }
            }
            _ => {
                s.push_str(&d.role_word);
                for r in e.refs() {
                    s.push_ref(r);
                }
                if let Some(n) = name {
                    s.push_str(" \"");
                    s.push_str(&n.replace('"', "\\\""));
                    s.push_str("\"");
                }
                if node.role.is_root() {
                    Kind::Page
                } else {
                    Kind::Element(e.role.clone())
                }
            }
        };
        for st in &d.states {
            s.push_str(" ");
            s.push_str(st);
        }
        self.push_description(&mut s, d.description.as_deref());
        if let Some(v) = &d.value {
            s.push_str(": ");
            s.push_str(if said_above(&self.lines, v) { SAID_ABOVE } else { v });
        }
        if node.role.is_root() {
            if let Some(u) = &d.url {
                s.push_str(" ");
                s.push_str(u);
            }
        }
        (s, kind)
    }

    fn element(&mut self, e: &Element, depth: usize) {
        let node = self.tree.node(e.src);
        match node.role {
            Role::List if node.name.is_empty() && e.reference.is_none() => {
                self.children(&e.children, depth);
            }
            Role::ListItem => {
                // Joined with its first line below, whatever starts it: "- item".
                let marker = match e.children.iter().find(|c| !is_blank(c)) {
                    Some(Out::Marker(m)) => Some(m.as_str()),
                    _ => None,
                };
                let rest = skip_first_marker(&e.children);
                let mut head = Segs::default();
                head.push_str(marker.unwrap_or("-"));
                let d = self.describe(e);
                if let Some(n) = &d.name {
                    head.push_str(&format!(" \"{}\"", n.replace('"', "\\\"")));
                }
                if let Some(r) = e.reference {
                    head.push_ref(r);
                }
                self.push_description(&mut head, d.description.as_deref());
                self.joined(head, Kind::ListItem { numbered: marker.is_some(), first: None }, rest, depth);
            }
            Role::Row => self.row(e, depth),
            // The page line heads the snapshot; its content is not indented.
            _ if node.role.is_root() && node.parent.is_none() => {
                let (head, kind) = self.header(e, e.show_name);
                self.lines.push(Line::segments(depth, kind, head.0));
                self.children(&e.children, depth);
            }
            _ => {
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
                    let (head, kind) = self.header(e, e.show_name);
                    self.joined(head, kind, &e.children, depth);
                } else {
                    self.container(e, depth);
                }
            }
        }
    }

    /// A container's line, then its content nested below. Its name is left
    /// out where the line directly below says it (a region labelled by its
    /// heading, a list by its first item); a container that says nothing
    /// more than its role then is no line at all, as when it has no name.
    fn container(&mut self, e: &Element, depth: usize) {
        let node = self.tree.node(e.src);
        let start = self.lines.len();
        self.children(&e.children, depth + 1);
        let said_below = e.show_name
            && e.reference.is_none()
            && self.lines.get(start).is_some_and(|l| l.depth == depth + 1 && crate::rules::contains_words(&line_words(l), &node.name));
        let (head, kind) = self.header(e, e.show_name && !said_below);
        let bare = matches!(head.0.as_slice(), [Segment::Text(t)] if t == node.role.display());
        if said_below && bare && lifted_when_unnamed(&node.role) {
            for l in &mut self.lines[start..] {
                l.depth -= 1;
            }
        } else {
            self.lines.insert(start, Line::segments(depth, kind, head.0));
        }
    }

    /// `head` followed on the same line by the children's first line, if
    /// that line starts the children; the rest nested below.
    fn joined(&mut self, head: Segs, kind: Kind, children: &[Out], depth: usize) {
        let start = self.lines.len();
        self.children(children, depth + 1);
        let starts = self.lines.get(start).is_some_and(|l| l.depth == depth + 1);
        if !starts {
            self.lines.insert(start, Line::segments(depth, kind, head.0));
            return;
        }
        let first = &mut self.lines[start];
        let mut segs = head;
        segs.push_str(" ");
        if let crate::lines::Body::Segments(rest) = std::mem::replace(&mut first.body, crate::lines::Body::Note(String::new())) {
            segs.append(Segs(rest));
        }
        let kind = match kind {
            Kind::ListItem { numbered, .. } => {
                Kind::ListItem { numbered, first: Some(Box::new(std::mem::replace(&mut first.kind, Kind::Text))) }
            }
            other => other,
        };
        *first = Line::segments(depth, kind, segs.0);
    }

    /// A table row as `| a | b |` when every cell fits on one line.
    fn row(&mut self, e: &Element, depth: usize) {
        // A fallback to nested lines prints the cells again: descriptions seen
        // in this attempt must still be printed then.
        let said_before = self.said.mark();
        let fallback = |me: &mut Self| {
            me.said.undo(said_before);
            me.row_as_block(e, depth)
        };
        let mut cells = Vec::new();
        let mut all_headers = true;
        // The lines of a last cell that holds blocks, printed under the row.
        let mut blocks: Option<Vec<Line>> = None;
        // A list in a cell before would read as the start of the one under the row.
        let mut list_before = false;
        for c in &e.children {
            match c {
                c if is_blank(c) => {}
                Out::Element(ce) if ce.role.is_cell() => {
                    if blocks.is_some() {
                        return fallback(self);
                    }
                    // An infobox's row: a header, then a list. Said as a row of the cells
                    // before, the list under it; any other shape is nested lines.
                    let plain = ce.reference.is_none() && self.describe(ce).description.is_none();
                    let one_line = cells.is_empty() || list_before || !plain;
                    // The cell's lines, rendered apart from the row's: where it
                    // must be one line, only until it is more than one line can say.
                    let outer = std::mem::take(&mut self.lines);
                    let cap = std::mem::replace(&mut self.cap, one_line.then_some(CELL_LINES));
                    self.children(&ce.children, 0);
                    self.cap = cap;
                    let mut sub = std::mem::replace(&mut self.lines, outer);
                    if let Some(line) = broken_words(&sub) {
                        sub = vec![line];
                    }
                    if sub.len() > 1 {
                        if one_line {
                            return fallback(self);
                        }
                        blocks = Some(sub);
                        continue;
                    }
                    let mut cell = cell_words(sub.pop());
                    if let Some(r) = ce.reference {
                        // Before its words, as every ref: `| A7 Total`.
                        let words = std::mem::take(&mut cell);
                        cell.0.push(Segment::Ref(r));
                        if !words.is_empty() {
                            cell.push_str(" ");
                            cell.append(words);
                        }
                    }
                    // A header's title ("Sort ascending") follows its words.
                    let description = self.describe(ce).description.as_ref().map(|d| d.replace('|', "\\|"));
                    self.push_description(&mut cell, description.as_deref());
                    all_headers &= ce.role == Role::ColumnHeader;
                    list_before |= holds_list(&ce.children);
                    cells.push(cell);
                }
                _ => return fallback(self),
            }
        }
        if cells.is_empty() {
            return fallback(self);
        }
        all_headers &= blocks.is_none();
        let count = cells.len();
        // The line's end closes the row (Markdown's closing `|` is optional);
        // a row's own ref follows one, so it never reads as the last cell's.
        let mut row = Segs::default();
        for (i, cell) in cells.into_iter().enumerate() {
            // A space before a digit is a token of its own (o200k_base): a
            // cell of figures follows its `|` straight away, `| Bars |890 |12`.
            let figure = matches!(cell.0.first(), Some(Segment::Text(t)) if t.starts_with(|c: char| c.is_ascii_digit()));
            row.push_str(match (i, figure) {
                (0, false) => "| ",
                (0, true) => "|",
                (_, false) => " | ",
                (_, true) => " |",
            });
            row.append(cell);
        }
        if let Some(r) = e.reference {
            row.push_str(" |");
            row.push_ref(r);
        }
        self.lines.push(Line::segments(depth, Kind::Row, row.0));
        for mut line in blocks.unwrap_or_default() {
            line.depth += depth + 1;
            self.lines.push(line);
        }
        if all_headers {
            let rule = "|-".repeat(count);
            self.lines.push(Line::segments(depth, Kind::Row, vec![Segment::Text(rule)]));
        }
    }

    fn row_as_block(&mut self, e: &Element, depth: usize) {
        // A row of one cell is that cell: its `cell` or `th` line says the row.
        let mut content = e.children.iter().filter(|c| !is_blank(c));
        if let (Some(Out::Element(only)), None) = (content.next(), content.next()) {
            let plain = e.reference.is_none() && !e.show_name && self.describe(e).description.is_none();
            if only.role.is_cell() && plain {
                return self.element(only, depth);
            }
        }
        let (head, kind) = self.header(e, e.show_name);
        self.lines.push(Line::segments(depth, kind, head.0));
        self.children(&e.children, depth + 1);
    }
}

/// A cell's one line as a Markdown cell: its `|` escaped.
fn cell_words(line: Option<Line>) -> Segs {
    let mut cell = match line.map(|l| l.body) {
        Some(crate::lines::Body::Segments(s)) => Segs(s),
        _ => Segs::default(),
    };
    cell.replace('|', "\\|");
    cell
}

/// Most lines a cell's words may break over and still be one cell.
const CELL_LINES: usize = 6;

/// A cell's words broken over a few lines (`Brinell<br>HBW / HB`, an id on
/// each line): one cell, the breaks said as `<br>`, as Markdown tables write
/// them. `None` where the lines are more than words and links (a list, a
/// heading, a control's line): those are blocks.
fn broken_words(lines: &[Line]) -> Option<Line> {
    if lines.len() < 2 || lines.len() > CELL_LINES {
        return None;
    }
    let mut joined: Vec<Segment> = Vec::new();
    for line in lines {
        let crate::lines::Body::Segments(segs) = &line.body else { return None };
        if line.depth != 0 || !matches!(line.kind, Kind::Text | Kind::Link { .. }) {
            return None;
        }
        if !joined.is_empty() {
            joined.push(Segment::Text(" <br> ".into()));
        }
        joined.extend(segs.iter().cloned());
    }
    Some(Line::segments(0, lines[0].kind.clone(), joined))
}

fn holds_list(outs: &[Out]) -> bool {
    outs.iter().any(|o| matches!(o, Out::Element(e) if matches!(e.role, Role::List | Role::ListItem) || holds_list(&e.children)))
}

/// Trailing whitespace off a line, across its segments.
fn trim_end(piece: &mut Vec<Segment>) {
    while let Some(Segment::Text(t)) = piece.last_mut() {
        let kept = t.trim_end().len();
        if kept > 0 {
            t.truncate(kept);
            return;
        }
        piece.pop();
    }
}

/// The words a line prints, refs and URLs aside.
fn line_words(l: &Line) -> String {
    match &l.body {
        crate::lines::Body::Segments(segs) => segs.iter().filter_map(|s| match s {
            Segment::Text(t) => Some(t.as_str()),
            _ => None,
        }).collect::<Vec<_>>().join(" "),
        _ => String::new(),
    }
}

/// What a field's value prints when the lines just above say all of it.
const SAID_ABOVE: &str = "(the text above)";

/// Does a long field value (`\n` for its line breaks) repeat, word for word
/// and in order, the lines printed just before it? A paste site shows a
/// paste as highlighted lines and again as the raw text in a `<textarea>`
/// to copy (a code host's raw view, a share box holding the quote above);
/// the words are said once. Words the lines add between them (line numbers,
/// a "Raw" caption) are allowed, a quarter of the value's words at most.
fn said_above(lines: &[Line], value: &str) -> bool {
    const MIN_WORDS: usize = 40;
    // Words as written: the field and the lines hold the same text.
    fn words(t: &str) -> impl DoubleEndedIterator<Item = &str> {
        t.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty())
    }
    let value = value.replace("\\n", " ");
    let want: Vec<&str> = words(&value).collect();
    if want.len() < MIN_WORDS {
        return false;
    }
    let slack = want.len() / 4;
    // The lines' words from the last backwards, matched against the value's from its end.
    let mut wanted = want.iter().rev().peekable();
    let mut seen = 0;
    for l in lines.iter().rev() {
        for w in words(&line_words(l)).rev() {
            seen += 1;
            if wanted.peek() == Some(&&w) {
                wanted.next();
                if wanted.peek().is_none() {
                    return true;
                }
            } else if seen - (want.len() - wanted.len()) > slack {
                return false;
            }
        }
    }
    false
}

/// Containers that print no line of their own when they have no name.
fn lifted_when_unnamed(role: &Role) -> bool {
    matches!(role, Role::List | Role::Group | Role::Section | Role::Region | Role::Figure | Role::Article | Role::Document)
        || crate::rules::is_wrapper_role(role)
}

fn inline_capable(e: &Element) -> bool {
    (matches!(e.role, Role::Link | Role::Image | Role::Img) || e.span)
        && e.secret.is_none()
        && e.children.iter().all(|c| match c {
            Out::Element(ce) => inline_capable(ce),
            _ => true,
        })
}

/// A list item's content after its marker (and the blanks before it), borrowed.
fn skip_first_marker(children: &[Out]) -> &[Out] {
    match children.iter().position(|c| !is_blank(c)) {
        Some(i) if matches!(children[i], Out::Marker(_)) => &children[i + 1..],
        Some(i) => &children[i..],
        None => &[],
    }
}

/// The links printed, in order (a twin folded into its title link is not).
fn printed_links(outs: &[Out]) -> Vec<NodeId> {
    fn links(outs: &[Out], found: &mut Vec<NodeId>) {
        for out in outs {
            if let Out::Element(e) = out {
                if e.role == Role::Link && e.secret.is_none() {
                    found.push(e.src);
                }
                links(&e.children, found);
            }
        }
    }
    let mut found = Vec::new();
    links(outs, &mut found);
    found
}

/// Per URL of printed links, the first such link, or [`WORDED_APART`] where
/// links that say other words lead there too: a mark for the words of one
/// (`/tag/*`) would give the URL another slot than the others', and both
/// might then be defined as references. (A map of `&str` to `usize`, a type
/// the core already has: another costs the Wasm kilobytes.)
fn link_words<'a>(tree: &'a Tree, links: &[NodeId]) -> HashMap<&'a str, usize> {
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (i, &id) in links.iter().enumerate() {
        let node = tree.node(id);
        let Some(url) = node.props.url.as_deref() else { continue };
        let at = first.entry(url).or_insert(i);
        if *at != WORDED_APART && tree.node(links[*at]).name != node.name {
            *at = WORDED_APART;
        }
    }
    first
}

const WORDED_APART: usize = usize::MAX;

/// How many links after a link are looked at for the one its URL copies.
const COPY_LOOKAHEAD: usize = 3;

/// Links whose URL ends with the whole URL of one of the next few links, and
/// where that URL starts in theirs: a web archive's copy cited beside the
/// original (Wikipedia's "Archived from the original"). The copy prints
/// `https://web.archive.org/web/20150129135945/…`, the original's URL said
/// once, at the original; `resolve` and the JSON format give it whole.
fn copies_beside(tree: &Tree, found: &[NodeId]) -> HashMap<NodeId, usize> {
    let url = |id: NodeId| tree.node(id).props.url.as_deref();
    let mut copies = HashMap::new();
    for (i, &a) in found.iter().enumerate() {
        let Some(outer) = url(a) else { continue };
        let beside = found[i + 1..].iter().take(COPY_LOOKAHEAD).filter_map(|&b| url(b));
        if let Some(prefix) = beside.filter_map(|inner| crate::urls::copy_prefix(outer, inner)).next() {
            copies.insert(a, prefix.len());
        }
    }
    copies
}
