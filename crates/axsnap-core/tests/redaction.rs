//! Secrets never reach any output: not the value, not its length, not any
//! text under the field.

use axsnap_core::{snapshot, Format, Mode, Options, RefTable, SecretReason, Sensitive, SnapshotInput};
use serde_json::{json, Value};

const CANARY: &str = "CANARY-s3cr3t-4111111111111111";

fn node(id: u32, role: &str, name: &str, kids: &[u32]) -> Value {
    json!({"nodeId": id.to_string(), "role": {"type":"role","value": role},
           "name": {"type":"computedString","value": name},
           "childIds": kids.iter().map(|k| k.to_string()).collect::<Vec<_>>(),
           "backendDOMNodeId": id, "properties": [{"name":"focusable","value":{"type":"booleanOrUndefined","value":true}}]})
}

fn field(id: u32, name: &str, value: &str, text_id: u32) -> Vec<Value> {
    let mut f = node(id, "textbox", name, &[text_id]);
    f["value"] = json!({"type":"string","value": value});
    let t = json!({"nodeId": text_id.to_string(), "role": {"type":"role","value":"StaticText"},
                   "name": {"type":"computedString","value": value}, "childIds": [(text_id + 1).to_string()], "backendDOMNodeId": text_id});
    let b = json!({"nodeId": (text_id + 1).to_string(), "role": {"type":"role","value":"InlineTextBox"},
                   "name": {"type":"computedString","value": value}, "childIds": [], "backendDOMNodeId": text_id + 1});
    vec![f, t, b]
}

fn page() -> SnapshotInput {
    let mut nodes = vec![node(1, "RootWebArea", "Checkout", &[2, 10, 20, 30, 40])];
    let mut heading = node(2, "heading", "Pay", &[]);
    heading["properties"] = json!([{"name":"level","value":{"type":"integer","value":1}}]);
    nodes.push(heading);
    nodes.extend(field(10, "Password", CANARY, 11));
    nodes.extend(field(20, "Card number", CANARY, 21));
    nodes.extend(field(30, "One-time code", CANARY, 31));
    // Masked by Chrome, unknown to the DOM scan: bullets give it away.
    nodes.extend(field(40, "PIN", "••••••••", 41));
    SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap()
}

fn sensitive() -> Vec<Sensitive> {
    [(10, SecretReason::Password), (20, SecretReason::CreditCard), (30, SecretReason::OneTimeCode)]
        .into_iter()
        .map(|(id, reason)| Sensitive { frame: "main".into(), backend_node_id: id, reason })
        .collect()
}

fn all_outputs() -> Vec<String> {
    let mut out = Vec::new();
    for mode in [Mode::Full, Mode::Interactive] {
        for format in [Format::Text, Format::Json] {
            for max_chars in [None, Some(200)] {
                let o = Options { mode, format, max_chars, ..Options::default() };
                let s = snapshot(&page(), &sensitive(), &o, &mut RefTable::new()).unwrap();
                out.push(format!("{}\n{:?}", s.text, s.stats));
            }
        }
    }
    out
}

#[test]
fn canary_values_appear_in_no_output() {
    for out in all_outputs() {
        assert!(!out.contains("CANARY"), "{out}");
        assert!(!out.contains("4111"), "{out}");
        assert!(!out.contains('•'), "{out}");
    }
}

#[test]
fn secret_length_appears_in_no_output() {
    let len = CANARY.chars().count().to_string();
    for out in all_outputs() {
        let text = out.split('\n').take_while(|l| !l.starts_with("Stats")).collect::<Vec<_>>().join("\n");
        assert!(!text.contains(&len), "{text}");
        assert!(!text.contains("8"), "bullet count leaked: {text}");
    }
}

#[test]
fn secret_fields_show_that_they_exist_and_are_filled() {
    let s = snapshot(&page(), &sensitive(), &Options::default(), &mut RefTable::new()).unwrap();
    assert_eq!(
        s.text,
        "page \"Checkout\"\n# Pay\ntextbox \"Password\" A0 secret=password filled\n\
         textbox \"Card number\" A1 secret=credit-card filled\n\
         textbox \"One-time code\" A2 secret=one-time-code filled\n\
         textbox \"PIN\" A3 secret=password filled\n"
    );
}

#[test]
fn empty_secret_field_says_empty() {
    let nodes = vec![node(1, "RootWebArea", "Login", &[10]), node(10, "textbox", "Password", &[])];
    let input = SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap();
    let list = vec![Sensitive { frame: "main".into(), backend_node_id: 10, reason: SecretReason::NewPassword }];
    let s = snapshot(&input, &list, &Options::default(), &mut RefTable::new()).unwrap();
    assert_eq!(s.text, "page \"Login\"\ntextbox \"Password\" A0 secret=new-password\n");
}

#[test]
fn secret_in_a_child_frame_is_matched_by_its_frame_key() {
    let main = vec![node(1, "RootWebArea", "Shop", &[2]), node(2, "Iframe", "Payment", &[])];
    let mut child = vec![node(1, "RootWebArea", "Pay", &[10])];
    child.extend(field(10, "Card", CANARY, 11));
    let input = SnapshotInput::from_value(json!({"frames": [
        {"key": "top", "nodes": main},
        {"key": "pay-session", "parent": "top", "owner": 2, "nodes": child},
    ]}))
    .unwrap();
    // The same backend id in the main frame must not be confused with it.
    let list = vec![Sensitive { frame: "pay-session".into(), backend_node_id: 10, reason: SecretReason::CreditCard }];
    let s = snapshot(&input, &list, &Options::default(), &mut RefTable::new()).unwrap();
    assert!(!s.text.contains("CANARY"), "{}", s.text);
    assert!(s.text.contains("textbox \"Card\" A0 secret=credit-card filled"), "{}", s.text);
}
