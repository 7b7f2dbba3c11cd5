//! A seeded random-mutation fuzzer over the core's input → snapshot → refs
//! path. cargo-fuzz needs a nightly compiler and libFuzzer; this runs on
//! stable, offline, and every execution replays from `(seed, iteration)`.
//!
//! Each execution takes a fragment of a real page from the shared corpus
//! (`getFullAXTree` dumps), sometimes two as parent and child frame,
//! mutates it (roles, names, children, ids, ignored flags), and plants
//! canary secrets: fields holding a canary value that the facts or Chrome's
//! bullets make secret, with the value (or its bullets) planted again in
//! other nodes' names, descriptions and URLs, the way Chrome's name
//! computation and pages put it there: a label around the field, a button
//! `aria-labelledby` it, a hidden field a label points at, a short code in
//! a checkbox's label. And values typed into secret fields that are empty
//! now (cleared after a try), known only by their fingerprints, echoed by
//! the page in other case, spacing or digit grouping, in names, values,
//! descriptions and URLs. It then takes two snapshots with random options
//! (the second on the same ref table, maybe of a subtree; where values were
//! typed, the first may be a diff against a snapshot taken before they were
//! known, of the page with one more echo), resolves every ref, saves the ref
//! table, and sometimes parses a corrupted JSON copy of the input. It fails
//! on a panic, on a canary (or a bullet run of its length, or a typed value
//! in any case or grouping) in any of those outputs or errors, and on a
//! short code left in the label Chrome built from it.

use axsnap_core::cdp::{AxNode, AxProperty, AxValue, FrameInput, RelatedNode, Scalar};
use axsnap_core::{snapshot, snapshot_typed, FieldFacts, Format, Mode, Options, Previous, RefTable, SecretReason, SnapshotInput, Typed};
use std::io::Read;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Page fragments to start from.
pub struct Seeds {
    fragments: Vec<Vec<AxNode>>,
}

/// Canary prefix: no corpus page says it (pages that do are skipped).
const CANARY: &str = "CNRY";
const MASKS: [char; 2] = ['•', '●'];

impl Seeds {
    /// Fragments of every `*.json.gz` dump in `dir` (`every`th page only, to
    /// load faster), `per_page` from each.
    pub fn from_corpus(dir: &Path, every: usize, per_page: usize) -> Result<Seeds, String> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(|e| format!("{}: {e}", dir.display()))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".json.gz"))
            .collect();
        files.sort();
        let mut rng = fastrand::Rng::with_seed(7);
        let mut fragments = Vec::new();
        for path in files.iter().step_by(every.max(1)) {
            let mut text = String::new();
            flate2::read::GzDecoder::new(std::fs::File::open(path).map_err(|e| e.to_string())?)
                .read_to_string(&mut text)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            if text.contains(CANARY) {
                continue;
            }
            let input = SnapshotInput::from_json(&text).map_err(|e| format!("{}: {}", path.display(), e.message))?;
            let nodes = &input.frames[0].nodes;
            for _ in 0..per_page {
                fragments.push(fragment(&mut rng, nodes));
            }
        }
        if fragments.is_empty() {
            return Err(format!("no corpus dumps in {}", dir.display()));
        }
        Ok(Seeds { fragments })
    }

    /// A small built-in page, for a checkout without the corpus.
    pub fn builtin() -> Seeds {
        let text = r#"{"nodes":[
            {"nodeId":"1","role":{"value":"RootWebArea"},"name":{"value":"Shop"},"childIds":["2","3","4","5"],"backendDOMNodeId":1,
             "properties":[{"name":"url","value":{"value":"https://shop.test/"}}]},
            {"nodeId":"2","role":{"value":"heading"},"name":{"value":"Sign in"},"childIds":["6"],"backendDOMNodeId":2},
            {"nodeId":"6","role":{"value":"StaticText"},"name":{"value":"Sign in"},"backendDOMNodeId":6},
            {"nodeId":"3","role":{"value":"link"},"name":{"value":"Help"},"backendDOMNodeId":3,
             "properties":[{"name":"url","value":{"value":"https://shop.test/help"}}]},
            {"nodeId":"4","role":{"value":"textbox"},"name":{"value":"Email"},"backendDOMNodeId":4,
             "properties":[{"name":"focusable","value":{"value":true}},{"name":"editable","value":{"value":"plaintext"}}]},
            {"nodeId":"5","role":{"value":"list"},"name":{"value":""},"childIds":["7"],"backendDOMNodeId":5},
            {"nodeId":"7","role":{"value":"listitem"},"name":{"value":""},"childIds":["8"],"backendDOMNodeId":7},
            {"nodeId":"8","role":{"value":"button"},"name":{"value":"Go • now"},"backendDOMNodeId":8}]}"#;
        let input = SnapshotInput::from_json(text).expect("built-in seed");
        Seeds { fragments: vec![input.frames[0].nodes.clone()] }
    }

    pub fn len(&self) -> usize {
        self.fragments.len()
    }

    pub fn is_empty(&self) -> bool {
        self.fragments.is_empty()
    }
}

/// The shared corpus (`AXSNAP_CORPUS`, else beside the checkout).
pub fn corpus_dir() -> Option<PathBuf> {
    let candidates = [
        std::env::var("AXSNAP_CORPUS").map(PathBuf::from).ok(),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/ax")),
        Some(PathBuf::from("/work/shared/corpus/ax")),
    ];
    candidates.into_iter().flatten().find(|d| d.is_dir())
}

/// A random node's subtree, breadth first, up to 20–200 nodes, under a new
/// root. Children outside the fragment stay listed: missing ids are input
/// the core must take too.
fn fragment(rng: &mut fastrand::Rng, nodes: &[AxNode]) -> Vec<AxNode> {
    let limit = rng.usize(20..=200);
    let by_id: std::collections::HashMap<&str, &AxNode> = nodes.iter().map(|n| (n.node_id.as_str(), n)).collect();
    let start = &nodes[rng.usize(..nodes.len())];
    let mut out: Vec<AxNode> = Vec::new();
    let mut queue = std::collections::VecDeque::from([start]);
    let mut seen = std::collections::HashSet::new();
    while let Some(n) = queue.pop_front() {
        if out.len() >= limit || !seen.insert(n.node_id.as_str()) {
            continue;
        }
        out.push(n.clone());
        queue.extend(n.child_ids.iter().filter_map(|c| by_id.get(c.as_str())));
    }
    let mut root = node("root", "RootWebArea", "Fragment");
    root.backend_dom_node_id = Some(0);
    root.child_ids = vec![start.node_id.clone()];
    root.properties.push(prop("url", "https://page.test/fragment"));
    out.insert(0, root);
    out
}

fn text(s: &str) -> Option<AxValue> {
    Some(AxValue { value: Scalar::Text(s.to_string()), ..AxValue::default() })
}

fn prop(name: &str, value: &str) -> AxProperty {
    AxProperty { name: name.to_string(), value: AxValue { value: Scalar::Text(value.to_string()), ..AxValue::default() } }
}

fn relation(name: &str, targets: &[i64]) -> AxProperty {
    let related_nodes = targets.iter().map(|&t| RelatedNode { backend_dom_node_id: Some(t) }).collect();
    AxProperty { name: name.to_string(), value: AxValue { related_nodes, ..AxValue::default() } }
}

fn node(id: &str, role: &str, name: &str) -> AxNode {
    AxNode { node_id: id.to_string(), role: text(role), name: text(name), ..AxNode::default() }
}

const ROLES: &[&str] = &[
    "textbox", "searchbox", "combobox", "button", "link", "StaticText", "InlineTextBox", "LabelText", "heading",
    "checkbox", "generic", "paragraph", "list", "listitem", "RootWebArea", "Iframe", "table", "row", "cell", "none",
];

/// One planted secret: what must never come out.
struct Canary {
    /// The value, or `None` for a masked field (bullets only).
    value: Option<String>,
    /// Masked: the glyph and the run length that must not come out.
    bullets: Option<(char, usize)>,
}

/// A value typed into a secret field: it must not come out in any case,
/// nor its digits in any grouping.
struct TypedCanary {
    lower: String,
    digits: Option<String>,
}

/// A short secret value and the node whose name Chrome built from it.
struct ShortCode {
    value: String,
    frame: String,
    labelled: i64,
}

/// What went wrong in one execution.
#[derive(Debug)]
pub struct Failure {
    pub iteration: u64,
    pub what: String,
}

/// The state of one execution.
struct Exec {
    rng: fastrand::Rng,
    frames: Vec<FrameInput>,
    facts: Vec<FieldFacts>,
    canaries: Vec<Canary>,
    shorts: Vec<ShortCode>,
    /// Fingerprints of the values typed before, as the extension keeps them.
    typed: Typed,
    typed_canaries: Vec<TypedCanary>,
    /// Whether the first snapshot is a diff against one taken before the
    /// typed values were known, and the echo the page showed then.
    diff_before: bool,
    echo_before: Option<String>,
    next_id: i64,
    /// Bullet runs the page has of itself: a planted length is never one.
    natural: Vec<(char, usize)>,
    /// Per frame, how many nodes are the page's own: values are planted
    /// again only there, never over another planted field.
    own: Vec<usize>,
}

impl Exec {
    fn fresh_id(&mut self) -> i64 {
        self.next_id += 1;
        self.next_id
    }

    fn canary_value(&mut self) -> String {
        let len = self.rng.usize(6..=16);
        let tail: String = std::iter::repeat_with(|| self.rng.alphanumeric()).take(len).collect();
        match self.rng.u8(..4) {
            // Whitespace inside: Chrome collapses it in names.
            0 => format!("{CANARY}{} \n  {}", &tail[..len / 2], &tail[len / 2..]),
            _ => format!("{CANARY}{tail}"),
        }
    }

    /// Adds `n` to frame `f` as a child of a random node of it.
    fn attach(&mut self, f: usize, mut n: AxNode) -> String {
        let nodes = &mut self.frames[f].nodes;
        let parent = self.rng.usize(..nodes.len());
        n.node_id = format!("p{}", self.next_id + 1000);
        self.next_id += 1;
        nodes[parent].child_ids.push(n.node_id.clone());
        let id = n.node_id.clone();
        nodes.push(n);
        id
    }

    fn pick_other(&mut self, f: usize) -> usize {
        let len = self.own.get(f).copied().unwrap_or(self.frames[f].nodes.len());
        self.rng.usize(..len.max(1))
    }

    /// A secret field with its inner text, made secret by facts or bullets,
    /// and the places its value is planted again.
    fn plant_secret(&mut self) {
        let f = self.rng.usize(..self.frames.len());
        let frame_key = self.frames[f].key.clone();
        let backend = self.fresh_id();
        let masked = self.rng.u8(..4) == 0;
        let (value, bullets) = if masked {
            let glyph = MASKS[self.rng.usize(..2)];
            let mut len = self.rng.usize(5..=20);
            while self.natural.contains(&(glyph, len)) {
                len += 1;
            }
            (std::iter::repeat_n(glyph, len).collect::<String>(), Some((glyph, len)))
        } else {
            (self.canary_value(), None)
        };
        let mut field = node("", ["textbox", "searchbox", "combobox", "generic"][self.rng.usize(..4)], "");
        field.backend_dom_node_id = Some(backend);
        field.value = text(&value);
        field.properties = vec![prop("focusable", "true"), prop("editable", "plaintext")];
        if self.rng.bool() {
            // Named by its own value (aria-labelledby naming itself).
            field.name = text(&value);
            field.properties.push(relation("labelledby", &[backend]));
        }
        let mut inner = node("", "StaticText", &value);
        inner.backend_dom_node_id = Some(self.fresh_id());
        // A label around it, named by a checkbox that it also labels.
        let label_backend = self.fresh_id();
        let mut label = node("", "LabelText", "");
        label.backend_dom_node_id = Some(label_backend);
        let label_id = self.attach(f, label);
        let field_id = format!("p{}", self.next_id + 1000);
        self.next_id += 1;
        let inner_id = format!("p{}", self.next_id + 1000);
        self.next_id += 1;
        field.node_id = field_id.clone();
        field.child_ids = vec![inner_id.clone()];
        inner.node_id = inner_id;
        let mut checkbox = node("", "checkbox", &format!("Pay with {value} now"));
        checkbox.backend_dom_node_id = Some(self.fresh_id());
        checkbox.properties = vec![prop("focusable", "true"), relation("labelledby", &[label_backend])];
        checkbox.node_id = format!("p{}", self.next_id + 1000);
        self.next_id += 1;
        let nodes = &mut self.frames[f].nodes;
        let label_at = nodes.iter().position(|n| n.node_id == label_id).unwrap();
        nodes[label_at].child_ids = vec![checkbox.node_id.clone(), field_id];
        nodes.extend([checkbox, field, inner]);
        // The value again, elsewhere: names, descriptions, a button labelled by the field, URLs.
        for _ in 0..self.rng.usize(1..=4) {
            if self.rng.u8(..5) < 4 {
                self.echo_in(f, "Code ", &value);
                continue;
            }
            let mut button = node("", "button", &format!("Unlock {value}"));
            button.backend_dom_node_id = Some(self.fresh_id());
            button.properties = vec![prop("focusable", "true"), relation("labelledby", &[backend])];
            self.attach(f, button);
        }
        // How the facts make it secret (a masked field needs none).
        let reason = match (masked, self.rng.u8(..6)) {
            (true, 0..=2) => None,
            (_, 0) => Some(("type", "password")),
            (_, 1) => Some(("autocomplete", "one-time-code")),
            (_, 2) => Some(("name", "card[number]")),
            (_, 3) => Some(("autocomplete", "cc-number")),
            (_, 4) => Some(("id", "password")),
            _ => None,
        };
        let mut fact = FieldFacts { frame: frame_key, backend_node_id: backend, tag: "input".into(), ..FieldFacts::default() };
        match reason {
            Some((k, v)) => fact.attributes = vec![k.into(), v.into()],
            None if !masked && self.rng.bool() => fact.text_security = "disc".into(),
            None if !masked => fact.reason = Some(SecretReason::Password),
            None => {}
        }
        if !masked || reason.is_some() {
            self.facts.push(fact);
        }
        if bullets.is_none() {
            let squashed: String = value.split_whitespace().collect::<Vec<_>>().join(" ");
            self.canaries.push(Canary { value: Some(squashed), bullets: None });
        } else {
            self.canaries.push(Canary { value: None, bullets });
        }
    }

    /// A secret field that is empty now, holding before a value known by
    /// its fingerprints only (to the field's facts or to the tab's memory),
    /// and the page echoing that value in other forms.
    fn plant_typed(&mut self) {
        let f = self.rng.usize(..self.frames.len());
        let backend = self.fresh_id();
        let numeric = self.rng.u8(..3) == 0;
        let value = if numeric {
            let sep = [" ", "-", ""][self.rng.usize(..3)];
            let groups: Vec<String> = (0..4).map(|_| std::iter::repeat_with(|| self.rng.digit(10)).take(4).collect()).collect();
            groups.join(sep)
        } else if self.diff_before {
            // A line break printed (escaped) before the value was known is
            // not recognised in the diff's removed lines: a limit, not tested.
            self.canary_value().split_whitespace().collect::<Vec<_>>().join(" ")
        } else {
            self.canary_value()
        };
        let mut field = node("", "textbox", "Password");
        field.backend_dom_node_id = Some(backend);
        field.value = text("");
        field.properties = vec![prop("focusable", "true"), prop("editable", "plaintext")];
        self.attach(f, field);
        let (attributes, reason) = match self.rng.u8(..4) {
            0 => (vec!["type".into(), "password".into()], None),
            1 => (vec!["autocomplete".into(), "current-password".into()], None),
            2 => (vec!["autocomplete".into(), "cc-number".into()], None),
            _ => (vec!["type".into(), "text".into()], Some(SecretReason::Password)),
        };
        let prints = self.typed.prints_of(&value);
        let mut fact = FieldFacts { frame: self.frames[f].key.clone(), backend_node_id: backend, tag: "input".into(), attributes, reason, ..FieldFacts::default() };
        if self.rng.bool() {
            fact.typed = prints;
        } else {
            self.typed.add(&prints);
        }
        self.facts.push(fact);
        let squashed = value.split_whitespace().collect::<Vec<_>>().join(" ");
        let digits: String = value.chars().filter(char::is_ascii_digit).collect();
        for _ in 0..self.rng.usize(1..=4) {
            let echo = self.echo_of(&value, numeric);
            self.echo_in(f, "Wrong password: ", &echo);
        }
        if self.echo_before.is_none() {
            self.echo_before = Some(format!("You typed {}", self.echo_of(&value, numeric)));
        }
        self.typed_canaries.push(TypedCanary { lower: squashed.to_lowercase(), digits: numeric.then_some(digits) });
    }

    /// `echo` in a node of the page's own in frame `f`: in its name after
    /// `lead`, its description, its value, or a URL.
    fn echo_in(&mut self, f: usize, lead: &str, echo: &str) {
        let at = self.pick_other(f);
        let n = &mut self.frames[f].nodes[at];
        match self.rng.u8(..4) {
            0 => n.name = text(&format!("{lead}{echo}")),
            1 => n.description = text(echo),
            2 => n.value = text(&format!("{echo} ")),
            // A value in a URL has no raw whitespace (a browser encodes it).
            _ if !echo.contains(char::is_whitespace) => n.properties.push(prop("url", &format!("https://page.test/verify?code={echo}&x=1"))),
            _ => n.name = text(&format!("{echo}: sent")),
        }
    }

    /// The value as a page may echo it: another case, other whitespace, other digit groups.
    fn echo_of(&mut self, value: &str, numeric: bool) -> String {
        if numeric && self.rng.bool() {
            let digits: Vec<char> = value.chars().filter(char::is_ascii_digit).collect();
            let sep = [" ", "-", "", "."][self.rng.usize(..4)];
            return digits.chunks(4).map(|c| c.iter().collect::<String>()).collect::<Vec<_>>().join(sep);
        }
        match self.rng.u8(..4) {
            0 => value.to_uppercase(),
            1 => value.to_lowercase(),
            2 if !self.diff_before => value.split_whitespace().collect::<Vec<_>>().join("\n\t "),
            _ => value.to_string(),
        }
    }

    /// A field the tree leaves out, with a button a label points at it.
    fn plant_hidden(&mut self) {
        let f = self.rng.usize(..self.frames.len());
        let backend = self.fresh_id();
        let value = self.canary_value();
        let mut button = node("", "button", &value.split_whitespace().collect::<Vec<_>>().join(" "));
        button.backend_dom_node_id = Some(self.fresh_id());
        button.properties = vec![prop("focusable", "true"), relation("labelledby", &[backend])];
        self.attach(f, button);
        self.facts.push(FieldFacts {
            frame: self.frames[f].key.clone(),
            backend_node_id: backend,
            tag: "input".into(),
            attributes: vec!["autocomplete".into(), "one-time-code".into()],
            value: Some(value.clone()),
            ..FieldFacts::default()
        });
        self.canaries.push(Canary { value: Some(value.split_whitespace().collect::<Vec<_>>().join(" ")), bullets: None });
    }

    /// A one-to-three character code in a field inside a label, and the
    /// checkbox Chrome names from that label.
    fn plant_short(&mut self) {
        let f = self.rng.usize(..self.frames.len());
        let len = self.rng.usize(1..=3);
        let value: String = std::iter::repeat_with(|| self.rng.digit(10)).take(len).collect();
        let label_backend = self.fresh_id();
        let mut label = node("", "LabelText", "");
        label.backend_dom_node_id = Some(label_backend);
        let label_id = self.attach(f, label);
        let field_backend = self.fresh_id();
        let mut field = node(&format!("s{field_backend}"), "textbox", "");
        field.backend_dom_node_id = Some(field_backend);
        field.value = text(&value);
        field.properties = vec![prop("focusable", "true")];
        let checkbox_backend = self.fresh_id();
        let mut checkbox = node(&format!("s{checkbox_backend}"), "checkbox", &format!("Use {value} now"));
        checkbox.backend_dom_node_id = Some(checkbox_backend);
        checkbox.properties = vec![prop("focusable", "true"), relation("labelledby", &[label_backend])];
        let nodes = &mut self.frames[f].nodes;
        let at = nodes.iter().position(|n| n.node_id == label_id).unwrap();
        nodes[at].child_ids = vec![checkbox.node_id.clone(), field.node_id.clone()];
        nodes.extend([checkbox, field]);
        let frame = self.frames[f].key.clone();
        self.facts.push(FieldFacts { frame: frame.clone(), backend_node_id: field_backend, tag: "input".into(), attributes: vec!["name".into(), "cvc".into()], ..FieldFacts::default() });
        self.shorts.push(ShortCode { value, frame, labelled: checkbox_backend });
    }

    /// Random damage to the input: the core must take any of it.
    fn mutate(&mut self) {
        for _ in 0..self.rng.usize(0..=6) {
            let f = self.rng.usize(..self.frames.len());
            if self.frames[f].nodes.is_empty() {
                continue;
            }
            let at = self.pick_other(f);
            let other = self.pick_other(f);
            let other_id = self.frames[f].nodes[other].node_id.clone();
            let role = ROLES[self.rng.usize(..ROLES.len())];
            let words = ["", " ", "a  b", "\u{200B}", "•", "••••", "A7", "x".repeat(300).as_str(), "\u{E000} icon", "1.1", "Menu"]
                .map(str::to_string);
            let word = words[self.rng.usize(..words.len())].clone();
            let nodes = &mut self.frames[f].nodes;
            match self.rng.u8(..9) {
                0 => nodes[at].role = text(role),
                1 => nodes[at].name = text(&word),
                2 => nodes[at].child_ids.push(other_id),
                3 => nodes[at].ignored = !nodes[at].ignored,
                4 => nodes[at].backend_dom_node_id = nodes[other].backend_dom_node_id,
                5 => nodes[at].node_id = other_id,
                6 => {
                    if at != 0 {
                        nodes.remove(at);
                    }
                }
                7 => nodes[at].child_ids.clear(),
                _ => nodes[at].value = text(&word),
            }
        }
    }

    fn options(&mut self, root: Option<String>) -> Options {
        let some = |rng: &mut fastrand::Rng, lo: usize, hi: usize| rng.bool().then(|| rng.usize(lo..=hi));
        Options {
            mode: if self.rng.bool() { Mode::Full } else { Mode::Interactive },
            format: if self.rng.bool() { Format::Text } else { Format::Json },
            max_chars: some(&mut self.rng, 1, 4000),
            max_depth: some(&mut self.rng, 0, 12),
            max_text: some(&mut self.rng, 1, 80),
            max_url: some(&mut self.rng, 1, 80),
            root,
            diff: false,
            viewport: self.rng.bool(),
        }
    }
}

/// `s` with the separators between digits taken out (`5500-0000` → `55000000`).
fn digits_joined(s: &str) -> String {
    let c: Vec<char> = s.chars().collect();
    let between = |i: usize| i > 0 && i + 1 < c.len() && c[i - 1].is_ascii_digit() && c[i + 1].is_ascii_digit() && matches!(c[i], ' ' | '-' | '.' | '/');
    c.iter().enumerate().filter(|&(i, _)| !between(i)).map(|(_, ch)| ch).collect()
}

/// The lengths of the runs of `glyph` in `s`.
fn runs(s: &str, glyph: char) -> Vec<usize> {
    let mut out = Vec::new();
    let mut run = 0;
    for c in s.chars().chain(std::iter::once('\0')) {
        if c == glyph {
            run += 1;
        } else if run > 0 {
            out.push(run);
            run = 0;
        }
    }
    out
}

fn mask_run(s: &str, glyph: char, len: usize) -> bool {
    runs(s, glyph).contains(&len)
}

fn natural_runs(frames: &[FrameInput]) -> Vec<(char, usize)> {
    let mut out = Vec::new();
    for n in frames.iter().flat_map(|f| &f.nodes) {
        for v in [&n.name, &n.description, &n.value].into_iter().flatten() {
            if let Scalar::Text(t) = &v.value {
                for g in MASKS {
                    out.extend(runs(t, g).into_iter().map(|l| (g, l)));
                }
            }
        }
        for p in &n.properties {
            if let Scalar::Text(t) = &p.value.value {
                for g in MASKS {
                    out.extend(runs(t, g).into_iter().map(|l| (g, l)));
                }
            }
        }
    }
    out
}

/// The execution under way, for a panic hook to name (in a release build
/// a panic aborts: nothing unwinds to `run_one`).
pub static CURRENT: AtomicU64 = AtomicU64::new(0);

/// Runs iteration `iteration` of the campaign seeded `seed`.
pub fn run_one(seeds: &Seeds, seed: u64, iteration: u64) -> Result<(), Failure> {
    CURRENT.store(iteration, Ordering::Relaxed);
    let fail = |what: String| Failure { iteration, what };
    let outcome = catch_unwind(AssertUnwindSafe(|| exec(seeds, seed, iteration)));
    match outcome {
        Ok(Ok(())) => Ok(()),
        Ok(Err(what)) => Err(fail(what)),
        Err(panic) => {
            let msg = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
            Err(fail(format!("panic: {}", msg.unwrap_or_default())))
        }
    }
}

/// The input, facts and plants of one execution.
fn build(seeds: &Seeds, seed: u64, iteration: u64) -> (Exec, SnapshotInput) {
    let mut rng = fastrand::Rng::with_seed(seed ^ iteration.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let main = seeds.fragments[rng.usize(..seeds.len())].clone();
    let mut frames = vec![FrameInput { key: "main".into(), nodes: main, ..FrameInput::default() }];
    if rng.u8(..4) == 0 {
        let child = seeds.fragments[rng.usize(..seeds.len())].clone();
        let owner = frames[0].nodes[rng.usize(..frames[0].nodes.len())].backend_dom_node_id;
        frames.push(FrameInput { key: "child".into(), parent: Some("main".into()), owner, nodes: child, ..FrameInput::default() });
    }
    let salt = format!("{:016x}{:016x}", rng.u64(..), rng.u64(..));
    let mut x = Exec {
        rng, frames, facts: Vec::new(), canaries: Vec::new(), shorts: Vec::new(), typed: Typed::new(&salt), typed_canaries: Vec::new(),
        diff_before: false, echo_before: None, next_id: 5_000_000, natural: Vec::new(), own: Vec::new(),
    };
    // Damage first: it must not take a planted field away (the extension
    // would then pass its value as a hidden field's).
    x.mutate();
    x.natural = natural_runs(&x.frames);
    x.own = x.frames.iter().map(|f| f.nodes.len()).collect();
    for _ in 0..x.rng.usize(1..=3) {
        x.plant_secret();
    }
    if x.rng.u8(..3) == 0 {
        x.plant_hidden();
    }
    if x.rng.u8(..3) == 0 {
        x.plant_short();
    }
    if x.rng.u8(..2) == 0 {
        x.diff_before = x.rng.bool();
        for _ in 0..x.rng.usize(1..=2) {
            x.plant_typed();
        }
    }
    let input = SnapshotInput { frames: std::mem::take(&mut x.frames) };
    (x, input)
}

/// One execution's input and facts as JSON, to look at a failure.
pub fn dump(seeds: &Seeds, seed: u64, iteration: u64) -> String {
    let (x, input) = build(seeds, seed, iteration);
    let facts: Vec<String> = x.facts.iter().map(|f| format!("{f:?} value={:?}", f.value)).collect();
    format!("{}\n{}", serde_json::json!({ "frames": input.frames }), facts.join("\n"))
}

fn exec(seeds: &Seeds, seed: u64, iteration: u64) -> Result<(), String> {
    let (mut x, input) = build(seeds, seed, iteration);
    let mut outputs: Vec<String> = Vec::new();
    let mut refs = RefTable::new();
    let mut previous = Previous::default();
    let mut first = x.options(None);
    if let Some(echo) = x.echo_before.clone().filter(|_| x.diff_before) {
        // A diff whose removed lines were printed before the values were
        // known (whole: a line clipped then is a prefix no print matches).
        first = Options { format: Format::Text, diff: true, max_text: None, max_url: None, ..first };
        let mut before = input.clone();
        let mut toast = node("toast", "StaticText", &echo);
        toast.backend_dom_node_id = Some(4_999_999);
        before.frames[0].nodes[0].child_ids.push(toast.node_id.clone());
        before.frames[0].nodes.push(toast);
        let _unchecked = snapshot_typed(&before, &x.facts, &Typed::default(), &Options { diff: false, ..first.clone() }, &mut refs, &mut previous);
        x.typed_canaries.push(TypedCanary { lower: echo["You typed ".len()..].to_lowercase(), digits: None });
    }
    match snapshot_typed(&input, &x.facts, &x.typed, &first, &mut refs, &mut previous) {
        Ok(s) => outputs.push(format!("{}\n{:?}\n{:?}", s.text, s.stats, s.secrets)),
        Err(e) => outputs.push(e.to_string()),
    }
    let issued = refs.live() as u32 + 2;
    let root = (x.rng.u8(..3) == 0).then(|| format!("A{}", x.rng.u32(..issued.max(1))));
    let second = x.options(root);
    match snapshot_typed(&input, &x.facts, &x.typed, &second, &mut refs, &mut previous) {
        Ok(s) => outputs.push(format!("{}\n{:?}", s.text, s.stats)),
        Err(e) => outputs.push(e.to_string()),
    }
    let mut resolved = Vec::new();
    for n in 0..issued + 2 {
        match refs.resolve(&format!("A{n}")) {
            Ok(t) => {
                outputs.push(format!("{t:?}"));
                resolved.push(t);
            }
            Err(e) => outputs.push(e.to_string()),
        }
    }
    outputs.push(refs.to_json());
    if x.rng.u8(..8) == 0 {
        outputs.push(corrupted_parse(&mut x.rng, &input));
    }
    for out in &outputs {
        for c in &x.canaries {
            if let Some(v) = &c.value {
                if out.contains(v.as_str()) || out.contains(&v[CANARY.len()..]) {
                    return Err(format!("canary {v:?} in output:\n{out}"));
                }
            }
            if let Some((g, l)) = c.bullets {
                if mask_run(out, g, l) {
                    return Err(format!("a run of {l} {g} in output:\n{out}"));
                }
            }
        }
        if out.contains(CANARY) {
            return Err(format!("canary prefix in output:\n{out}"));
        }
        let lower = out.to_lowercase();
        for c in &x.typed_canaries {
            if lower.contains(&c.lower) || lower.contains(&CANARY.to_lowercase()) {
                return Err(format!("typed value {:?} in output:\n{out}", c.lower));
            }
            if c.digits.as_ref().is_some_and(|d| digits_joined(out).contains(d.as_str())) {
                return Err(format!("typed number {:?} in output:\n{out}", c.digits));
            }
        }
    }
    for s in &x.shorts {
        let hit = resolved.iter().find(|t| t.frame == s.frame && t.backend_node_id == s.labelled);
        if let Some(t) = hit {
            if t.name.split(|c: char| !c.is_alphanumeric()).any(|w| w == s.value) {
                return Err(format!("short code {:?} in the name built from it: {:?}", s.value, t.name));
            }
        }
    }
    Ok(())
}

/// The input as JSON with a few bytes broken, some canaries where values
/// belong: any error must say where, never quote the input.
fn corrupted_parse(rng: &mut fastrand::Rng, input: &SnapshotInput) -> String {
    let nodes: Vec<serde_json::Value> = input.frames[0].nodes.iter().map(|n| serde_json::to_value(n).unwrap_or_default()).collect();
    let mut text = serde_json::json!({ "nodes": nodes }).to_string();
    for _ in 0..rng.usize(1..=3) {
        if text.is_empty() {
            break;
        }
        let mut at = rng.usize(..text.len());
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let piece = ["\"CNRYbroken\"", "{", "]", ",", "\"ignored\":\"CNRYflag\",", "\"name\":\"CNRYname\",", "x"][rng.usize(..7)];
        text.insert_str(at, piece);
    }
    match SnapshotInput::from_json(&text) {
        Ok(parsed) => match snapshot(&parsed, &[], &Options::default(), &mut RefTable::new()) {
            // Text planted where a string may be is page text: not a secret.
            Ok(_) => String::new(),
            Err(e) => e.to_string(),
        },
        Err(e) => e.to_string(),
    }
}

/// Runs `execs` iterations from `start`; calls `progress` every `every`.
pub fn run(seeds: &Seeds, seed: u64, start: u64, execs: u64, every: u64, mut progress: impl FnMut(u64)) -> Result<u64, Failure> {
    for i in start..start + execs {
        run_one(seeds, seed, i)?;
        if every > 0 && (i + 1 - start) % every == 0 {
            progress(i + 1 - start);
        }
    }
    Ok(execs)
}
