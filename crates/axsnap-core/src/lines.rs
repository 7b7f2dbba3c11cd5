//! The line model: what the renderers build from the distilled tree, and all
//! that happens after (depth limit, run collapsing, the character cap, URL
//! references, the printers, diffs) works on. Every fact a later stage needs
//! is a typed field here; nothing reads printed text back.

use crate::role::Role;
use serde_json::{Map, Value};

/// One snapshot's lines, and the link URLs their `Url` segments stand for.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Lines {
    pub lines: Vec<Line>,
    /// Link URLs as shown (clipped by `maxUrl`), one per distinct full URL.
    pub urls: Vec<String>,
    /// Per URL: its Markdown reference number (`[3]`), or 0 to print it inline.
    /// Decided by the budget from the lines it keeps.
    pub references: Vec<usize>,
    /// Per URL whose shown form marks its link's words (`/wiki/*`, `/a/~`):
    /// the URL as shown without the mark, which a reference's table line
    /// prints (the mark means nothing away from the link). `None` elsewhere.
    pub unmarked: Vec<Option<String>>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Nesting level: one space of indent per level in text.
    pub depth: usize,
    pub kind: Kind,
    pub body: Body,
}

/// What a line is, as far as budgets and diffs need to know.
#[derive(Debug, Clone, PartialEq)]
pub enum Kind {
    /// `page "Title" url`
    Page,
    /// `## Title`, or a card title `### A5 [Title](/a)`.
    Heading,
    /// A line that starts with a link; `same_page` for `#[name]`.
    Link { same_page: bool },
    /// A line that starts with an element's role word: `button A7 "OK"`.
    Element(Role),
    /// Words: text, and lines a preformatted block continues on.
    Text,
    /// `- …` or `3. …`, joined with the kind of the line it starts with.
    ListItem { numbered: bool, first: Option<Box<Kind>> },
    /// A table row `| a | b`, and the `|-|-` rule under a header row.
    Row,
    /// A line the budget adds to say what it left out: how many lines and
    /// refs of the full snapshot it stands for.
    Note { lines: usize, refs: usize },
    /// `[3]: /docs`, defining a URL reference.
    Reference,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// A line of the text format.
    Segments(Vec<Segment>),
    /// A row of the JSON format.
    Row(Row),
    /// A note, in either format.
    Note(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Segment {
    Text(String),
    /// A link destination: an index into `Lines::urls`, printed `(url)` or,
    /// where the budget chose a reference, `[n]`.
    Url(usize),
    /// An element ref, printed `A<n>`.
    Ref(u32),
}

/// A JSON row: `[depth, role, name, props, ref]`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Row {
    /// The role word, `"text"` for text.
    pub role: String,
    pub name: String,
    pub props: Map<String, Value>,
    pub reference: Option<u32>,
    /// Refs of twin links folded into this one (printed as `props.also`).
    pub also: Vec<u32>,
}

impl Line {
    pub fn note(depth: usize, lines: usize, refs: usize, text: String) -> Line {
        Line { depth, kind: Kind::Note { lines, refs }, body: Body::Note(text) }
    }

    /// Lines and refs of the full snapshot this line stands for: itself, or
    /// what a note says it left out.
    pub fn stands_for(&self) -> (usize, usize) {
        match self.kind {
            Kind::Note { lines, refs } => (lines, refs),
            _ => (1, self.ref_count()),
        }
    }

    pub fn segments(depth: usize, kind: Kind, segments: Vec<Segment>) -> Line {
        Line { depth, kind, body: Body::Segments(segments) }
    }

    /// The refs printed on this line, in order.
    pub fn refs(&self) -> impl Iterator<Item = u32> + '_ {
        let (segments, row): (&[Segment], Option<&Row>) = match &self.body {
            Body::Segments(s) => (s, None),
            Body::Row(r) => (&[], Some(r)),
            Body::Note(_) => (&[], None),
        };
        let in_segments = segments.iter().filter_map(|s| match s {
            Segment::Ref(n) => Some(*n),
            _ => None,
        });
        let in_row = row.into_iter().flat_map(|r| r.reference.iter().chain(&r.also).copied());
        in_segments.chain(in_row)
    }

    pub fn ref_count(&self) -> usize {
        self.refs().count()
    }

    /// The URL slots on this line, in order.
    pub fn urls(&self) -> impl Iterator<Item = usize> + '_ {
        let segments: &[Segment] = match &self.body {
            Body::Segments(s) => s,
            _ => &[],
        };
        segments.iter().filter_map(|s| match s {
            Segment::Url(i) => Some(*i),
            _ => None,
        })
    }
}

impl Lines {
    /// A URL slot as a reference's table line prints it: without a mark
    /// standing for its link's words.
    pub fn table_url(&self, i: usize) -> &str {
        self.unmarked.get(i).and_then(Option::as_deref).unwrap_or(&self.urls[i])
    }

    /// Every ref printed, in order.
    pub fn refs(&self) -> impl Iterator<Item = u32> + '_ {
        self.lines.iter().flat_map(Line::refs)
    }
}

/// A ref as it is printed: `A7`.
pub fn push_ref(out: &mut String, n: u32) {
    // Digits by hand: the formatting machinery is slow in Wasm, and a
    // large page prints thousands of refs.
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    let mut rest = n;
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    out.push('A');
    out.extend(digits[at..].iter().map(|&d| char::from(d)));
}

pub fn format_ref(n: u32) -> String {
    let mut s = String::with_capacity(8);
    push_ref(&mut s, n);
    s
}
