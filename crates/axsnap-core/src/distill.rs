//! One walk over the arena: asks the rules about each node, protects every
//! actionable node, applies redaction and hands out refs. The result is a
//! small output tree the renderers print.

use crate::refs::RefTable;
use crate::role::Role;
use crate::rules::{self, is_actionable, prints_name, Action, Visit};
use crate::secrets::SecretReason;
use crate::tree::{NodeId, Tree};
use crate::words::same_words;
use crate::options::Mode;
use std::collections::HashMap;

#[derive(Debug, Clone, PartialEq)]
pub enum Out {
    Element(Element),
    /// Text, and its anchor: the nearest ancestor that is not inline
    /// formatting. Texts of different anchors with no space between them
    /// are in different boxes (`<div>Price</div><div>$5</div>`).
    Text(String, NodeId),
    /// A list marker's text ("3."), printed instead of the "-" bullet.
    Marker(String),
    /// A line break between blocks.
    Break,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Element {
    pub src: NodeId,
    pub role: Role,
    /// Print the node's name. A heading holding links shows its content
    /// instead, so the link texts are not read twice.
    pub show_name: bool,
    pub reference: Option<u32>,
    /// A span of running text kept for its name or description: its words
    /// flow with the text around it, and what it says more follows them.
    pub span: bool,
    /// Refs of twin links folded into this one (see `fold_twin_links`).
    pub also: Vec<u32>,
    pub secret: Option<Secret>,
    pub children: Vec<Out>,
}

impl Element {
    /// Refs printed with this element, in order: its own and its twins'.
    pub fn refs(&self) -> Vec<u32> {
        // An insertion sort of two or three refs: the std sort would cost
        // the Wasm ~7 KB for nothing.
        let mut all: Vec<u32> = Vec::with_capacity(1 + self.also.len());
        for &r in self.reference.iter().chain(&self.also) {
            let at = all.iter().position(|&x| x > r).unwrap_or(all.len());
            all.insert(at, r);
        }
        all
    }

    pub fn ref_count(&self) -> usize {
        usize::from(self.reference.is_some()) + self.also.len()
    }
}

/// A ref asked for during the walk.
struct Asked {
    id: NodeId,
    with_name: bool,
    /// The name a clickable is known by, where it has none of its own.
    words: Option<String>,
}

/// Puts the refs handed out in place of what stood for them during the walk.
fn number(outs: &mut [Out], numbers: &[u32]) {
    for o in outs {
        if let Out::Element(e) = o {
            for r in e.reference.iter_mut().chain(e.also.iter_mut()) {
                *r = numbers[*r as usize];
            }
            number(&mut e.children, numbers);
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Secret {
    pub reason: SecretReason,
    pub filled: bool,
}

/// Walk depth beyond which the rest of a subtree is lifted flat, so a
/// pathological tree cannot exhaust the stack (Wasm's is small).
const MAX_WALK_DEPTH: usize = 600;

/// At most this many characters of a clickable's words name its ref.
const MAX_WORDS: usize = 200;

pub struct Distiller<'a> {
    tree: &'a Tree,
    mode: Mode,
    refs: &'a mut RefTable,
    actionable: Vec<bool>,
    /// Made actionable by the page's click facts (`rules::clickable`).
    clickable: Vec<bool>,
    /// Does this node's subtree (itself included) hold an actionable node?
    holds_actionable: Vec<bool>,
    /// Refs asked for, in the order of the walk: handed out when it is done
    /// (see [`Distiller::run`]).
    asked: Vec<Asked>,
    visited: Vec<bool>,
    pub kept: usize,
    /// Per rule of [`rules::RULES`]: how many nodes it decided.
    pub decisions: Vec<usize>,
    /// Each ref handed out and the node it names, for the answer's facts.
    pub handed: Vec<(u32, NodeId)>,
}

impl<'a> Distiller<'a> {
    pub fn new(tree: &'a Tree, mode: Mode, refs: &'a mut RefTable) -> Self {
        let mut actionable: Vec<bool> = (0..tree.nodes.len() as NodeId).map(|i| is_actionable(tree, i)).collect();
        let clickable = rules::clickable::find(tree, &actionable);
        for (a, &c) in actionable.iter_mut().zip(&clickable) {
            *a |= c;
        }
        let holds_actionable = holds(tree, &actionable);
        Distiller {
            tree,
            mode,
            refs,
            actionable,
            clickable,
            holds_actionable,
            asked: Vec::new(),
            visited: vec![false; tree.nodes.len()],
            kept: 0,
            decisions: vec![0; rules::RULES.len()],
            handed: Vec::new(),
        }
    }

    /// The distilled tree from `start`, its refs handed out. A full snapshot
    /// (`subtree` false) first lets the ref table see every element as it
    /// will know it (see [`RefTable::expect_replacements`]).
    pub fn run(&mut self, start: NodeId, subtree: bool) -> Vec<Out> {
        let mut out = Vec::new();
        self.walk(start, None, false, 0, &mut out);
        if !subtree {
            self.expect_replacements();
        }
        let asked = std::mem::take(&mut self.asked);
        let numbers: Vec<u32> = asked.iter().map(|a| self.hand_out(a)).collect();
        self.handed = numbers.iter().copied().zip(asked.iter().map(|a| a.id)).collect();
        number(&mut out, &numbers);
        out
    }

    /// Every element as the ref table will know it: a clickable by its hint
    /// and the words its line shows, so that an identical one the page drew
    /// again keeps its ref as any control does.
    fn expect_replacements(&mut self) {
        let Distiller { tree, refs, clickable, asked, .. } = self;
        let tree: &Tree = tree;
        let words: HashMap<NodeId, &str> = asked.iter().filter_map(|a| Some((a.id, a.words.as_deref()?))).collect();
        refs.expect_replacements((0..tree.nodes.len() as NodeId).filter_map(|i| {
            let n = tree.node(i);
            let (role, name) = match clickable[i as usize] {
                true => (rules::clickable::hint(n).cdp_name(), words.get(&i).copied().unwrap_or(n.name.as_str())),
                false => (n.role.cdp_name(), n.name.as_str()),
            };
            Some((tree.frames.get(n.frame as usize)?.key.as_str(), n.backend_id?, role, name))
        }));
    }

    fn count(&mut self, rule: Option<usize>) {
        if let Some(i) = rule {
            self.decisions[i] += 1;
        }
    }

    fn parts_words(&self, id: NodeId) -> bool {
        let n = self.tree.node(id);
        !n.ignored
            && match n.role {
                Role::StaticText => n.name.trim().is_empty() && !n.name.is_empty() || rules::is_bullet_glyph(&n.name),
                Role::Image | Role::Img | Role::Separator => true,
                _ => false,
            }
    }

    /// What the rules see of a node.
    fn visit(&self, id: NodeId, ancestor_name: Option<NodeId>) -> Visit<'_> {
        Visit {
            tree: self.tree,
            id,
            node: self.tree.node(id),
            mode: self.mode,
            ancestor_name: ancestor_name.map(|a| self.tree.node(a).name.as_str()),
            actionable: &self.actionable,
            clickable: &self.clickable,
        }
    }

    /// Appends what a node prints to `out`. One output vector for the whole
    /// walk: a chain of unwrapped wrappers hands nothing up, so a deep tree
    /// costs linear time, not depth × size.
    fn walk(&mut self, id: NodeId, ancestor_name: Option<NodeId>, in_flow: bool, depth: usize, out: &mut Vec<Out>) {
        if std::mem::replace(&mut self.visited[id as usize], true) {
            return;
        }
        let tree = self.tree;
        let node = tree.node(id);
        if depth > MAX_WALK_DEPTH {
            return self.flat(id, out);
        }
        let (mut action, rule) = rules::decide(&self.visit(id, ancestor_name));
        self.count(rule);
        if action == Action::Remove && self.holds_actionable[id as usize] && node.role != Role::InlineTextBox {
            action = Action::Unwrap;
        }
        match action {
            // Whitespace, and a picture between two words, still part them.
            Action::Remove if self.parts_words(id) => out.push(Out::Text(" ".into(), self.anchor(id))),
            Action::Remove => {}
            Action::Unwrap => {
                let block = !in_flow && !inline_unwrap(&node.role) && !self.beside_text(id);
                let flow = in_flow || starts_flow(&node.role);
                if block {
                    out.push(Out::Break);
                }
                let start = out.len();
                for &c in &node.children {
                    self.walk(c, ancestor_name, flow, depth + 1, out);
                }
                if node.role == Role::Superscript {
                    mark_exponent(&mut out[start..]);
                }
                // A scroll container is often a wrapper of no role of its own.
                if let Some(note) = crate::extent::note(tree, id) {
                    out.extend([Out::Break, Out::Text(note, id), Out::Break]);
                }
                if block {
                    out.push(Out::Break);
                }
            }
            Action::Keep => self.keep(id, ancestor_name, in_flow, depth, out),
        }
    }

    fn keep(&mut self, id: NodeId, ancestor_name: Option<NodeId>, in_flow: bool, depth: usize, out: &mut Vec<Out>) {
        let tree = self.tree;
        let node = tree.node(id);
        match node.role {
            Role::StaticText => {
                self.kept += 1;
                return out.push(Out::Text(node.name.clone(), self.anchor(id)));
            }
            Role::LineBreak => return out.push(Out::Break),
            Role::ListMarker => {
                self.kept += 1;
                return out.push(Out::Marker(node.name.trim().to_string()));
            }
            _ => {}
        }
        let reference = self.actionable[id as usize].then(|| self.assign_ref(id, true));
        let secret = node.secret.map(|reason| Secret {
            reason,
            filled: is_filled(tree, id),
        });
        // A generic or formatting span kept for its own words, inside a line of text.
        let span = matches!(node.role, Role::Generic | Role::LabelText) || rules::is_inline_formatting(&node.role);
        let span = span && reference.is_none() && (in_flow || self.beside_text(id));
        let show_name = self.shows_name(id, span);
        let mut children = Vec::new();
        if let Some(field) = secret {
            // Nothing under a secret field is printed, but a control nested in
            // it (rare, e.g. a reveal button) keeps its ref without its name.
            for d in tree.descendants(id) {
                if self.actionable[d as usize] && !self.visited[d as usize] {
                    self.visited[d as usize] = true;
                    let n = tree.node(d);
                    let r = self.assign_ref(d, false);
                    children.push(Out::Element(Element {
                        src: d,
                        role: n.role.clone(),
                        show_name: false,
                        reference: Some(r),
                        span: false,
                        also: Vec::new(),
                        secret: Some(Secret { reason: field.reason, filled: false }),
                        children: Vec::new(),
                    }));
                }
            }
        } else {
            // Text is compared with the nearest printed name only through
            // transparent wrappers: a cell under a captioned table is content.
            // A document's title is not its content: text echoing it stays.
            // A span's words are compared with the name around it: what the
            // span says more follows them.
            let named = if span { ancestor_name } else { (show_name && !node.role.is_root()).then_some(id) };
            let flow = in_flow || starts_flow(&node.role);
            for &c in &node.children {
                self.walk(c, named, flow, depth + 1, &mut children);
            }
            fold_echoed_headings(tree, &mut children);
            fold_twin_links(tree, &mut children);
            if let Some(note) = crate::extent::note(tree, id) {
                children.extend([Out::Break, Out::Text(note, id), Out::Break]);
            }
            // A clickable of no name is known by the words its line shows,
            // less those of the controls inside with refs of their own.
            if let (Some(r), true) = (reference, self.clickable[id as usize] && node.name.trim().is_empty()) {
                let words = crate::render::text::first_words(tree, &children);
                self.asked[r as usize].words = Some(crate::words::clip(&words, Some(MAX_WORDS)));
            }
        }
        let visible_children = children.iter().filter(|c| !is_blank(c)).count();
        if secret.is_none() {
            let (action, rule) = rules::decide_leave(&self.visit(id, ancestor_name), visible_children);
            if action == Action::Remove {
                // Children are all breaks here, so nothing is lost.
                self.count(rule);
                return;
            }
        }
        self.kept += 1;
        out.push(Out::Element(Element { src: id, role: self.role_of(id), show_name, reference, span, also: Vec::new(), secret, children }));
    }

    /// Asks for the ref of an actionable node: what stands for it until the
    /// walk is done. Under a secret field a nested control is recorded
    /// without its name, so the table never holds secret text.
    fn assign_ref(&mut self, id: NodeId, with_name: bool) -> u32 {
        self.asked.push(Asked { id, with_name, words: None });
        (self.asked.len() - 1) as u32
    }

    /// The ref the table gives an element asked for.
    fn hand_out(&mut self, a: &Asked) -> u32 {
        let n = self.tree.node(a.id);
        let name = a.words.as_deref().unwrap_or(n.name.as_str());
        let (name, url) = if a.with_name { (name, n.props.url.as_deref()) } else { ("", None) };
        self.refs.assign(self.tree.frame_key(a.id), n.backend_id.unwrap_or_default(), self.role_of(a.id).cdp_name(), name, url)
    }

    /// The role printed: a clickable's hint where its own role says nothing.
    fn role_of(&self, id: NodeId) -> Role {
        let role = &self.tree.node(id).role;
        if self.clickable[id as usize] { rules::clickable::hint(self.tree.node(id)).clone() } else { role.clone() }
    }

    /// Whether the element's line prints its name. A span, a list item and a
    /// heading holding links print it only where their content does not say
    /// it (the heading is then folded into its link: `## [Title](/a)`); a
    /// control whose name a control inside it prints again (an option
    /// wrapping a link of the same name) leaves the name to that control.
    /// Other containers print it; the renderer leaves it out where the line
    /// below says it.
    fn shows_name(&self, id: NodeId, span: bool) -> bool {
        let node = self.tree.node(id);
        let says = || rules::content_says(self.tree, id, &node.name);
        if rules::is_wrapper_role(&node.role) && !prints_name(node) {
            return rules::has_own_name(self.tree, id) && !(span && says());
        }
        if !prints_name(node) {
            return false;
        }
        if node.role == Role::ListItem {
            return node.name_from != crate::cdp::NameSource::Contents && !says();
        }
        // A document's title is said even when a link in it says it again.
        if !self.holds_actionable[id as usize] || node.role.is_root() {
            return true;
        }
        if node.role == Role::Heading && !self.actionable[id as usize] {
            return node.name_from != crate::cdp::NameSource::Contents && !says();
        }
        !self.actionable[id as usize] || !self.control_inside_repeats(id, &node.name)
    }

    fn control_inside_repeats(&self, id: NodeId, name: &str) -> bool {
        let children = &self.tree.node(id).children;
        if !children.iter().any(|&c| self.holds_actionable[c as usize]) {
            return false;
        }
        // Spaces aside: a control's name may have been re-spaced, its container's not.
        let name_bare: Vec<char> = name.chars().filter(|c| !c.is_whitespace()).collect();
        let mut stack: Vec<NodeId> = children.clone();
        let mut budget = 64;
        while let Some(d) = stack.pop() {
            budget -= 1;
            if budget == 0 {
                return false;
            }
            let n = self.tree.node(d);
            if self.actionable[d as usize]
                && (crate::rules::contains_words(&n.name, name)
                    || !name_bare.is_empty() && n.name.chars().filter(|c| !c.is_whitespace()).eq(name_bare.iter().copied()))
            {
                return true;
            }
            stack.extend(n.children.iter().copied());
        }
        false
    }

    fn anchor(&self, id: NodeId) -> NodeId {
        let mut up = self.tree.ancestors(id);
        for p in up.by_ref().take(32) {
            // A date is never part of a word: its text box is its own.
            let role = &self.tree.node(p).role;
            if !crate::rules::is_inline_formatting(role) || *role == Role::Time {
                return p;
            }
        }
        up.next().unwrap_or(id)
    }

    /// A wrapper with text beside it is a span inside a sentence, not a block.
    fn beside_text(&self, id: NodeId) -> bool {
        let Some(p) = self.tree.node(id).parent else { return false };
        self.tree.node(p).children.iter().any(|&s| {
            let n = self.tree.node(s);
            s != id && n.role == Role::StaticText && !n.ignored && !n.name.trim().is_empty()
        })
    }

    /// Past the depth limit: keep only text and actionable nodes, flat.
    /// Whether a node is under a secret field is carried down the walk, not
    /// asked of every node's ancestors (a deep chain would make that quadratic).
    fn flat(&mut self, id: NodeId, out: &mut Vec<Out>) {
        let tree = self.tree;
        let mut stack = vec![(id, self.inside_secret(id))];
        let mut budget = tree.nodes.len() + 1;
        while let Some((d, under_secret)) = stack.pop() {
            budget = budget.saturating_sub(1);
            if budget == 0 {
                break;
            }
            self.visited[d as usize] = true;
            let n = tree.node(d);
            if self.actionable[d as usize] {
                let r = self.assign_ref(d, true);
                let secret = n.secret.map(|reason| Secret { reason, filled: is_filled(tree, d) });
                out.push(Out::Break);
                out.push(Out::Element(Element { src: d, role: n.role.clone(), show_name: true, reference: Some(r), span: false, also: Vec::new(), secret, children: Vec::new() }));
                out.push(Out::Break);
            } else if n.role == Role::StaticText && !n.ignored && !under_secret {
                out.push(Out::Text(n.name.clone(), self.anchor(d)));
            }
            let under = under_secret || n.secret.is_some();
            stack.extend(n.children.iter().rev().map(|&c| (c, under)));
        }
    }

    fn inside_secret(&self, id: NodeId) -> bool {
        std::iter::once(id).chain(self.tree.ancestors(id)).any(|n| self.tree.node(n).secret.is_some())
    }
}

/// A card title is often a link and a heading saying the same words: the
/// heading inside the link, or right after it. Turned inside out,
/// `### A5 [Title](/a)` keeps the level, the link and its ref, and says the
/// words once. Safe: nothing is dropped but the repeated words, and only a
/// heading with nothing else to print (no ref, no other content) is folded.
fn fold_echoed_headings(tree: &Tree, outs: &mut Vec<Out>) {
    let mut i = 0;
    while i < outs.len() {
        if let Out::Element(link) = &outs[i] {
            if link.role == Role::Link && link.show_name && link.secret.is_none() {
                let name = &tree.node(link.src).name;
                let mut content = link.children.iter().filter(|c| !is_blank(c));
                let inside = match (content.next(), content.next()) {
                    (Some(Out::Element(h)), None) if echoes(tree, h, name, false) => Some(h.clone()),
                    _ => None,
                };
                let beside = if inside.is_none() && link.children.iter().all(is_blank) {
                    let j = (i + 1..outs.len()).find(|&j| !is_blank(&outs[j]));
                    j.filter(|&j| matches!(&outs[j], Out::Element(h) if echoes(tree, h, name, true)))
                } else {
                    None
                };
                let heading = match (inside, beside) {
                    (Some(h), _) => Some(h),
                    (None, Some(j)) => match outs.remove(j) {
                        Out::Element(h) => Some(h),
                        _ => None,
                    },
                    _ => None,
                };
                if let Some(mut heading) = heading {
                    if let Out::Element(mut link) = std::mem::replace(&mut outs[i], Out::Break) {
                        link.children.clear();
                        heading.show_name = false;
                        heading.children = vec![Out::Element(link)];
                        outs[i] = Out::Element(heading);
                    }
                }
            }
        }
        i += 1;
    }
}

/// A thumbnail link is often followed by its title link: same URL, and
/// either no words of its own or the title's words again. It is printed once,
/// with both refs: `A4 A5 [Title](/a)`. Safe: every ref stays on the page,
/// and both lead to the same URL; only the empty or repeated name is gone.
fn fold_twin_links(tree: &Tree, outs: &mut Vec<Out>) {
    let mut i = 0;
    while i < outs.len() {
        let Out::Element(a) = &outs[i] else {
            i += 1;
            continue;
        };
        let twin = match (a.role == Role::Link, a.reference, &tree.node(a.src).props.url) {
            (true, Some(r), Some(url)) if a.secret.is_none() && a.children.iter().all(is_blank) && a.also.is_empty() => {
                let name = &tree.node(a.src).name;
                next_link(&mut outs[i + 1..]).filter(|(b, in_heading)| {
                    let bn = tree.node(b.src);
                    // Words in a sentence keep their place: a named twin folds
                    // only into a title, an unnamed one has no words to move.
                    b.reference.is_some()
                        && bn.props.url.as_ref() == Some(url)
                        && (name.trim().is_empty() || *in_heading && rules::same_word_sequence(name, &bn.name))
                })
                .map(|(b, _)| b.also.push(r))
                .is_some()
            }
            _ => false,
        };
        if twin {
            outs.remove(i);
        } else {
            i += 1;
        }
    }
}

/// The first link after a thumbnail link, if it is close: at most a line of
/// text (a date, a byline) and three elements away; and whether it is a title.
fn next_link(outs: &mut [Out]) -> Option<(&mut Element, bool)> {
    let (mut text, mut elements) = (0, 0);
    for out in outs {
        match out {
            Out::Text(t, _) | Out::Marker(t) => {
                text += t.len();
                if text > 80 {
                    return None;
                }
            }
            Out::Break => {}
            Out::Element(e) => {
                elements += 1;
                if elements > 3 {
                    return None;
                }
                let in_heading = e.role == Role::Heading;
                if let Some(link) = first_link(out) {
                    return Some((link, in_heading));
                }
            }
        }
    }
    None
}

/// The output itself if it is a link, or the first link of a heading (a
/// title); lists, tables and forms are structure of their own, not a title.
fn first_link(out: &mut Out) -> Option<&mut Element> {
    let Out::Element(e) = out else { return None };
    match e.role {
        Role::Link => Some(e),
        Role::Heading if e.secret.is_none() => e.children.iter_mut().find_map(first_link),
        _ => None,
    }
}

/// A heading with nothing to print but words the link already says: inside
/// the link they may be part of its name, beside it they must be all of it.
fn echoes(tree: &Tree, h: &Element, link_name: &str, exact: bool) -> bool {
    let words = &tree.node(h.src).name;
    h.role == Role::Heading
        && h.reference.is_none()
        && h.secret.is_none()
        && h.show_name
        && h.children.iter().all(is_blank)
        && if exact { same_words(words, link_name) } else { rules::contains_words(link_name, words) }
}

/// A number set as a superscript is an exponent (or a footnote): without a
/// mark, "2<sup>31</sup>-1" would read "231-1". `^` says it in plain text.
fn mark_exponent(outs: &mut [Out]) {
    if let Some(Out::Text(t, _)) = outs.iter_mut().find(|o| !is_blank(o)) {
        let digits = t.trim();
        if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit() || matches!(c, '-' | '+' | '−')) {
            t.insert(t.len() - t.trim_start().len(), '^');
        }
    }
}

/// A break or a bare space: nothing to read.
pub fn is_blank(out: &Out) -> bool {
    match out {
        Out::Break => true,
        Out::Text(t, _) => t.trim().is_empty(),
        _ => false,
    }
}

/// Unwrapped nodes whose children continue the current line.
fn inline_unwrap(role: &Role) -> bool {
    crate::rules::is_inline_formatting(role) || matches!(role, Role::LabelText)
}

/// Inside these, generic wrappers are spans: their text continues the line.
fn starts_flow(role: &Role) -> bool {
    matches!(
        role,
        Role::Paragraph | Role::Heading | Role::Link | Role::Button | Role::LabelText
            | Role::Cell | Role::GridCell | Role::ColumnHeader | Role::RowHeader | Role::Term
            | Role::Caption | Role::Legend | Role::Option | Role::MenuItem | Role::Tab
    ) || crate::rules::is_inline_formatting(role)
}

fn is_filled(tree: &Tree, id: NodeId) -> bool {
    filled_within(tree, id, 6)
}

fn filled_within(tree: &Tree, id: NodeId, depth: u8) -> bool {
    let node = tree.node(id);
    if node.value.as_deref().is_some_and(|v| !v.is_empty()) {
        return true;
    }
    depth > 0
        && node.children.iter().any(|&c| {
            let n = tree.node(c);
            n.role == Role::StaticText && !n.name.is_empty() || filled_within(tree, c, depth - 1)
        })
}

/// Post-order "subtree holds an actionable node", without recursion.
pub(crate) fn holds(tree: &Tree, actionable: &[bool]) -> Vec<bool> {
    let mut holds = actionable.to_vec();
    // Parents come before children in CDP order usually, but not always:
    // propagate up each actionable node's ancestor chain instead.
    let n = tree.nodes.len();
    for (i, _) in actionable.iter().enumerate().filter(|(_, &a)| a) {
        let mut cur = tree.nodes[i].parent;
        let mut steps = 0;
        while let Some(p) = cur {
            if holds[p as usize] {
                // Marked already, and so are its ancestors (or they will be
                // when p's own chain is walked, if p is actionable).
                break;
            }
            holds[p as usize] = true;
            cur = tree.nodes[p as usize].parent;
            steps += 1;
            if steps > n {
                break;
            }
        }
    }
    holds
}
