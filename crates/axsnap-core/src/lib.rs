//! axsnap-core: turns CDP `Accessibility.getFullAXTree` responses (one per
//! frame) into a compact text snapshot an AI agent can read and act on, with
//! short refs (`A0`, `A1`, …) that map back to DOM nodes.
//!
//! Stages, each a module with one job:
//! [`cdp`] parse → [`tree`] arena → [`rules`] distill (in [`distill`]) →
//! [`refs`] identity → [`render`] text or JSON. No I/O, no browser calls.

pub mod cdp;
pub mod distill;
pub mod error;
pub mod redact;
pub mod refs;
pub mod render;
pub mod role;
pub mod rules;
pub mod tree;
pub mod urls;

mod budget;

pub use cdp::{AxNode, FrameInput, SecretReason, Sensitive, SnapshotInput};
pub use error::{Error, ErrorCode};
pub use refs::{RefTable, Target};
pub use rules::is_actionable;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Everything a reader sees, with refs on what can be acted on.
    #[default]
    Full,
    /// Actionable nodes with just the landmarks and headings that place them.
    Interactive,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Text,
    Json,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Options {
    pub mode: Mode,
    pub format: Format,
    /// Cut the output (on a line boundary) to at most this many characters.
    pub max_chars: Option<usize>,
    /// Hide nodes nested deeper than this (a line says how much was hidden).
    pub max_depth: Option<usize>,
    /// Clip each text and name to this many characters.
    pub max_text: Option<usize>,
    /// Clip link URLs longer than this in the text (`resolve` gives the
    /// full URL of any link by its ref).
    pub max_url: Option<usize>,
    /// Snapshot only the subtree under this ref (from an earlier snapshot).
    pub root: Option<String>,
}

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

#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The text format, or the JSON format serialized.
    pub text: String,
    pub stats: Stats,
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

/// Takes one snapshot. `refs` is the tab's ref table, kept by the caller
/// across snapshots so refs stay stable.
pub fn snapshot(
    input: &SnapshotInput,
    sensitive: &[Sensitive],
    options: &Options,
    refs: &mut RefTable,
) -> Result<Snapshot, Error> {
    let tree = tree::Tree::build(input);
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
    // A subtree snapshot sees part of the page: refs outside it stay live.
    if options.root.is_none() {
        refs.begin();
    }
    for f in &tree.frames {
        if let Some(root) = f.root {
            let n = tree.node(root);
            // A new document has a new root node; a URL change alone (history
            // API) keeps the document and its refs.
            let doc = n.backend_id.unwrap_or_default().to_string();
            refs.observe_document(&f.key, &doc);
        }
    }
    let secrets = redact::Secrets::new(sensitive);
    let mut distiller = distill::Distiller::new(&tree, options.mode, &secrets, refs);
    let outs = distiller.run(start);
    let kept = distiller.kept;
    let mut stats = Stats { nodes_in: tree.nodes.len(), nodes_out: kept, ..Stats::default() };
    let text = match options.format {
        Format::Text => {
            let mut renderer = render::text::TextRenderer::new(&tree, options.max_text).with_max_url(options.max_url);
            if options.mode == Mode::Interactive {
                renderer = renderer.without_link_urls();
            }
            let (lines, urls) = renderer.render(&outs);
            let (lines, deep) = budget::limit_depth(lines, options.max_depth);
            let (lines, runs) = match options.max_chars {
                Some(m) if m > 0 => budget::collapse_runs(lines),
                _ => (lines, 0),
            };
            let (lines, cut) = budget::finish(lines, &urls, options.max_chars);
            stats.refs = lines.iter().map(|l| l.refs).sum();
            stats.lines = lines.len();
            stats.truncated_lines = deep + runs + cut;
            render::text::join(&lines)
        }
        Format::Json => {
            let rows = render::json::render(&tree, &outs, options.max_text);
            stats.lines = rows.len();
            stats.refs = rows.iter().filter(|r| r[4].is_string()).count();
            serde_json::to_string(&rows).unwrap_or_else(|_| "[]".into())
        }
    };
    stats.chars = text.chars().count();
    stats.tokens_est = (stats.chars * 10).div_ceil(36);
    Ok(Snapshot { text, stats })
}
