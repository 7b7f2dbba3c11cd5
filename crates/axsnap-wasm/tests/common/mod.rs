//! The facade's checks, run both in a page and in a service worker.

use axsnap_wasm::Snapshotter;
use wasm_bindgen::{JsCast, JsValue};

pub const PAGE: &str = include_str!("../page.json");

fn page(text: &str) -> JsValue {
    js_sys::JSON::parse(text).unwrap()
}

fn get(v: &JsValue, key: &str) -> JsValue {
    js_sys::Reflect::get(v, &key.into()).unwrap()
}

fn secrets() -> JsValue {
    js_sys::JSON::parse(r#"[{"frame":"main","backendNodeId":3,"reason":"credit-card"}]"#).unwrap()
}

pub fn snapshot_from_json_string() {
    let mut s = Snapshotter::new();
    let out = s.snapshot(page(PAGE), secrets(), JsValue::UNDEFINED, JsValue::UNDEFINED).unwrap();
    let text = get(&out, "text").as_string().unwrap();
    assert_eq!(
        text,
        "page \"Shop\" https://shop.test/cart\nA0 [Home](/)\ntextbox A1 \"Card number\" secret=credit-card filled\nbutton A2 \"Pay\"\n"
    );
    assert_eq!(get(&get(&out, "stats"), "refs").as_f64(), Some(3.0));
    // The typed facts travel with the text: what a guard decides from.
    let card = get(&js_sys::Array::from(&get(&out, "refs")).get(1), "secret");
    assert_eq!(card.as_string().as_deref(), Some("credit-card"));
    assert_eq!(get(&get(&out, "page"), "url").as_string().as_deref(), Some("https://shop.test/cart"));
}

pub fn snapshot_of_a_frames_bundle_matches_a_single_tree() {
    let bundle = format!(r#"{{"frames":[{{"key":"main","nodes":{}}}]}}"#, &PAGE[PAGE.find('[').unwrap()..PAGE.rfind(']').unwrap() + 1]);
    let a = Snapshotter::new().snapshot(page(&bundle), secrets(), JsValue::NULL, JsValue::UNDEFINED).unwrap();
    let b = Snapshotter::new().snapshot(page(PAGE), secrets(), JsValue::NULL, JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&a, "text").as_string(), get(&b, "text").as_string());
    assert!(!get(&a, "text").as_string().unwrap().contains("4111"));
}

pub fn resolve_and_stale_refs() {
    let mut s = Snapshotter::new();
    s.snapshot(page(PAGE), JsValue::UNDEFINED, JsValue::UNDEFINED, JsValue::UNDEFINED).unwrap();
    let t = s.resolve("A2").unwrap();
    assert_eq!(get(&t, "backendNodeId").as_f64(), Some(5.0));
    assert_eq!(get(&t, "frame").as_string().as_deref(), Some("main"));
    assert_eq!(get(&t, "role").as_string().as_deref(), Some("button"));
    // Without a loader id from the caller, the document is its root node.
    assert_eq!(get(&t, "document").as_string().as_deref(), Some("1"));
    // The page draws the same button again (a new node, same role and name):
    // the ref passes to it, as a person would see the same button.
    let redrawn = PAGE.replace(r#""backendDOMNodeId":5}"#, r#""backendDOMNodeId":6}"#);
    s.snapshot(page(&redrawn), JsValue::UNDEFINED, JsValue::UNDEFINED, JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&s.resolve("A2").unwrap(), "backendNodeId").as_f64(), Some(6.0));
    // Another button takes its place: the old ref is stale, never matched to it.
    let other = redrawn.replace(r#""Pay"},"childIds":[],"backendDOMNodeId":6"#, r#""Cancel"},"childIds":[],"backendDOMNodeId":7"#);
    s.snapshot(page(&other), JsValue::UNDEFINED, JsValue::UNDEFINED, JsValue::UNDEFINED).unwrap();
    let err = s.resolve("A2").unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("stale_ref"));
    assert!(get(&err, "message").as_string().unwrap().contains("A2 is stale"));
    assert_eq!(get(&s.resolve("A3").unwrap(), "backendNodeId").as_f64(), Some(7.0));
    s.reset();
    assert_eq!(get(&s.resolve("A0").unwrap_err(), "code").as_string().as_deref(), Some("stale_ref"));
    assert_eq!(get(&s.resolve("A99").unwrap_err(), "code").as_string().as_deref(), Some("unknown_ref"));
    assert_eq!(get(&s.resolve("x").unwrap_err(), "code").as_string().as_deref(), Some("bad_ref"));
}

pub fn bad_input_and_options_are_typed_errors() {
    let mut s = Snapshotter::new();
    let err = s.snapshot(JsValue::from_str("{"), JsValue::UNDEFINED, JsValue::UNDEFINED, JsValue::UNDEFINED).unwrap_err();
    assert!(err.is_instance_of::<js_sys::Error>());
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("bad_input"));
    let err = s.snapshot(JsValue::from(3), JsValue::UNDEFINED, JsValue::UNDEFINED, JsValue::UNDEFINED).unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("bad_input"));
    let opts = js_sys::JSON::parse(r#"{"mode":"sideways"}"#).unwrap();
    let err = s.snapshot(page(PAGE), JsValue::UNDEFINED, opts, JsValue::UNDEFINED).unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("bad_options"));
    // JSON.parse makes `__proto__` an own key: an unknown option like any other.
    let opts = js_sys::JSON::parse(r#"{"__proto__":{"maxChars":1}}"#).unwrap();
    let err = s.snapshot(page(PAGE), JsValue::UNDEFINED, opts, JsValue::UNDEFINED).unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("bad_options"));
    assert!(get(&err, "message").as_string().unwrap().starts_with("unknown option \"__proto__\": the options are mode, format"));
    let bad_secrets = js_sys::JSON::parse(r#"[{"frame":"main"}]"#).unwrap();
    let err = s.snapshot(page(PAGE), bad_secrets, JsValue::UNDEFINED, JsValue::UNDEFINED).unwrap_err();
    assert_eq!(get(&err, "code").as_string().as_deref(), Some("bad_input"));
    // The snapshotter still works after errors.
    assert!(s.snapshot(page(PAGE), JsValue::UNDEFINED, JsValue::UNDEFINED, JsValue::UNDEFINED).is_ok());
}

pub fn options_are_honoured() {
    let mut s = Snapshotter::new();
    let opts = js_sys::JSON::parse(r#"{"mode":"interactive","format":"json","maxChars":0}"#).unwrap();
    let out = s.snapshot(page(PAGE), JsValue::UNDEFINED, opts, JsValue::UNDEFINED).unwrap();
    let rows = js_sys::JSON::parse(&get(&out, "text").as_string().unwrap()).unwrap();
    assert_eq!(js_sys::Array::from(&rows).length(), 4);
}

pub fn diff_snapshots_against_the_previous_one() {
    let mut s = Snapshotter::new();
    let diff = || js_sys::JSON::parse(r#"{"diff":true}"#).unwrap();
    let first = s.snapshot(page(PAGE), JsValue::UNDEFINED, diff(), JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&get(&first, "diff"), "full").as_bool(), Some(true));
    assert!(get(&first, "text").as_string().unwrap().starts_with("page \"Shop\""));
    let again = s.snapshot(page(PAGE), JsValue::UNDEFINED, diff(), JsValue::UNDEFINED).unwrap();
    assert_eq!(get(&again, "text").as_string().as_deref(), Some("no change since the previous snapshot\n"));
    assert_eq!(get(&get(&again, "diff"), "full").as_bool(), Some(false));
    // A plain snapshot has no diff field.
    let plain = s.snapshot(page(PAGE), JsValue::UNDEFINED, JsValue::UNDEFINED, JsValue::UNDEFINED).unwrap();
    assert!(get(&plain, "diff").is_undefined());
}

/// A saved ref table comes back whole through `JSON.parse` (a restarted
/// service worker), and anything else is a typed error.
pub fn refs_survive_export_and_import() {
    let mut s = Snapshotter::new();
    s.snapshot(page(PAGE), JsValue::UNDEFINED, JsValue::UNDEFINED, JsValue::UNDEFINED).unwrap();
    let saved = s.export_refs();
    let mut back = Snapshotter::new();
    back.import_refs(&saved).unwrap();
    assert_eq!(get(&back.resolve("A2").unwrap(), "backendNodeId").as_f64(), Some(5.0));
    for bad in ["{", "[]", r#"{"v":1,"next":0,"generation":0,"frames":[],"refs":[]}"#] {
        let err = Snapshotter::new().import_refs(bad).unwrap_err();
        assert_eq!(get(&err, "code").as_string().as_deref(), Some("bad_input"), "{bad}");
    }
}

/// The packer's strings and codes build the tree serde's nodes build from
/// the same objects; inputs of another shape are left to serde.
pub fn packed_input_reads_as_serde_reads_it() {
    use axsnap_core::{tree::Tree, FrameInput, SnapshotInput};
    use axsnap_wasm::{read_packed, read_unpacked};
    // The frames' other fields, read by serde either way.
    let frames = |input: &SnapshotInput| -> Vec<FrameInput> {
        input.frames.iter().map(|f| FrameInput { nodes: Vec::new(), packed: None, ..f.clone() }).collect()
    };
    let same = |text: &str| {
        let input = page(text);
        let packed = read_packed(&input).unwrap_or_else(|| panic!("not packed: {text}"));
        let unpacked = read_unpacked(&input).unwrap();
        assert!(packed.frames.iter().all(|f| f.packed.is_some() && f.nodes.is_empty()), "{text}");
        assert_eq!(frames(&packed), frames(&unpacked), "{text}");
        assert_eq!(Tree::build(&packed), Tree::build(&unpacked), "{text}");
    };
    same(PAGE);
    same(
        r#"{"frames":[
        {"key":"main","document":"L1","boxes":[7,0,0,10,10],"viewport":{"x":0,"y":0,"width":800,"height":600},
         "clickables":[{"backendNodeId":7,"pointer":true}],
         "nodes":[
          {"nodeId":"1","ignored":false,"role":{"type":"internalRole","value":"RootWebArea"},"frameId":"F1","childIds":["2","3"],"backendDOMNodeId":1,
           "name":{"type":"computedString","value":"Home","sources":[{"type":"relatedElement","attribute":"aria-labelledby","superseded":true,"value":{"type":"x"}},{"type":"contents","value":{"type":"computedString","value":"Home"}}]}},
          {"nodeId":"2","ignored":true,"ignoredReasons":[{"name":"uninteresting","value":{"type":"boolean","value":true}}],"childIds":[]},
          {"nodeId":"3","role":{"type":"role","value":"slider"},"childIds":[],"backendDOMNodeId":7,
           "name":{"type":"computedString","value":"Volume","sources":[{"type":"attribute","attribute":"aria-label","value":{"type":"string","value":"Volume"}}]},
           "description":{"type":"computedString","value":"  loud "},
           "value":{"type":"number","value":0.5},
           "properties":[{"name":"focusable","value":{"type":"booleanOrUndefined","value":true}},{"name":"valuemax","value":{"type":"number","value":100}},
             {"name":"labelledby","value":{"type":"nodeList","relatedNodes":[{"backendDOMNodeId":9,"text":"Volume"},{"idref":"gone"}]}},
             {"name":"hidden"},{"name":"list","value":{"type":"x","value":[1,2]}}]}]},
        {"key":"F2","parent":"main","owner":7,"partial":true,"nodes":[{"nodeId":"1","name":{"type":"computedString","value":""}}]},
        {"key":"F3","parent":"main"}]}"#,
    );
    // Text beyond ASCII, a lone surrogate, a NUL; ids that are not numbers,
    // repeated, missing or naming no node; a number with a name source.
    same(
        r#"{"nodes":[
          {"nodeId":"a","role":{"type":"role","value":"main"},"childIds":["b","zz","b","c"],
           "name":{"type":"computedString","value":"Māori \ud83d\ude00 \ud800 a\u0000b"}},
          {"nodeId":"b","role":{"type":"role","value":"StaticText"},"name":{"type":"computedString","value":"\u00e9t\u00e9"}},
          {"nodeId":"b","role":{"type":"role","value":"StaticText"},"name":{"type":"computedString","value":"twin"}},
          {"role":{"type":"role","value":"slider"},"value":{"type":"number","value":3,"sources":[{"type":"contents","value":1}]}},
          {"nodeId":"c","role":{"type":"role","value":"heading"},"properties":[{"name":"level","value":{"type":"integer","value":2}}],"childIds":["-0","007"]},
          {"nodeId":"-0"},{"nodeId":"007"}]}"#,
    );
    same(r#"{"nodes":[{"nodeId":"-7","childIds":["8","-9","8"]},{"nodeId":"8"},{"nodeId":"-9","childIds":["-7"]},{"nodeId":"8"}]}"#);
    // A number for an id, a backend id beyond 32 bits: serde reads them.
    for text in [
        r#"{"nodes":[{"nodeId":1,"childIds":[2]},{"nodeId":2}]}"#,
        r#"{"nodes":[{"nodeId":"1","backendDOMNodeId":1099511627776}]}"#,
        r#"{"result":{"nodes":[{"nodeId":"1"}]}}"#,
    ] {
        let input = page(text);
        assert!(read_packed(&input).is_none(), "{text}");
        assert!(read_unpacked(&input).is_ok(), "{text}");
    }
    // Malformed input keeps serde's typed error.
    for text in [r#"{"nodes":[{"nodeId":"1","ignored":"yes"}]}"#, r#"{"nodes":{}}"#, r#"{"frames":[{"key":5,"nodes":[]}]}"#] {
        let input = page(text);
        assert!(read_packed(&input).is_none(), "{text}");
        let err = Snapshotter::new().snapshot(input, JsValue::UNDEFINED, JsValue::UNDEFINED, JsValue::UNDEFINED).unwrap_err();
        assert_eq!(get(&err, "code").as_string().as_deref(), Some("bad_input"), "{text}");
    }
}
