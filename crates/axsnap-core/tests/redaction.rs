//! Secrets never reach any output: not the value, not its length, not any
//! text under the field, not a name or description Chrome built from it.
//! The trees are shaped like Chrome's (checked against real Chromium in the
//! end-to-end tests): a `<label>` names its first field from all its
//! content, other fields' values included, and reports itself in that
//! field's `labelledby` relation.

use axsnap_core::{snapshot, snapshot_typed, FieldFacts, Format, Mode, Options, Previous, RefTable, SecretField, SecretReason, SnapshotInput, Typed};
use serde_json::{json, Value};

const CANARY: &str = "CANARY-s3cr3t-4111111111111111";

fn node(id: u32, role: &str, name: &str, kids: &[u32]) -> Value {
    json!({"nodeId": id.to_string(), "role": {"type":"role","value": role},
           "name": {"type":"computedString","value": name},
           "childIds": kids.iter().map(|k| k.to_string()).collect::<Vec<_>>(),
           "backendDOMNodeId": id, "properties": [{"name":"focusable","value":{"type":"booleanOrUndefined","value":true}}]})
}

/// A relation (`labelledby`, `describedby`) to DOM nodes, as Chrome reports it.
fn relate(mut n: Value, relation: &str, targets: &[u32]) -> Value {
    let related: Vec<Value> = targets.iter().map(|t| json!({"backendDOMNodeId": t})).collect();
    n["properties"].as_array_mut().unwrap().push(json!({"name": relation, "value": {"type":"nodeList","relatedNodes": related}}));
    n
}

fn described(mut n: Value, description: &str) -> Value {
    n["description"] = json!({"type":"computedString","value": description});
    n
}

/// A text field and its inner text, as Chrome gives them (`text_id`, `text_id + 1`).
fn field(id: u32, name: &str, value: &str, text_id: u32) -> Vec<Value> {
    let mut f = node(id, "textbox", name, &[text_id]);
    f["value"] = json!({"type":"string","value": value});
    let t = json!({"nodeId": text_id.to_string(), "role": {"type":"role","value":"StaticText"},
                   "name": {"type":"computedString","value": value}, "childIds": [(text_id + 1).to_string()], "backendDOMNodeId": text_id});
    let b = json!({"nodeId": (text_id + 1).to_string(), "role": {"type":"role","value":"InlineTextBox"},
                   "name": {"type":"computedString","value": value}, "childIds": [], "backendDOMNodeId": text_id + 1});
    vec![f, t, b]
}

fn page(nodes: Vec<Value>) -> SnapshotInput {
    SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap()
}

fn fact(id: i64, attrs: &[(&str, &str)]) -> FieldFacts {
    FieldFacts {
        frame: "main".into(),
        backend_node_id: id,
        tag: "input".into(),
        attributes: attrs.iter().flat_map(|(k, v)| [k.to_string(), v.to_string()]).collect(),
        ..FieldFacts::default()
    }
}

fn known(id: i64, reason: SecretReason) -> FieldFacts {
    FieldFacts { frame: "main".into(), backend_node_id: id, reason: Some(reason), ..FieldFacts::default() }
}

fn checkout() -> SnapshotInput {
    let mut nodes = vec![node(1, "RootWebArea", "Checkout", &[2, 10, 20, 30, 40])];
    let mut heading = node(2, "heading", "Pay", &[]);
    heading["properties"] = json!([{"name":"level","value":{"type":"integer","value":1}}]);
    nodes.push(heading);
    nodes.extend(field(10, "Password", CANARY, 11));
    nodes.extend(field(20, "Card number", CANARY, 21));
    nodes.extend(field(30, "One-time code", CANARY, 31));
    // Masked by Chrome, unknown to the DOM scan: bullets give it away.
    nodes.extend(field(40, "PIN", "••••••••", 41));
    page(nodes)
}

fn checkout_facts() -> Vec<FieldFacts> {
    vec![fact(10, &[("type", "password")]), fact(20, &[("autocomplete", "cc-number")]), fact(30, &[("autocomplete", "one-time-code")])]
}

/// Every output of a page: text and JSON, full and interactive, capped and
/// not; then `resolve` of every ref and the saved ref table.
fn all_outputs(input: &SnapshotInput, facts: &[FieldFacts]) -> Vec<String> {
    let mut out = Vec::new();
    for mode in [Mode::Full, Mode::Interactive] {
        for format in [Format::Text, Format::Json] {
            for max_chars in [None, Some(200)] {
                let o = Options { mode, format, max_chars, ..Options::default() };
                let mut refs = RefTable::new();
                let s = snapshot(input, facts, &o, &mut refs).unwrap();
                out.push(format!("{}\n{:?}\n{:?}", s.text, s.stats, s.refs));
                for n in 0..refs.live() as u32 + 8 {
                    if let Ok(t) = refs.resolve(&format!("A{n}")) {
                        out.push(format!("{t:?}"));
                    }
                }
                out.push(refs.to_json());
            }
        }
    }
    out
}

fn assert_clean(outputs: &[String], secrets: &[&str]) {
    for out in outputs {
        for s in secrets {
            assert!(!out.contains(s), "{s:?} leaked:\n{out}");
        }
        assert!(!out.contains("••"), "bullets leaked:\n{out}");
    }
}

#[test]
fn canary_values_appear_in_no_output() {
    assert_clean(&all_outputs(&checkout(), &checkout_facts()), &["CANARY", "4111"]);
}

#[test]
fn secret_length_appears_in_no_output() {
    let len = CANARY.chars().count().to_string();
    // The printed snapshots (resolve answers and the ref table hold node ids).
    for out in all_outputs(&checkout(), &checkout_facts()).into_iter().filter(|o| o.contains("Stats {")) {
        let text = out.split('\n').take_while(|l| !l.starts_with("Stats")).collect::<Vec<_>>().join("\n");
        assert!(!text.contains(&len), "{text}");
        assert!(!text.contains('8'), "bullet count leaked: {text}");
    }
}

#[test]
fn secret_fields_show_that_they_exist_and_are_filled() {
    let s = snapshot(&checkout(), &checkout_facts(), &Options::default(), &mut RefTable::new()).unwrap();
    assert_eq!(
        s.text,
        "page \"Checkout\"\n# Pay\ntextbox A0 \"Password\" secret=password filled\n\
         textbox A1 \"Card number\" secret=credit-card filled\n\
         textbox A2 \"One-time code\" secret=one-time-code filled\n\
         textbox A3 \"PIN\" secret=password filled\n"
    );
    let reasons: Vec<(i64, SecretReason)> = s.secrets.iter().map(|f| (f.backend_node_id, f.reason)).collect();
    use SecretReason::*;
    assert_eq!(reasons, [(10, Password), (20, CreditCard), (30, OneTimeCode), (40, Password)]);
}

#[test]
fn empty_secret_field_says_empty() {
    let input = page(vec![node(1, "RootWebArea", "Login", &[10]), node(10, "textbox", "Password", &[])]);
    let facts = vec![known(10, SecretReason::NewPassword)];
    let s = snapshot(&input, &facts, &Options::default(), &mut RefTable::new()).unwrap();
    assert_eq!(s.text, "page \"Login\"\ntextbox A0 \"Password\" secret=new-password\n");
}

#[test]
fn a_filled_field_the_tree_shows_empty_is_filled() {
    let input = page(vec![node(1, "RootWebArea", "Login", &[10]), node(10, "textbox", "Password", &[])]);
    let facts = vec![FieldFacts { filled: true, ..fact(10, &[("type", "password")]) }];
    let s = snapshot(&input, &facts, &Options::default(), &mut RefTable::new()).unwrap();
    assert_eq!(s.text, "page \"Login\"\ntextbox A0 \"Password\" secret=password filled\n");
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
    let facts = vec![FieldFacts { frame: "pay-session".into(), ..fact(10, &[("name", "cardnumber")]) }];
    let s = snapshot(&input, &facts, &Options::default(), &mut RefTable::new()).unwrap();
    assert!(!s.text.contains("CANARY"), "{}", s.text);
    assert!(s.text.contains("textbox A0 \"Card\" secret=credit-card filled"), "{}", s.text);
    assert_eq!(s.secrets, [SecretField { frame: "pay-session".into(), backend_node_id: 10, reason: SecretReason::CreditCard }]);
}

/// `<label>Code <input otc> <input otc></label>`: the first field is named
/// from the whole label, the second field's value included.
#[test]
fn a_label_holding_a_second_one_time_code_field() {
    let mut nodes = vec![node(1, "RootWebArea", "Verify", &[5]), node(5, "LabelText", "", &[6, 10, 20])];
    nodes.push(node(6, "StaticText", "Code ", &[]));
    let mut first = field(10, "Code CNRYBBBB2", "CNRYAAAA1", 11);
    first[0] = relate(first[0].clone(), "labelledby", &[5]);
    nodes.extend(first);
    nodes.extend(field(20, "", "CNRYBBBB2", 21));
    let facts = vec![fact(10, &[("autocomplete", "one-time-code")]), fact(20, &[("autocomplete", "one-time-code")])];
    let input = page(nodes);
    let s = snapshot(&input, &facts, &Options::default(), &mut RefTable::new()).unwrap();
    assert!(s.text.contains("textbox A1 \"Code [secret]\" secret=one-time-code filled"), "{}", s.text);
    assert_clean(&all_outputs(&input, &facts), &["CNRY"]);
}

/// A card number split over four fields in one label, and a checkbox whose
/// label holds a card field: groups of four digits are cut everywhere.
#[test]
fn card_numbers_inside_labels() {
    let mut nodes = vec![node(1, "RootWebArea", "Pay", &[5, 50])];
    nodes.push(node(5, "LabelText", "", &[6, 10, 20, 30, 40]));
    nodes.push(node(6, "StaticText", "Card number ", &[]));
    let mut first = field(10, "Card number 5555 6666 7777", "4444", 11);
    first[0] = relate(first[0].clone(), "labelledby", &[5]);
    nodes.extend(first);
    nodes.extend(field(20, "", "5555", 21));
    nodes.extend(field(30, "", "6666", 31));
    nodes.extend(field(40, "", "7777", 41));
    nodes.push(node(50, "LabelText", "", &[51, 52, 60]));
    nodes.push(relate(node(51, "checkbox", "Pay with card 4111111111111111", &[]), "labelledby", &[50]));
    nodes.push(node(52, "StaticText", " Pay with card ", &[]));
    nodes.extend(field(60, "", "4111111111111111", 61));
    let facts: Vec<FieldFacts> = [10, 20, 30, 40].iter().map(|&i| fact(i, &[("autocomplete", "cc-number")])).chain([fact(60, &[("name", "card[number]")])]).collect();
    let input = page(nodes);
    let s = snapshot(&input, &facts, &Options::default(), &mut RefTable::new()).unwrap();
    assert!(s.text.contains("textbox A1 \"Card number [secret] [secret] [secret]\" secret=credit-card filled"), "{}", s.text);
    assert!(s.text.contains("checkbox A6 \"Pay with card [secret]\""), "{}", s.text);
    assert_clean(&all_outputs(&input, &facts), &["4444", "5555", "6666", "7777", "4111"]);
}

/// `aria-labelledby` naming the field itself, `aria-describedby` naming a
/// password field, and a button labelled by a password field's bullets.
#[test]
fn names_and_descriptions_built_from_secret_fields() {
    let mut nodes = vec![node(1, "RootWebArea", "Unlock", &[10, 20, 30, 40, 50])];
    let mut own = field(10, "selfname-CNRY", "selfname-CNRY", 11);
    own[0] = relate(own[0].clone(), "labelledby", &[10]);
    nodes.extend(own);
    nodes.extend(field(20, "", "•••••••••••", 21));
    nodes.push(relate(node(30, "button", "Unlock •••••••••••", &[]), "labelledby", &[35, 20]));
    nodes.push(relate(described(node(40, "button", "Help", &[]), "•••••••••••"), "describedby", &[20]));
    // Two characters typed so far: short, but the button is built from it.
    nodes.extend(field(50, "PIN", "••", 51));
    nodes.push(relate(node(55, "button", "Check ••", &[]), "labelledby", &[50]));
    nodes[0]["childIds"].as_array_mut().unwrap().push(json!("55"));
    let facts = vec![fact(10, &[("name", "otp")]), fact(20, &[("type", "password")])];
    let input = page(nodes);
    let s = snapshot(&input, &facts, &Options::default(), &mut RefTable::new()).unwrap();
    assert!(s.text.contains("button A2 \"Unlock [secret]\""), "{}", s.text);
    assert!(s.text.contains("button A3 \"Help\" desc=\"[secret]\""), "{}", s.text);
    assert!(s.text.contains("button A5 \"Check [secret]\""), "{}", s.text);
    assert_clean(&all_outputs(&input, &facts), &["CNRY", "selfname"]);
}

/// A field the tree leaves out (`aria-hidden`, `display:none`) still names
/// a button that points at it: the extension passes its value for the call.
#[test]
fn a_hidden_field_named_by_a_label() {
    let nodes = vec![node(1, "RootWebArea", "Hidden", &[30]), relate(node(30, "button", "HIDDEN-CNRY-VALUE", &[]), "labelledby", &[26])];
    let facts = vec![FieldFacts { value: Some("HIDDEN-CNRY-VALUE".into()), ..fact(26, &[("autocomplete", "one-time-code")]) }];
    let input = page(nodes);
    let s = snapshot(&input, &facts, &Options::default(), &mut RefTable::new()).unwrap();
    assert_eq!(s.text, "page \"Hidden\"\nbutton A0 \"[secret]\"\n");
    assert_eq!(s.secrets.len(), 1);
    assert_clean(&all_outputs(&input, &facts), &["CNRY"]);
    // The value never shows in a debug print of the facts either.
    assert!(!format!("{facts:?}").contains("CNRY"));
}

/// A three-digit code is cut from the label Chrome built from it, and only
/// there: the same digits elsewhere on the page are page content.
#[test]
fn short_values_are_cut_only_where_chrome_put_them() {
    let mut nodes = vec![node(1, "RootWebArea", "Pay", &[5, 70, 71])];
    nodes.push(node(5, "LabelText", "", &[51, 60]));
    nodes.push(relate(node(51, "checkbox", "Use 123 now", &[]), "labelledby", &[5]));
    nodes.extend(field(60, "", "123", 61));
    nodes.push(node(70, "heading", "Order 123 of 2024", &[]));
    nodes.push(node(71, "StaticText", "Step 123", &[]));
    let facts = vec![fact(60, &[("name", "cvc")])];
    let s = snapshot(&page(nodes), &facts, &Options::default(), &mut RefTable::new()).unwrap();
    assert!(s.text.contains("checkbox A1 \"Use [secret] now\""), "{}", s.text);
    assert!(s.text.contains("Order 123 of 2024"), "{}", s.text);
    assert!(s.text.contains("Step 123"), "{}", s.text);
}

/// Show-password toggles: the extension remembers the field was secret;
/// CSS masking and password autocomplete tell on their own.
#[test]
fn a_field_shown_as_text_stays_secret() {
    let mut nodes = vec![node(1, "RootWebArea", "Login", &[10, 20, 30])];
    nodes.extend(field(10, "Secret phrase", "shown-CNRY-1", 11));
    nodes.extend(field(20, "Masked", "css-CNRY-2", 21));
    nodes.extend(field(30, "Sign-in code", "toggled-CNRY-3", 31));
    let facts = vec![
        FieldFacts { reason: Some(SecretReason::Password), ..fact(10, &[("type", "text")]) },
        FieldFacts { text_security: "disc".into(), ..fact(20, &[("type", "text")]) },
        fact(30, &[("type", "text"), ("autocomplete", "current-password")]),
    ];
    let input = page(nodes);
    let s = snapshot(&input, &facts, &Options::default(), &mut RefTable::new()).unwrap();
    assert_eq!(
        s.text,
        "page \"Login\"\ntextbox A0 \"Secret phrase\" secret=password filled\ntextbox A1 \"Masked\" secret=password filled\n\
         textbox A2 \"Sign-in code\" secret=current-password filled\n"
    );
    assert_clean(&all_outputs(&input, &facts), &["CNRY"]);
}

#[test]
fn a_secret_value_in_a_link_or_the_page_url_is_cut() {
    let mut root = node(1, "RootWebArea", "Verify", &[10, 20]);
    root["properties"] = json!([{"name":"url","value":{"type":"string","value":"https://x.test/verify?code=987654"}}]);
    let mut link = node(20, "link", "Resend", &[]);
    link["properties"] = json!([{"name":"url","value":{"type":"string","value":"https://x.test/resend?code=987654"}}]);
    let mut nodes = vec![root, link];
    nodes.extend(field(10, "Code", "987654", 11));
    let facts = vec![fact(10, &[("autocomplete", "one-time-code")])];
    let input = page(nodes);
    let s = snapshot(&input, &facts, &Options::default(), &mut RefTable::new()).unwrap();
    assert!(s.text.starts_with("page \"Verify\" https://x.test/verify?code=[secret]\n"), "{}", s.text);
    assert_clean(&all_outputs(&input, &facts), &["987654"]);
}

#[test]
fn no_secret_no_change() {
    let nodes = vec![node(1, "RootWebArea", "Dots", &[2, 3]), node(2, "StaticText", "Loading •••• done", &[]), node(3, "button", "Go ••••", &[])];
    let facts = vec![fact(2, &[("name", "q")])];
    let s = snapshot(&page(nodes), &facts, &Options::default(), &mut RefTable::new()).unwrap();
    assert_eq!(s.text, "page \"Dots\"\nLoading •••• done\nbutton A0 \"Go ••••\"\n");
    assert!(s.secrets.is_empty());
}

/// What the page draws in a secret field is cut like its value, where the
/// tree reports no value (an editable element, a value not exposed).
#[test]
fn a_secret_field_s_drawn_text_is_cut_too() {
    let mut nodes = vec![node(1, "RootWebArea", "Notes", &[10, 30])];
    nodes.extend(field(10, "Recovery phrase", "", 11));
    nodes[2]["name"] = json!({"type":"computedString","value":"drawn-CNRY-55"});
    nodes[3]["name"] = json!({"type":"computedString","value":"drawn-CNRY-55"});
    nodes.push(relate(node(30, "button", "Copy drawn-CNRY-55", &[]), "labelledby", &[10]));
    let facts = vec![FieldFacts { text_security: "disc".into(), ..fact(10, &[]) }];
    let input = page(nodes);
    assert_clean(&all_outputs(&input, &facts), &["CNRY"]);
}

/// Malformed input is an error that says what was expected and where, and
/// never quotes the input: it is page text, and may hold a secret.
#[test]
fn a_parse_error_never_quotes_the_page() {
    let bad = r#"{"nodes":[{"nodeId":"1","ignored":"CNRY-typed-by-a-person","role":{"value":"RootWebArea"}}]}"#;
    let e = SnapshotInput::from_json(bad).unwrap_err();
    assert!(!e.message.contains("CNRY"), "{}", e.message);
    assert!(e.message.contains("expected a boolean at line 1"), "{}", e.message);
}

/// Guards decide from typed facts, not from the text: every ref an answer
/// shows comes with its role, its name and the kind of secret it holds.
#[test]
fn every_shown_ref_carries_its_secret_kind_in_the_facts() {
    let s = snapshot(&checkout(), &checkout_facts(), &Options::default(), &mut RefTable::new()).unwrap();
    let kinds: Vec<(String, Option<SecretReason>)> = s.refs.iter().map(|f| (f.role.clone(), f.secret)).collect();
    assert_eq!(
        kinds,
        vec![
            ("textbox".to_string(), Some(SecretReason::Password)),
            ("textbox".to_string(), Some(SecretReason::CreditCard)),
            ("textbox".to_string(), Some(SecretReason::OneTimeCode)),
            ("textbox".to_string(), Some(SecretReason::Password)),
        ]
    );
    assert_eq!(s.refs.iter().map(|f| f.reference.as_str()).collect::<Vec<_>>(), ["A0", "A1", "A2", "A3"]);
    assert_eq!(s.refs[1].name, "Card number");
    assert_eq!((s.page.title.as_str(), s.refs[0].backend_node_id), ("Checkout", 10));
    assert_eq!(s.stats.refs, s.refs.len());
}

/// A sign-in page after a try: the password field cleared (or never shown
/// to the core but as bullets), the value echoed in an alert, the title and
/// the URL, in another case.
fn echoing(field_value: &str) -> SnapshotInput {
    echoing_as("Password", field_value)
}

fn echoing_as(label: &str, field_value: &str) -> SnapshotInput {
    let mut root = node(1, "RootWebArea", "Sign in - HUNTER2-canary", &[2, 10, 5]);
    root["properties"].as_array_mut().unwrap().push(json!({"name":"url","value":{"type":"string","value":"https://x.test/login?pw=hunter2-canary"}}));
    let mut nodes = vec![root, node(2, "alert", "", &[3]), node(3, "StaticText", "Wrong password: hunter2-canary", &[])];
    nodes.extend(field(10, label, field_value, 11));
    nodes.push(node(5, "option", "hunter2-canary", &[]));
    page(nodes)
}

fn typed_with(values: &[&str]) -> Typed {
    let mut t = Typed::new("00112233445566778899aabbccddeeff");
    for v in values {
        let p = t.prints_of(v);
        t.add(&p);
    }
    t
}

#[test]
fn a_typed_value_is_cut_where_the_page_echoes_it_after_the_field_was_cleared() {
    let facts = [fact(10, &[("type", "password")])];
    let typed = typed_with(&["hunter2-canary"]);
    for value in ["", "••••••••••••••"] {
        for format in [Format::Text, Format::Json] {
            let o = Options { format, ..Options::default() };
            let s = snapshot_typed(&echoing(value), &facts, &typed, &o, &mut RefTable::new(), &mut Previous::default()).unwrap();
            assert!(!s.text.to_lowercase().contains("hunter2"), "{}", s.text);
            assert!(s.text.contains("Wrong password: [secret]"), "{}", s.text);
        }
    }
    // Without the prints it is there: what the extension's memory is for.
    let s = snapshot(&echoing(""), &facts, &Options::default(), &mut RefTable::new()).unwrap();
    assert!(s.text.contains("hunter2-canary"));
}

#[test]
fn a_field_s_own_prints_count_once_it_is_secret() {
    let typed = Typed::new("00112233445566778899aabbccddeeff");
    let prints = typed_with(&[]).prints_of("hunter2-canary");
    let facts = [FieldFacts { typed: prints.clone(), ..fact(10, &[("type", "password")]) }];
    let s = snapshot_typed(&echoing("••••"), &facts, &typed, &Options::default(), &mut RefTable::new(), &mut Previous::default()).unwrap();
    assert!(!s.text.to_lowercase().contains("hunter2"), "{}", s.text);
    // A field that is not secret: its prints are not used.
    let plain = [FieldFacts { typed: prints, ..fact(10, &[("type", "text")]) }];
    let s = snapshot_typed(&echoing_as("Nickname", "hello"), &plain, &typed, &Options::default(), &mut RefTable::new(), &mut Previous::default()).unwrap();
    assert!(s.text.contains("Wrong password: hunter2-canary"), "{}", s.text);
}

#[test]
fn a_diff_cuts_lines_of_the_snapshot_before_the_value_was_known() {
    let facts = [fact(10, &[("type", "password")])];
    let diff = Options { diff: true, ..Options::default() };
    let (mut refs, mut previous) = (RefTable::new(), Previous::default());
    let filler = |nodes: &mut Vec<Value>| nodes.extend((100..140).map(|i| node(i, "paragraph", &format!("Terms of use, clause {i}"), &[])));
    let mut nodes = vec![node(1, "RootWebArea", "Sign in", &[2, 10]), node(2, "alert", "", &[3]), node(3, "StaticText", "Wrong password: hunter2-canary", &[])];
    nodes[0]["childIds"].as_array_mut().unwrap().extend((100..140).map(|i| json!(i.to_string())));
    nodes.extend(field(10, "Password", "", 11));
    filler(&mut nodes);
    let before = snapshot_typed(&page(nodes.clone()), &facts, &Typed::default(), &diff, &mut refs, &mut previous).unwrap();
    assert!(before.text.contains("hunter2-canary"));
    // The echo is gone from the page now; the diff's removed lines come from the snapshot before.
    nodes[1]["childIds"] = json!([]);
    let after = snapshot_typed(&page(nodes), &facts, &typed_with(&["hunter2-canary"]), &diff, &mut refs, &mut previous).unwrap();
    assert!(after.diff.is_some_and(|d| !d.full), "{}", after.text);
    assert!(!after.text.to_lowercase().contains("hunter2"), "{}", after.text);
    assert!(after.text.contains("[secret]"), "{}", after.text);
}

#[test]
fn a_card_number_in_a_field_named_anything_is_secret() {
    let mut nodes = vec![node(1, "RootWebArea", "Pay", &[10, 3])];
    nodes.extend(field(10, "Card", "5500 0000 0000 0004", 11));
    nodes.push(node(3, "StaticText", "You typed 5500-0000-0000-0004", &[]));
    let s = snapshot(&page(nodes), &[fact(10, &[("type", "text")])], &Options::default(), &mut RefTable::new()).unwrap();
    assert!(s.text.contains("textbox A0 \"Card\" secret=credit-card filled"), "{}", s.text);
    assert!(!s.text.contains("5500 0000") && !s.text.contains("0000 0004"), "{}", s.text);
    // An order number of another shape is not.
    let mut nodes = vec![node(1, "RootWebArea", "Order", &[10])];
    nodes.extend(field(10, "Order", "1234567890123", 11));
    let s = snapshot(&page(nodes), &[], &Options::default(), &mut RefTable::new()).unwrap();
    assert!(s.text.contains(": 1234567890123"), "{}", s.text);
}

#[test]
fn a_diff_cuts_a_value_the_snapshot_before_printed_over_two_lines() {
    let facts = [fact(10, &[("type", "password")])];
    let diff = Options { diff: true, ..Options::default() };
    let (mut refs, mut previous) = (RefTable::new(), Previous::default());
    let mut nodes = vec![node(1, "RootWebArea", "Sign in", &[2, 10]), node(2, "alert", "", &[3]), node(3, "StaticText", "You typed open\n  sesame-canary", &[])];
    nodes[0]["childIds"].as_array_mut().unwrap().extend((100..140).map(|i| json!(i.to_string())));
    nodes.extend(field(10, "Password", "", 11));
    nodes.extend((100..140).map(|i| node(i, "paragraph", &format!("Terms of use, clause {i}"), &[])));
    snapshot_typed(&page(nodes.clone()), &facts, &Typed::default(), &diff, &mut refs, &mut previous).unwrap();
    nodes[1]["childIds"] = json!([]);
    let after = snapshot_typed(&page(nodes), &facts, &typed_with(&["open sesame-canary"]), &diff, &mut refs, &mut previous).unwrap();
    assert!(after.diff.is_some_and(|d| !d.full), "{}", after.text);
    assert!(!after.text.contains("open") && !after.text.contains("sesame"), "{}", after.text);
}

#[test]
fn the_saved_ref_table_forgets_a_typed_value_in_a_name_issued_before_it_was_known() {
    let facts = [fact(10, &[("type", "password")])];
    let mut refs = RefTable::new();
    let mut nodes = vec![node(1, "RootWebArea", "Sign in", &[2, 10]), node(2, "link", "Resend hunter2-canary: sent", &[])];
    nodes.extend(field(10, "Password", "", 11));
    snapshot_typed(&page(nodes.clone()), &facts, &Typed::default(), &Options::default(), &mut refs, &mut Previous::default()).unwrap();
    assert!(refs.to_json().contains("hunter2-canary"));
    // The link is gone when the value becomes known: its ref is remembered, not shown.
    nodes[0]["childIds"] = json!([10]);
    nodes.remove(1);
    snapshot_typed(&page(nodes), &facts, &typed_with(&["hunter2-canary"]), &Options::default(), &mut refs, &mut Previous::default()).unwrap();
    let saved = refs.to_json();
    assert!(!saved.to_lowercase().contains("hunter2"), "{saved}");
    assert!(saved.contains("Resend [secret]: sent"), "{saved}");
}
