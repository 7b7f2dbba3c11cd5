//! The core as WebAssembly: a per-tab `Snapshotter` that holds the tab's ref
//! table across snapshots. Values in, core call, values out; every failure
//! is a JS `Error` with a stable `code`.

use axsnap_core::cdp::{RawInput, NOT_INPUT};
use axsnap_core::{Defaults, DiffOutcome, Error, FieldFacts, Options, PageFact, Previous, RefFact, RefTable, SecretField, Snapshot, SnapshotInput, Stats, Typed};
use serde::Serialize;
use wasm_bindgen::prelude::*;

#[derive(Serialize)]
struct JsSnapshot {
    text: String,
    stats: Stats,
    secrets: Vec<SecretField>,
    /// With `options.diff`: `{full, reason?, added, removed, changed}`.
    #[serde(skip_serializing_if = "Option::is_none")]
    diff: Option<DiffOutcome>,
    /// The facts of every ref the text shows (`[{ref, frame, backendNodeId, role, name, url?, secret?}]`).
    refs: Vec<RefFact>,
    page: PageFact,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsTarget<'a> {
    frame: &'a str,
    document: &'a str,
    backend_node_id: i64,
    role: &'a str,
    name: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<&'a str>,
}

#[wasm_bindgen(module = "/src/pack.js")]
extern "C" {
    /// `[texts, textEnds, words, wordEnds, codes, numbers, {frames}]` in the core's packed format, or null.
    #[wasm_bindgen(catch)]
    fn pack(input: &JsValue) -> Result<JsValue, JsValue>;
}

/// The CDP input, packed in JS when it has Chrome's shape, else read by serde.
pub fn read_input(input: &JsValue) -> Result<SnapshotInput, JsValue> {
    match read_packed(input) {
        Some(i) => Ok(i),
        None => read_unpacked(input),
    }
}

/// The input through the packer, or `None` where it leaves it to serde.
pub fn read_packed(input: &JsValue) -> Option<SnapshotInput> {
    let packed = pack(input).ok().filter(|p| !p.is_null())?;
    let packed: js_sys::Array = packed.dyn_into().ok()?;
    let bytes = |i: u32| Some(packed.get(i).dyn_into::<js_sys::Uint8Array>().ok()?.to_vec());
    let ends = |i: u32| Some(packed.get(i).dyn_into::<js_sys::Uint32Array>().ok()?.to_vec());
    let texts = (bytes(0)?, ends(1)?);
    let words = (bytes(2)?, ends(3)?);
    let codes = packed.get(4).dyn_into::<js_sys::Int32Array>().ok()?.to_vec();
    let numbers = packed.get(5).dyn_into::<js_sys::Float64Array>().ok()?.to_vec();
    // `{frames}` without their nodes, read as any input is (one copy of serde's code for it in the .wasm).
    let frames = packed.get(6);
    let frames = if frames.is_null() { None } else { Some(serde_wasm_bindgen::from_value::<RawInput>(frames).ok().map(SnapshotInput::from_raw)?.ok()?.frames) };
    axsnap_core::packed::input(texts, words, codes, numbers, frames)
}

/// The input read property by property, as serde decides.
pub fn read_unpacked(input: &JsValue) -> Result<SnapshotInput, JsValue> {
    let raw: RawInput = serde_wasm_bindgen::from_value(input.clone())
        .map_err(|e| core_error(Error::unparsable(NOT_INPUT, &e.to_string())))?;
    SnapshotInput::from_raw(raw).map_err(core_error)
}

fn js_error(code: &str, message: &str) -> JsValue {
    let err = js_sys::Error::new(message);
    let _ = js_sys::Reflect::set(&err, &"code".into(), &code.into());
    err.into()
}

fn core_error(e: Error) -> JsValue {
    js_error(e.code.as_str(), &e.message)
}

/// The caller's options object, parsed and defaulted by the core as the
/// extension's (12,000 characters unless `full` or `maxChars` says otherwise).
fn options(value: JsValue) -> Result<Options, JsValue> {
    let value: serde_json::Value = if value.is_undefined() {
        serde_json::Value::Null
    } else {
        serde_wasm_bindgen::from_value(value).map_err(|e| js_error("bad_options", &format!("options: {e}")))?
    };
    Options::from_value(&value, Defaults::Agent).map_err(core_error)
}

/// The error names the fact at fault, never a value it holds.
fn field_facts(value: JsValue) -> Result<Vec<FieldFacts>, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Vec::new());
    }
    serde_wasm_bindgen::from_value(value).map_err(|_| {
        js_error("bad_input", "field facts: expected [{frame, backendNodeId, tag?, attributes?, textSecurity?, reason?, filled?, value?, typed?}]")
    })
}

/// `{salt, prints}` read by hand: serde's code for it would cost the .wasm kilobytes.
fn typed_prints(value: JsValue) -> Result<Typed, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(Typed::default());
    }
    let get = |k: &str| js_sys::Reflect::get(&value, &k.into()).ok();
    let salt = get("salt").and_then(|s| s.as_string());
    let prints = get("prints").and_then(|p| p.dyn_into::<js_sys::Array>().ok());
    let (Some(salt), Some(prints)) = (salt, prints) else {
        return Err(js_error("bad_input", "typed: expected {salt, prints}"));
    };
    let mut typed = Typed::new(&salt);
    typed.add(&prints.iter().filter_map(|p| p.as_string()).collect::<Vec<_>>());
    Ok(typed)
}

fn to_js(s: Snapshot) -> Result<JsValue, JsValue> {
    let out = JsSnapshot { text: s.text, stats: s.stats, secrets: s.secrets, diff: s.diff, refs: s.refs, page: s.page };
    out.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| js_error("internal", &e.to_string()))
}

/// One tab's serializer: refs stay stable across its snapshots, and its
/// previous snapshot is kept for `diff: true`.
#[wasm_bindgen]
#[derive(Default)]
pub struct Snapshotter {
    refs: RefTable,
    previous: Previous,
}

#[wasm_bindgen]
impl Snapshotter {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Snapshotter {
        Snapshotter::default()
    }

    /// Snapshot from the CDP response as the JS object chrome.debugger gives
    /// (`{nodes}`, or `{frames:[{key, parent, owner, nodes}]}`) and the facts
    /// of the page's text fields; `secrets` in the answer lists the fields
    /// found secret. Passing the object beat passing a JSON string once
    /// JSON.stringify is counted; its nodes are packed in JS and cross into
    /// Wasm at once (see `read_input`).
    /// `typed`: the fingerprints of values typed into secret fields before,
    /// `{salt, prints}` (see `typed`).
    pub fn snapshot(&mut self, input: JsValue, facts: JsValue, opts: JsValue, typed: JsValue) -> Result<JsValue, JsValue> {
        let input = read_input(&input)?;
        self.run(&input, facts, opts, typed)
    }

    fn run(&mut self, input: &SnapshotInput, facts: JsValue, opts: JsValue, typed: JsValue) -> Result<JsValue, JsValue> {
        let options = options(opts)?;
        let facts = field_facts(facts)?;
        let typed = typed_prints(typed)?;
        let snap = axsnap_core::snapshot_typed(input, &facts, &typed, &options, &mut self.refs, &mut self.previous).map_err(core_error)?;
        to_js(snap)
    }

    /// `A7` → `{frame, document, backendNodeId, role, name, url?}`, or a
    /// `stale_ref`, `unknown_ref` or `bad_ref` error. `document` is the
    /// frame's document the ref was issued in: acting on another is wrong.
    pub fn resolve(&self, reference: &str) -> Result<JsValue, JsValue> {
        let t = self.refs.resolve(reference).map_err(core_error)?;
        let out = JsTarget { frame: &t.frame, document: &t.document, backend_node_id: t.backend_node_id, role: &t.role, name: &t.name, url: t.url.as_deref() };
        out.serialize(&serde_wasm_bindgen::Serializer::json_compatible())
            .map_err(|e| js_error("internal", &e.to_string()))
    }

    /// Forget every ref (the tab navigated to a new document). The previous
    /// snapshot stays: the next diff says the document is new.
    pub fn reset(&mut self) {
        self.refs.reset();
    }

    /// Forget one frame's refs (that frame navigated or went away).
    #[wasm_bindgen(js_name = forgetFrame)]
    pub fn forget_frame(&mut self, key: &str) {
        self.refs.forget_frame(key);
    }

    /// The ref table as JSON, to survive a service-worker restart.
    #[wasm_bindgen(js_name = exportRefs)]
    pub fn export_refs(&self) -> String {
        self.refs.to_json()
    }

    /// Restores a table saved by `exportRefs`.
    #[wasm_bindgen(js_name = importRefs)]
    pub fn import_refs(&mut self, saved: &str) -> Result<(), JsValue> {
        // `JSON.parse` reads the text: the Wasm core carries no JSON parser.
        let value = js_sys::JSON::parse(saved).map_err(|_| js_error("bad_input", "not a saved ref table: not JSON"))?;
        self.refs = RefTable::from_saved(serde_wasm_bindgen::Deserializer::from(value)).map_err(core_error)?;
        Ok(())
    }

    /// Refs shown by the latest snapshot.
    #[wasm_bindgen(js_name = liveRefs)]
    pub fn live_refs(&self) -> usize {
        self.refs.live()
    }
}

/// `texts` with every value typed into a secret field (`typed`, as for a
/// snapshot) cut out; `null` where nothing was cut: for what the extension
/// says that is no snapshot (errors, dialogs, titles, URLs).
#[wasm_bindgen(js_name = scrubTyped)]
pub fn scrub_typed(texts: js_sys::Array, typed: JsValue) -> Result<js_sys::Array, JsValue> {
    let typed = typed_prints(typed)?;
    let cut = |t: JsValue| t.as_string().and_then(|t| axsnap_core::secrets::scrub_typed(&t, &typed)).map_or(JsValue::NULL, JsValue::from);
    Ok(texts.iter().map(cut).collect())
}

/// The core's version, for the extension's about line.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
