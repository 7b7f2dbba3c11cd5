//! axsnap-core: turns CDP `Accessibility.getFullAXTree` responses (one per
//! frame) into a compact text snapshot an AI agent can read and act on, with
//! short refs (`A0`, `A1`, …) that map back to DOM nodes.
//!
//! Stages, each a module with one job:
//! [`options`] → [`cdp`] parse → [`tree`] arena → [`secrets`] redact →
//! [`rules`] distill (in [`distill`]) → [`refs`] identity → [`render`] into
//! the [`lines`] model → budgets → one printer for text or JSON; [`diff`]
//! compares two snapshots' lines. No I/O, no browser calls.

pub mod cdp;
pub mod diff;
pub mod distill;
pub mod error;
pub mod extent;
pub mod lines;
pub mod options;
pub mod packed;
pub mod previous;
pub mod refs;
pub mod render;
pub mod role;
pub mod rules;
pub mod secrets;
pub mod tree;
pub mod urls;
pub mod viewport;
pub mod words;

mod budget;

pub use cdp::{AxNode, FrameInput, SnapshotInput};
pub use error::{Error, ErrorCode};
pub use lines::{Kind, Line, Lines, Segment};
pub use options::{Defaults, Format, Mode, Options};
pub use previous::{DiffOutcome, Previous};
pub use refs::{RefTable, Target};
pub use rules::is_actionable;
pub use secrets::{FieldFacts, SecretField, SecretReason, Typed};

/// Serialized in camelCase: the shape the extension's callers receive.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Stats {
    pub nodes_in: usize,
    pub nodes_out: usize,
    pub refs: usize,
    pub chars: usize,
    /// A rough o200k token estimate (characters / 3.6), for budgeting.
    pub tokens_est: usize,
    pub lines: usize,
    /// Lines left out by `max_chars` or `max_depth`.
    pub truncated_lines: usize,
}

/// What a caller decides from about one ref shown in an answer, typed, so
/// that no guard reads the printed text: its role and name as the ref table
/// holds them (secrets already cut out), a link's full URL, and the kind of
/// secret a field holds. `frame` and `backend_node_id` let the extension add
/// what only the DOM knows (the form an element submits).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RefFact {
    #[serde(rename = "ref")]
    pub reference: String,
    pub frame: String,
    pub backend_node_id: i64,
    pub role: String,
    pub name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<SecretReason>,
    /// The element has the focus: keys pressed without a ref go to it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub focused: bool,
    /// The DOM node of the form around it in the accessibility tree, whose
    /// facts (where it posts) the extension reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub form_node_id: Option<i64>,
}

/// The page an answer shows: its root's title and URL.
#[derive(Debug, Clone, PartialEq, Default, serde::Serialize)]
pub struct PageFact {
    pub title: String,
    pub url: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The text format, or the JSON format serialized.
    pub text: String,
    pub stats: Stats,
    /// Per rule of [`rules::RULES`], in order: how many nodes it decided
    /// (the CLI's `--explain`).
    pub decisions: Vec<usize>,
    /// The fields found secret (the extension remembers them for the document).
    pub secrets: Vec<SecretField>,
    /// With `options.diff`: whether `text` is a diff or the full snapshot.
    pub diff: Option<DiffOutcome>,
    /// The facts of every ref the answer shows, in the order first shown.
    pub refs: Vec<RefFact>,
    pub page: PageFact,
}

/// The facts of the refs in `shown`, each once, skipping refs no longer live
/// (a diff's removed lines). `handed` names each ref's node.
fn ref_facts(shown: impl Iterator<Item = u32>, handed: &[(u32, tree::NodeId)], refs: &RefTable, secrets: &[SecretField], tree: &tree::Tree) -> Vec<RefFact> {
    let nodes: std::collections::HashMap<u32, tree::NodeId> = handed.iter().copied().collect();
    let mut seen = std::collections::HashSet::new();
    shown
        .filter(|n| seen.insert(*n))
        .filter_map(|n| {
            let t = refs.target(n)?;
            let node = nodes.get(&n).copied();
            let secret = secrets.iter().find(|s| s.backend_node_id == t.backend_node_id && s.frame == t.frame).map(|s| s.reason);
            // A form of the frame's own: an iframe inside a form does not submit it.
            let form = node.and_then(|id| {
                let frame = tree.node(id).frame;
                tree.ancestors(id).take_while(|&a| tree.node(a).frame == frame).find(|&a| tree.node(a).role == role::Role::Form)
            });
            Some(RefFact {
                reference: lines::format_ref(n),
                frame: t.frame.clone(),
                backend_node_id: t.backend_node_id,
                role: t.role.clone(),
                name: t.name.clone(),
                url: t.url.clone(),
                secret,
                focused: node.is_some_and(|id| tree.node(id).props.focused),
                form_node_id: form.and_then(|f| tree.node(f).backend_id),
            })
        })
        .collect()
}

/// The part of the page a `root` ref asks for: the element's own subtree if
/// it holds more than text, else its nearest enclosing list, table, form,
/// menu, dialog or landmark (a link's ref then shows its menu or section).
fn subtree_root(tree: &tree::Tree, id: tree::NodeId) -> tree::NodeId {
    use role::Role;
    let leaf_control = matches!(
        tree.node(id).role,
        Role::Link | Role::Button | Role::TextBox | Role::SearchBox | Role::CheckBox | Role::Radio
            | Role::Switch | Role::Slider | Role::SpinButton | Role::Option | Role::MenuItem
            | Role::MenuItemCheckBox | Role::MenuItemRadio | Role::Tab | Role::Image | Role::Img
    );
    let holds_elements = tree.node(id).children.iter().any(|&c| {
        let n = tree.node(c);
        !n.ignored && !matches!(n.role, Role::StaticText | Role::InlineTextBox)
    });
    if holds_elements && !leaf_control {
        return id;
    }
    let container = |p: tree::NodeId| {
        let r = &tree.node(p).role;
        r.is_landmark()
            || r.is_root()
            || matches!(r, Role::List | Role::Table | Role::Grid | Role::TreeGrid | Role::Menu | Role::MenuBar
                | Role::TabList | Role::Tree | Role::Toolbar | Role::ListBox | Role::Iframe)
            || (r == &Role::Group && !tree.node(p).name.is_empty())
    };
    tree.ancestors(id).find(|&p| container(p)).unwrap_or(id)
}

/// Takes one snapshot. `facts` describe the page's text fields (see
/// [`secrets`]); `refs` is the tab's ref table, kept by the caller across
/// snapshots so refs stay stable.
pub fn snapshot(
    input: &SnapshotInput,
    facts: &[FieldFacts],
    options: &Options,
    refs: &mut RefTable,
) -> Result<Snapshot, Error> {
    take(input, facts, options, refs, None, &Typed::default())
}

/// Takes one snapshot of a tab whose previous text snapshot is kept in
/// `previous`: with `options.diff`, the answer is what changed since then
/// (or the full snapshot, saying why, when there is nothing to compare with
/// or the diff would not be much smaller).
pub fn snapshot_since(
    input: &SnapshotInput,
    facts: &[FieldFacts],
    options: &Options,
    refs: &mut RefTable,
    previous: &mut Previous,
) -> Result<Snapshot, Error> {
    take(input, facts, options, refs, Some(previous), &Typed::default())
}

/// [`snapshot_since`], cutting out every value typed before into a secret
/// field, by the fingerprints `typed` (see [`secrets::typed`]).
pub fn snapshot_typed(
    input: &SnapshotInput,
    facts: &[FieldFacts],
    typed: &Typed,
    options: &Options,
    refs: &mut RefTable,
    previous: &mut Previous,
) -> Result<Snapshot, Error> {
    take(input, facts, options, refs, Some(previous), typed)
}

fn take(
    input: &SnapshotInput,
    facts: &[FieldFacts],
    options: &Options,
    refs: &mut RefTable,
    previous: Option<&mut Previous>,
    typed: &Typed,
) -> Result<Snapshot, Error> {
    let options = &options.clone().normalised();
    if options.diff && (options.format != Format::Text || options.root.is_some()) {
        return Err(Error::new(ErrorCode::BadOptions, "diff snapshots are of the whole page in text: drop format json and root"));
    }
    let mut tree = tree::Tree::build(input);
    let (secret_fields, typed) = secrets::redact(&mut tree, facts, typed);
    if !typed.is_empty() {
        refs.cut_typed(typed.version(), &|t| secrets::scrub_typed(t, &typed));
    }
    let Some(main_root) = tree.root else {
        return Err(Error::bad_input("the accessibility tree is empty: no root node"));
    };
    let start = match &options.root {
        Some(r) => {
            let target = refs.resolve(r)?;
            let id = tree.find(&target.frame, target.backend_node_id).ok_or_else(|| {
                Error::new(ErrorCode::StaleRef, format!("{r} is stale: its element is gone; take a new snapshot"))
            })?;
            subtree_root(&tree, id)
        }
        None => main_root,
    };
    let subtree = options.root.is_some();
    let root_node = tree.node(main_root);
    let page = PageFact { title: root_node.name.clone(), url: root_node.props.url.clone().unwrap_or_default() };
    let documents = frame_documents(input, &tree);
    let modal = !subtree && tree.modal_shown();
    refs.begin(&documents, subtree, modal);
    let mut distiller = distill::Distiller::new(&tree, options.mode, refs);
    let outs = distiller.run(start, subtree);
    let (kept, decisions, handed) = (distiller.kept, std::mem::take(&mut distiller.decisions), std::mem::take(&mut distiller.handed));
    refs.end(subtree);
    let mut doc = render(&tree, &outs, options);
    // A whole-page text snapshot is what the tab's next diff compares with.
    let mut compared = None;
    if let Some(previous) = previous.filter(|_| options.format == Format::Text && !subtree) {
        let basis = previous::Basis {
            document: documents.first().map(|d| d.document.clone()).unwrap_or_default(),
            mode: options.mode,
            max_text: options.max_text,
            max_url: options.max_url,
        };
        let lines = diff::printed(&doc);
        let dialog = previous::modal_line(&lines, modal);
        let shows_modal = dialog.is_some();
        let mut before = previous.replace(basis.clone(), lines, dialog);
        if !typed.is_empty() {
            // Its lines were printed before a value typed since was known.
            before.cut(&|t| secrets::scrub_typed_lines(t, &typed));
        }
        if options.diff {
            compared = Some(previous::compare(&before, &basis, previous.lines(), shows_modal, options.max_chars));
        }
    }
    if let Some((Some(shown), outcome)) = compared.clone() {
        let chars = shown.text.chars().count();
        let stats = Stats {
            nodes_in: tree.nodes.len(),
            nodes_out: kept,
            refs: shown.refs.len(),
            chars,
            tokens_est: (chars * 10).div_ceil(36),
            lines: shown.lines,
            truncated_lines: 0,
        };
        let facts = ref_facts(shown.refs.iter().copied(), &handed, refs, &secret_fields, &tree);
        return Ok(Snapshot { stats, text: shown.text, decisions, secrets: secret_fields, diff: Some(outcome), refs: facts, page });
    }
    let deep = budget::limit_depth(&mut doc, options.max_depth);
    // A line the cap could only drop whole is broken first (the output under the cap is left as it is).
    if options.max_chars.is_some_and(|max| doc.lines.iter().map(|l| render::print::fixed_size(options.format, &doc, l)).sum::<usize>() > max) {
        budget::break_long_lines(&mut doc);
    }
    // Where each line lies from the viewport, when the extension gave boxes.
    let mut dist = if options.viewport || options.max_chars.is_some() { viewport::distances(&doc, input, refs) } else { None };
    let runs = if options.max_chars.is_some() { budget::collapse_runs(&mut doc, &mut dist) } else { 0 };
    if let (true, Some(d)) = (options.viewport, &dist) {
        dist = Some(viewport::mark(&mut doc, d));
    }
    let cut = match (options.max_chars, &dist) {
        (Some(max), Some(d)) => budget::fit_near_view(&mut doc, options.format, max, d),
        _ => budget::fit(&mut doc, options.format, options.max_chars),
    };
    let text = match options.format {
        Format::Text => render::print::text(&doc),
        Format::Json => render::print::json(&doc),
    };
    let chars = text.chars().count();
    let stats = Stats {
        nodes_in: tree.nodes.len(),
        nodes_out: kept,
        refs: doc.refs().count(),
        chars,
        tokens_est: (chars * 10).div_ceil(36),
        lines: doc.lines.len(),
        truncated_lines: deep + runs + cut,
    };
    let facts = ref_facts(doc.refs(), &handed, refs, &secret_fields, &tree);
    Ok(Snapshot { text, stats, decisions, secrets: secret_fields, diff: compared.map(|(_, outcome)| outcome), refs: facts, page })
}

/// Each frame's document: the caller's id for it (Chrome's loader id), or
/// else its root node, since a new document has a new root node (a URL
/// change alone, through the history API, keeps the document and its refs).
fn frame_documents<'a>(input: &SnapshotInput, tree: &'a tree::Tree) -> Vec<refs::FrameDocument<'a>> {
    tree.frames
        .iter()
        .zip(&input.frames)
        .filter_map(|(f, given)| {
            let root = f.root?;
            let document = given.document.as_deref().map_or_else(|| tree.node(root).backend_id.unwrap_or_default().to_string(), str::to_string);
            Some(refs::FrameDocument { key: &f.key, document, partial: given.partial })
        })
        .collect()
}

/// The distilled tree as lines of the requested format.
fn render(tree: &tree::Tree, outs: &[distill::Out], options: &Options) -> Lines {
    match options.format {
        Format::Text => {
            let mut renderer = render::text::TextRenderer::new(tree, options.max_text).with_max_url(options.max_url);
            if options.mode == Mode::Interactive {
                renderer = renderer.without_link_urls();
            }
            renderer.render(outs)
        }
        Format::Json => render::json::render(tree, outs, options.max_text),
    }
}
