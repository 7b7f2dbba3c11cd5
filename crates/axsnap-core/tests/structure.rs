//! The format, pinned on small trees: one test per role family.

use axsnap_core::{snapshot, ErrorCode, Format, Options, RefTable, SnapshotInput};
use serde_json::{json, Value};

fn n(id: u32, role: &str, name: &str, kids: &[u32]) -> Value {
    json!({"nodeId": id.to_string(), "role": {"type":"role","value": role},
           "name": {"type":"computedString","value": name},
           "childIds": kids.iter().map(|k| k.to_string()).collect::<Vec<_>>(), "backendDOMNodeId": id})
}

fn with(mut v: Value, props: &[(&str, Value)]) -> Value {
    let list: Vec<Value> = props.iter().map(|(k, x)| json!({"name": k, "value": {"type": "x", "value": x}})).collect();
    v["properties"] = Value::Array(list);
    v
}

fn root(kids: &[u32]) -> Value {
    with(n(1, "RootWebArea", "T", kids), &[("url", json!("https://site.test/a/page?x=1"))])
}

fn text(nodes: Vec<Value>) -> String {
    let input = SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap();
    snapshot(&input, &[], &Options::default(), &mut RefTable::new()).unwrap().text
}

const HEAD: &str = "page \"T\" https://site.test/a/page?x=1\n";

#[test]
fn link_inside_table_cell_inside_heading_keeps_its_ref() {
    let t = text(vec![
        root(&[2]),
        with(n(2, "heading", "Results Bob", &[3]), &[("level", json!(2))]),
        n(3, "table", "", &[4]),
        n(4, "row", "", &[5, 7]),
        n(5, "cell", "Results", &[6]),
        n(6, "StaticText", "Results", &[]),
        n(7, "cell", "Bob", &[8]),
        with(n(8, "link", "Bob", &[9]), &[("url", json!("https://site.test/u/bob"))]),
        n(9, "StaticText", "Bob", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}##\n table\n  | Results | A0 [Bob](/u/bob)\n"));
}

#[test]
fn table_header_row_is_marked_and_cells_keep_their_text() {
    let t = text(vec![
        root(&[2]),
        n(2, "table", "Scores", &[3, 10, 4, 7]),
        n(10, "caption", "", &[11]),
        n(11, "StaticText", "Scores", &[]),
        n(3, "rowgroup", "", &[]),
        n(4, "row", "Name Score", &[5, 6]),
        n(5, "columnheader", "Name", &[12]),
        n(12, "StaticText", "Name", &[]),
        n(6, "columnheader", "Score", &[13]),
        n(13, "StaticText", "Score", &[]),
        n(7, "row", "Ann 3", &[8, 9]),
        n(8, "cell", "Ann", &[14]),
        n(14, "StaticText", "Ann", &[]),
        n(9, "cell", "3", &[15]),
        n(15, "StaticText", "3", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}table \"Scores\"\n | Name | Score\n |-|-\n | Ann |3\n"));
}

#[test]
fn a_row_whose_last_cell_holds_a_list_is_a_row_of_the_cells_before_with_the_list_under_it() {
    let item = |id, words: &str, kids: &[u32]| vec![n(id, "listitem", "", kids), n(id + 1, "StaticText", words, &[])];
    let mut nodes = vec![
        root(&[2]),
        n(2, "table", "", &[3, 10, 20]),
        // An infobox's row: a header, then a list.
        n(3, "row", "", &[4, 6]),
        n(4, "rowheader", "Founders", &[5]),
        n(5, "StaticText", "Founders", &[]),
        n(6, "cell", "", &[7]),
        n(7, "list", "", &[30, 32]),
        // A list in the first cell: nested lines, as before.
        n(10, "row", "", &[11, 13]),
        n(11, "cell", "", &[12]),
        n(12, "list", "", &[34, 36]),
        n(13, "cell", "", &[14]),
        n(14, "StaticText", "tail", &[]),
        // Two cells holding lists: nested lines too, each cell its own.
        n(20, "row", "", &[21, 23]),
        n(21, "cell", "", &[22]),
        n(22, "list", "", &[38]),
        n(23, "cell", "", &[24]),
        n(24, "list", "", &[40, 42]),
    ];
    for (id, w) in [(30, "Bill Gates"), (32, "Paul Allen"), (34, "a"), (36, "b"), (38, "c"), (40, "d"), (42, "e")] {
        nodes.extend(item(id, w, &[id + 1]));
    }
    assert_eq!(
        text(nodes),
        format!(
            "{HEAD}table\n | Founders\n  - Bill Gates\n  - Paul Allen\n row\n  cell\n   - a\n   - b\n  cell tail\n row\n  cell\n   - c\n  cell\n   - d\n   - e\n"
        )
    );
}

#[test]
fn a_row_of_one_cell_holding_blocks_is_that_cells_line() {
    let t = text(vec![
        root(&[2]),
        n(2, "table", "", &[3, 9]),
        n(3, "row", "", &[4]),
        n(4, "columnheader", "", &[5, 7]),
        n(5, "list", "", &[6]),
        n(6, "listitem", "", &[10]),
        n(10, "StaticText", "v", &[]),
        n(7, "StaticText", "New Zealand articles", &[]),
        n(9, "row", "", &[11]),
        n(11, "cell", "", &[12]),
        n(12, "list", "", &[13, 15]),
        n(13, "listitem", "", &[14]),
        n(14, "StaticText", "Caves", &[]),
        n(15, "listitem", "", &[16]),
        n(16, "StaticText", "Lakes", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}table\n th\n  - v\n  New Zealand articles\n cell\n  - Caves\n  - Lakes\n"));
}

#[test]
fn a_cells_words_broken_over_lines_stay_one_cell_with_br() {
    let t = text(vec![
        root(&[2]),
        n(2, "table", "", &[3, 20]),
        n(3, "row", "", &[4, 6]),
        n(4, "columnheader", "", &[5, 7, 8]),
        n(5, "StaticText", "Brinell", &[]),
        n(7, "LineBreak", "\n", &[]),
        n(8, "StaticText", "HBW / HB", &[]),
        n(6, "columnheader", "Vickers", &[9]),
        n(9, "StaticText", "Vickers", &[]),
        n(20, "row", "", &[21, 23]),
        n(21, "cell", "", &[22]),
        n(22, "StaticText", "293-375", &[]),
        n(23, "cell", "", &[24]),
        n(24, "StaticText", "310", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}table\n | Brinell <br> HBW / HB | Vickers\n |-|-\n |293-375 |310\n"));
}

#[test]
fn lists_nest_by_indent() {
    let t = text(vec![
        root(&[2]),
        n(2, "list", "", &[3]),
        n(3, "listitem", "", &[4, 5]),
        n(4, "StaticText", "Fruit", &[]),
        n(5, "list", "", &[6]),
        n(6, "listitem", "", &[7]),
        n(7, "StaticText", "Apple", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}- Fruit\n - Apple\n"));
}

#[test]
fn adjacent_text_merges_and_links_flow_in_the_sentence() {
    let t = text(vec![
        root(&[2]),
        n(2, "paragraph", "", &[3, 4, 6]),
        n(3, "StaticText", "Read the ", &[]),
        with(n(4, "link", "guide", &[5]), &[("url", json!("https://site.test/a/page?x=1#intro"))]),
        n(5, "StaticText", "guide", &[]),
        n(6, "StaticText", " first.", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}Read the A0 #[guide] first.\n"));
}

#[test]
fn preformatted_text_keeps_its_line_breaks() {
    let t = text(vec![
        root(&[2]),
        n(2, "generic", "", &[3, 4]),
        n(3, "StaticText", "fn main() {\n    go();", &[]),
        n(4, "StaticText", "\n}", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}fn main() {{\n    go();\n}}\n"));
}

#[test]
fn highlighted_code_is_one_block_with_its_lines_and_indents() {
    // A highlighter splits code into spans: newlines and indents are text
    // nodes of their own, which Chrome keeps only where CSS keeps them.
    let spans = [">>> ", "def", " ", "f", "():", "\n", "... ", "    ", "pass", "\n", "..."];
    let mut nodes = vec![root(&[2]), n(2, "generic", "", &(3..3 + spans.len() as u32).collect::<Vec<_>>())];
    nodes.extend(spans.iter().enumerate().map(|(i, s)| n(3 + i as u32, "StaticText", s, &[])));
    assert_eq!(text(nodes), format!("{HEAD}>>> def f():\n...     pass\n...\n"));
    // Outside code a lone space still only parts words.
    let t = text(vec![
        root(&[2]),
        n(2, "paragraph", "", &[3, 4, 5]),
        n(3, "StaticText", "a", &[]),
        n(4, "StaticText", " ", &[]),
        n(5, "StaticText", "b", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}a b\n"));
}

#[test]
fn control_states_are_printed_compactly() {
    let t = text(vec![
        root(&[2, 3, 4, 5, 6]),
        with(n(2, "checkbox", "Remember me", &[]), &[("checked", json!("true"))]),
        with(n(3, "button", "Menu", &[]), &[("expanded", json!(false)), ("disabled", json!(true))]),
        with(n(4, "textbox", "Email", &[]), &[("required", json!(true)), ("invalid", json!("true"))]),
        with(n(5, "slider", "Volume", &[]), &[("valuemin", json!(0)), ("valuemax", json!(10))]),
        with(n(6, "combobox", "Sort", &[]), &[("focused", json!(true))]),
    ]);
    let mut v: Value = serde_json::from_str(&format!("[{}]", "1")).unwrap();
    v[0] = json!(1);
    assert_eq!(
        t,
        format!(
            "{HEAD}checkbox A0 \"Remember me\" checked\nbutton A1 \"Menu\" collapsed disabled\n\
             textbox A2 \"Email\" required invalid\nslider A3 \"Volume\"\ncombobox A4 \"Sort\" focused\n"
        )
    );
}

#[test]
fn values_follow_a_colon() {
    let mut tb = n(2, "textbox", "City", &[3]);
    tb["value"] = json!({"type": "string", "value": "Oslo"});
    let t = text(vec![root(&[2]), tb, n(3, "StaticText", "Oslo", &[])]);
    assert_eq!(t, format!("{HEAD}textbox A0 \"City\": Oslo\n"));
}

#[test]
fn landmarks_and_dialogs_keep_their_structure() {
    let t = text(vec![
        root(&[2, 4]),
        n(2, "navigation", "Site", &[3]),
        with(n(3, "link", "Home", &[]), &[("url", json!("https://site.test/"))]),
        with(n(4, "dialog", "Confirm", &[5]), &[("modal", json!(true))]),
        n(5, "button", "OK", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}nav \"Site\"\n A0 [Home](/)\ndialog \"Confirm\" modal\n button A1 \"OK\"\n"));
}

#[test]
fn unknown_roles_are_kept_by_name() {
    let t = text(vec![root(&[2]), n(2, "hologram", "Future", &[])]);
    assert_eq!(t, format!("{HEAD}hologram \"Future\"\n"));
}

#[test]
fn json_format_is_tuples_of_depth_role_name_props_ref() {
    let input = SnapshotInput::from_value(json!({"nodes": [
        root(&[2]), n(2, "navigation", "Site", &[3]),
        with(n(3, "link", "Home", &[]), &[("url", json!("https://site.test/"))]),
    ]}))
    .unwrap();
    let o = Options { format: Format::Json, ..Options::default() };
    let s = snapshot(&input, &[], &o, &mut RefTable::new()).unwrap();
    let v: Value = serde_json::from_str(&s.text).unwrap();
    assert_eq!(
        v,
        json!([[0, "page", "T", {"url": "https://site.test/a/page?x=1"}, null],
               [1, "nav", "Site", null, null],
               [2, "link", "Home", {"url": "/"}, "A0"]])
    );
}

#[test]
fn bad_input_is_a_bad_input_error() {
    for bad in ["", "{", "[]", "{\"nodes\": 3}", "{\"x\": 1}", "{\"nodes\": []}"] {
        let err = SnapshotInput::from_json(bad)
            .and_then(|i| snapshot(&i, &[], &Options::default(), &mut RefTable::new()))
            .unwrap_err();
        assert_eq!(err.code, ErrorCode::BadInput, "{bad}");
    }
}

#[test]
fn cycles_and_dangling_children_do_not_hang_or_lose_nodes() {
    let t = text(vec![
        root(&[2, 99]),
        n(2, "generic", "", &[3]),
        n(3, "generic", "", &[2, 4]),
        n(4, "button", "Loop", &[1]),
    ]);
    assert_eq!(t, format!("{HEAD}button A0 \"Loop\"\n"));
}

#[test]
fn subtree_by_ref() {
    let nodes = vec![
        root(&[2, 5]),
        n(2, "form", "Login", &[3, 4]),
        n(3, "textbox", "User", &[]),
        n(4, "button", "Go", &[]),
        n(5, "button", "Elsewhere", &[]),
    ];
    let input = SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap();
    let mut refs = RefTable::new();
    snapshot(&input, &[], &Options::default(), &mut refs).unwrap();
    // A leaf's ref shows the form around it.
    let o = Options { root: Some("A0".into()), ..Options::default() };
    let s = snapshot(&input, &[], &o, &mut refs).unwrap();
    assert_eq!(s.text, "form \"Login\"\n textbox A0 \"User\"\n button A1 \"Go\"\n");
    // The rest of the page is still there: its refs stay live.
    assert_eq!(refs.resolve("A2").unwrap().name, "Elsewhere");
}

#[test]
fn control_descriptions_are_printed_once_link_titles_are_not() {
    let mut field = n(2, "textbox", "Email", &[]);
    field["description"] = json!({"type": "computedString", "value": "Must be a work address"});
    let mut icon = with(n(3, "link", "", &[]), &[("url", json!("https://site.test/help"))]);
    icon["description"] = json!({"type": "computedString", "value": "Help"});
    let mut titled = with(n(4, "link", "NZ", &[]), &[("url", json!("https://site.test/nz"))]);
    titled["description"] = json!({"type": "computedString", "value": "New Zealand"});
    let t = text(vec![root(&[2, 3, 4]), field, icon, titled]);
    assert_eq!(
        t,
        format!("{HEAD}textbox A0 \"Email\" desc=\"Must be a work address\"\nA1 [](/help) desc=\"Help\" A2 [NZ](/nz)\n")
    );
}

#[test]
fn a_row_printed_as_nested_lines_keeps_its_control_descriptions() {
    let mut b = n(6, "button", "Edit", &[]);
    b["description"] = json!({"type": "computedString", "value": "Edit order 7"});
    let t = text(vec![
        root(&[2]),
        n(2, "table", "", &[3]),
        n(3, "row", "", &[4]),
        n(4, "cell", "", &[5, 7]),
        n(5, "paragraph", "", &[6]),
        b,
        n(7, "list", "", &[8]),
        n(8, "listitem", "", &[9]),
        n(9, "StaticText", "note", &[]),
    ]);
    assert!(t.contains("button A0 \"Edit\" desc=\"Edit order 7\""), "{t}");
}

#[test]
fn a_card_title_that_is_link_and_heading_is_said_once() {
    let heading = |id, name, kids: &[u32]| with(n(id, "heading", name, kids), &[("level", json!(3))]);
    let link = |id, name, url: &str, kids: &[u32]| with(n(id, "link", name, kids), &[("url", json!(url))]);
    let t = text(vec![
        root(&[2, 5, 7, 10, 11]),
        // The heading inside the link.
        link(2, "Inside", "https://site.test/a/1", &[3]),
        heading(3, "Inside", &[4]),
        n(4, "StaticText", "Inside", &[]),
        // The heading right after the link (a thumbnail link, then the title).
        link(5, "Beside", "https://site.test/a/2", &[]),
        heading(7, "Beside", &[8]),
        n(8, "StaticText", "Beside", &[]),
        // Different words beside: both stay.
        link(10, "Photo", "https://site.test/a/3", &[]),
        heading(11, "Other title", &[12]),
        n(12, "StaticText", "Other title", &[]),
    ]);
    assert_eq!(
        t,
        format!("{HEAD}### A0 [Inside](/a/1)\n### A1 [Beside](/a/2)\nA2 [Photo](/a/3)\n### Other title\n")
    );
}

#[test]
fn a_thumbnail_link_beside_its_title_link_shares_the_line() {
    let link = |id, name, url: &str, kids: &[u32]| with(n(id, "link", name, kids), &[("url", json!(url))]);
    let nodes = vec![
        root(&[2, 3, 4, 6, 7, 9, 10]),
        // Unnamed thumbnail, a date, then the title: one line, both refs.
        link(2, "", "https://site.test/a/1", &[]),
        n(3, "StaticText", "21 Nov", &[]),
        with(n(4, "heading", "Title", &[5]), &[("level", json!(3))]),
        link(5, "Title", "https://site.test/a/1", &[]),
        // Same name, another URL: both stay.
        link(6, "Photo", "https://site.test/a/2", &[]),
        link(7, "Photo", "https://site.test/a/3", &[8]),
        n(8, "StaticText", "Photo", &[]),
        // An unnamed link to a different URL stays.
        link(9, "", "https://site.test/a/4", &[]),
        // The same name and URL twice in a sentence: words keep their place.
        n(10, "paragraph", "", &[11, 12, 13, 14]),
        n(11, "StaticText", "See", &[]),
        link(12, "RFC", "https://site.test/rfc", &[]),
        n(13, "StaticText", "and again", &[]),
        link(14, "RFC", "https://site.test/rfc", &[]),
    ];
    assert_eq!(
        text(nodes.clone()),
        format!("{HEAD}21 Nov\n### A0 A1 [Title](/a/1)\nA2 [Photo](/a/2) A3 [Photo](/a/3) A4 [](/a/4) See A5 [RFC](/rfc) and again A6 [RFC](/rfc)\n")
    );
    let input = SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap();
    let json_opts = Options { format: Format::Json, ..Options::default() };
    let rows = snapshot(&input, &[], &json_opts, &mut RefTable::new()).unwrap().text;
    assert!(rows.contains(r#""also":["A0"]"#), "{rows}");
}

#[test]
fn a_thumbnail_whose_alt_text_is_its_title_with_other_quotes_shares_the_titles_line() {
    // A CMS curls the quotes and dashes of a title as it prints it, not of
    // the thumbnail's alt text: the same words all the same.
    let link = |id, name, url: &str, kids: &[u32]| with(n(id, "link", name, kids), &[("url", json!(url))]);
    let t = text(vec![
        root(&[2, 3, 4, 6, 7, 8]),
        link(2, "'Dracula Untold' May Get Another Chance", "https://site.test/a/1", &[]),
        n(3, "StaticText", "Movies", &[]),
        with(n(4, "heading", "‘Dracula Untold’ May Get Another Chance", &[5]), &[("level", json!(3))]),
        link(5, "‘Dracula Untold’ May Get Another Chance", "https://site.test/a/1", &[]),
        // Other words: both stay.
        link(6, "Dracula Untold", "https://site.test/a/2", &[]),
        with(n(7, "heading", "Dracula Untold Returns", &[8]), &[("level", json!(3))]),
        link(8, "Dracula Untold Returns", "https://site.test/a/2", &[]),
    ]);
    assert_eq!(
        t,
        format!("{HEAD}Movies\n### A0 A1 [‘Dracula Untold’ May Get Another Chance](/a/1)\nA2 [Dracula Untold](/a/2)\n### Dracula Untold Returns\nA3 [Dracula Untold Returns](/a/2)\n")
    );
}

#[test]
fn an_archived_copy_beside_its_original_says_the_originals_url_once() {
    let link = |id, name, url: &str| with(n(id, "link", name, &[]), &[("url", json!(url))]);
    let original = "http://www.doc.govt.nz/reptiles-and-frogs/";
    let nodes = vec![
        root(&[2, 8]),
        n(2, "paragraph", "", &[3, 4, 5, 6]),
        link(3, "Reptiles and frogs", &format!("https://web.archive.org/web/20150129135945/{original}")),
        n(4, "StaticText", ". Archived from ", &[]),
        link(5, "the original", original),
        n(6, "StaticText", " on 29 January 2015.", &[]),
        // A copy of a URL no link beside it has stays whole.
        n(8, "paragraph", "", &[9]),
        link(9, "Lost page", "https://web.archive.org/web/2011/http://gone.test/page"),
    ];
    assert_eq!(
        text(nodes.clone()),
        format!("{HEAD}A0 [Reptiles and frogs](//web.archive.org/web/20150129135945/…). Archived from A1 [the original](http://www.doc.govt.nz/reptiles-and-frogs/) on 29 January 2015.\nA2 [Lost page](//web.archive.org/web/2011/http://gone.test/page)\n")
    );
    let input = SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap();
    let json_opts = Options { format: Format::Json, ..Options::default() };
    let rows = snapshot(&input, &[], &json_opts, &mut RefTable::new()).unwrap().text;
    assert!(rows.contains(&format!("https://web.archive.org/web/20150129135945/{original}")), "{rows}");
}

#[test]
fn urls_clipped_to_the_same_text_stay_two_destinations() {
    let link = |id, name, url: &str| with(n(id, "link", name, &[]), &[("url", json!(url))]);
    let nodes = vec![
        root(&[2, 3, 4]),
        link(2, "one", "https://other.test/a-long-path/item-1"),
        link(3, "two", "https://other.test/a-long-path/item-2"),
        link(4, "again", "https://other.test/a-long-path/item-1"),
    ];
    let input = SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap();
    let o = Options { max_url: Some(24), ..Options::default() };
    let t = snapshot(&input, &[], &o, &mut RefTable::new()).unwrap().text;
    assert_eq!(
        t,
        format!("{HEAD}A0 [one][1] A1 [two](//other.test/a-lo…) A2 [again][1]\n[1]: //other.test/a-lo…\n")
    );
}

#[test]
fn a_tracker_link_shows_its_destination_and_the_text_clips_tokens_json_keeps_them() {
    let tracker = "https://www.google.com/url?q=https://github.com/kepano/defuddle/commit/cb4291db0f24cac0d0674d9e35fc0089338da2da&sa=U&ved=2ahUKE";
    let nodes = vec![root(&[2]), with(n(2, "link", "Fix", &[]), &[("url", json!(tracker))])];
    let input = SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap();
    let mut refs = RefTable::new();
    let t = snapshot(&input, &[], &Options::default(), &mut refs).unwrap().text;
    assert_eq!(t, format!("{HEAD}A0 [Fix](//github.com/kepano/defuddle/commit/cb4291db…)\n"));
    // The ref still leads to the link's own URL: a click follows the page's link.
    assert_eq!(refs.resolve("A0").unwrap().url.as_deref(), Some(tracker));
    let o = Options { format: Format::Json, ..Options::default() };
    let rows: Value = serde_json::from_str(&snapshot(&input, &[], &o, &mut RefTable::new()).unwrap().text).unwrap();
    assert_eq!(rows[1][3]["url"], "https://github.com/kepano/defuddle/commit/cb4291db0f24cac0d0674d9e35fc0089338da2da");
}

#[test]
fn a_date_touching_a_name_is_a_word_of_its_own() {
    let t = text(vec![
        root(&[2]),
        n(2, "paragraph", "", &[3, 4]),
        n(3, "StaticText", "By Drew", &[]),
        n(4, "time", "", &[5]),
        n(5, "StaticText", "October 2", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}By Drew October 2\n"));
}

#[test]
fn a_superscript_number_is_marked_as_an_exponent() {
    let t = text(vec![
        root(&[2]),
        n(2, "paragraph", "", &[3, 4, 6, 7, 9]),
        n(3, "StaticText", "up to 2", &[]),
        n(4, "superscript", "", &[5]),
        n(5, "StaticText", "31", &[]),
        n(6, "StaticText", "-1 octets, see note", &[]),
        // A superscript link (a footnote) stays a link.
        n(7, "superscript", "", &[8]),
        with(n(8, "link", "[1]", &[]), &[("url", json!("#note-1"))]),
        n(9, "StaticText", ".", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}up to 2^31-1 octets, see note A0 #[[1\\]].\n"));
}

#[test]
fn a_capitalised_text_box_touching_a_word_starts_a_new_one() {
    let t = text(vec![
        root(&[2]),
        n(2, "Figcaption", "", &[3, 4, 5, 6]),
        n(3, "StaticText", "after the takeover", &[]),
        n(4, "StaticText", "Credit: AFP. ", &[]),
        // A drop cap continues its word.
        n(5, "StaticText", "W", &[]),
        n(6, "StaticText", "hales sing.", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}after the takeover Credit: AFP. Whales sing.\n"));
}

#[test]
fn names_chrome_glued_from_text_boxes_get_their_spaces_back() {
    let link = |id, name, kids: &[u32]| with(n(id, "link", name, kids), &[("url", json!("#s"))]);
    let t = text(vec![
        root(&[2, 5, 8, 11]),
        link(2, "1.11972–1985: Founding", &[3, 4]),
        n(3, "StaticText", "1.1", &[]),
        n(4, "StaticText", "1972–1985: Founding", &[]),
        link(5, "XDismiss", &[6, 7]),
        n(6, "StaticText", "X", &[]),
        n(7, "StaticText", "Dismiss", &[]),
        // A drop cap stays one word; a name that is not its boxes stays Chrome's.
        link(8, "Whale", &[9, 10]),
        n(9, "StaticText", "W", &[]),
        n(10, "StaticText", "hale", &[]),
        link(11, "CloseX", &[12]),
        n(12, "StaticText", "Close", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}A0 #[1.1 1972–1985: Founding] A1 #[X Dismiss] A2 #[Whale] A3 #[CloseX]\n"));
}

fn snap(nodes: Vec<Value>, options: Options) -> axsnap_core::Snapshot {
    let input = SnapshotInput::from_value(json!({ "nodes": nodes })).unwrap();
    snapshot(&input, &[], &options, &mut RefTable::new()).unwrap()
}

/// Icon fonts draw with private-use characters; they are page text like any
/// other (they once cut the rest of the line: `"\u{E000} Menu icon …" [Docs]`
/// printed as ` A0`).
#[test]
fn private_use_characters_in_page_text_are_printed_as_they_are() {
    let nodes = vec![
        root(&[2]),
        n(2, "paragraph", "", &[3, 4]),
        n(3, "StaticText", "\u{E000} Menu icon then important words \u{E001}", &[]),
        with(n(4, "link", "Docs", &[5]), &[("url", json!("https://site.test/docs"))]),
        n(5, "StaticText", "Docs", &[]),
    ];
    let want = format!("{HEAD}\u{E000} Menu icon then important words \u{E001} A0 [Docs](/~)\n");
    assert_eq!(text(nodes.clone()), want);
    let capped = snap(nodes, Options { max_chars: Some(10_000), ..Options::default() });
    assert_eq!(capped.text, want);
    assert_eq!(capped.stats.refs, 1);
}

/// `maxText` clips each text and name; a line holding refs keeps every one
/// of them (a whole-line clip once cut `A9` to `A…` and dropped the refs after it).
#[test]
fn clipped_text_never_cuts_a_ref() {
    let mut kids = Vec::new();
    let mut nodes = vec![root(&[2]), n(2, "paragraph", "", &[])];
    for i in 0..4u32 {
        let (t, l, s) = (10 + 3 * i, 11 + 3 * i, 12 + 3 * i);
        kids.extend([t, l]);
        nodes.push(n(t, "StaticText", "some words before the link, rather many of them", &[]));
        nodes.push(with(n(l, "link", &format!("Link number {i}"), &[s]), &[("url", json!(format!("https://site.test/{i}")))]));
        nodes.push(n(s, "StaticText", &format!("Link number {i}"), &[]));
    }
    nodes[1]["childIds"] = json!(kids.iter().map(|k| k.to_string()).collect::<Vec<_>>());
    let s = snap(nodes, Options { max_text: Some(12), ..Options::default() });
    assert_eq!(
        s.text,
        format!("{HEAD}some words b… A0 [Link number …](/0) some words b… A1 [Link number …](/1) some words b… A2 [Link number …](/2) some words b… A3 [Link number …](/3)\n")
    );
}

/// The same page has the same refs in text and JSON, also in stats.
#[test]
fn stats_count_the_same_refs_in_text_and_json() {
    let nodes = vec![
        root(&[2, 4]),
        with(n(2, "link", "", &[3]), &[("url", json!("https://site.test/a"))]),
        n(3, "image", "", &[]),
        with(n(4, "link", "Title", &[5]), &[("url", json!("https://site.test/a"))]),
        n(5, "StaticText", "Title", &[]),
    ];
    let t = snap(nodes.clone(), Options::default());
    let j = snap(nodes, Options { format: Format::Json, ..Options::default() });
    assert_eq!(t.text, format!("{HEAD}A0 A1 [Title](/a)\n"));
    assert_eq!((t.stats.refs, j.stats.refs), (2, 2));
}

/// JSON honours the cap and the depth limit like text: notes are rows of
/// role "note".
#[test]
fn json_honours_max_chars_and_max_depth() {
    let mut nodes = vec![root(&[2]), n(2, "list", "", &[])];
    let items: Vec<u32> = (0..60).map(|i| 10 + 2 * i).collect();
    nodes[1]["childIds"] = json!(items.iter().map(|k| k.to_string()).collect::<Vec<_>>());
    for &i in &items {
        nodes.push(n(i, "listitem", "", &[i + 1]));
        nodes.push(n(i + 1, "button", &format!("Button {i}"), &[]));
    }
    let o = Options { format: Format::Json, max_chars: Some(1200), ..Options::default() };
    let s = snap(nodes.clone(), o);
    assert!(s.text.chars().count() <= 1200, "{}", s.text);
    let rows: Vec<Value> = serde_json::from_str(&s.text).unwrap();
    let last = rows.last().unwrap();
    assert_eq!(last[1], "note");
    assert!(last[2].as_str().unwrap().starts_with("… cut at 1200 chars: "), "{last}");
    let shown = rows.iter().filter(|r| r[4].is_string()).count();
    let said: usize = rows.iter().filter(|r| r[1] == "note").map(|r| {
        let t = r[2].as_str().unwrap();
        let at = t.find(" refs").unwrap();
        t[..at].rsplit(['(', ' ']).next().unwrap().parse::<usize>().unwrap()
    }).sum();
    assert_eq!(shown + said, 60, "every ref is shown or counted in a note: {rows:?}");
    let o = Options { format: Format::Json, max_depth: Some(1), ..Options::default() };
    let rows: Vec<Value> = serde_json::from_str(&snap(nodes, o).text).unwrap();
    assert_eq!(rows.len(), 3, "{rows:?}");
    assert_eq!(rows[2], json!([2, "note", "… 120 deeper lines (60 refs); snapshot a subtree by ref to see them", null, null]));
}

/// `n` with Chrome's `sources`: the name taken from the node's content.
fn from_content(mut v: Value) -> Value {
    v["name"]["sources"] = json!([{"type": "attribute", "attribute": "aria-label"}, {"type": "contents", "value": {"type": "computedString", "value": v["name"]["value"]}}]);
    v
}

/// `n` with Chrome's `sources`: the name from an `aria-label`.
fn labelled(mut v: Value) -> Value {
    v["name"]["sources"] = json!([{"type": "attribute", "attribute": "aria-label", "value": {"type": "computedString", "value": v["name"]["value"]}}]);
    v
}

fn link(id: u32, name: &str, url: &str, kids: &[u32]) -> Value {
    with(from_content(n(id, "link", name, kids)), &[("url", json!(url))])
}

#[test]
fn a_heading_is_folded_into_its_link_only_when_both_say_the_same() {
    let t = text(vec![
        root(&[2, 5]),
        with(labelled(n(2, "heading", "Release notes for 2.0", &[3])), &[("level", json!(2))]),
        link(3, "Release notes", "https://site.test/v2", &[4]),
        n(4, "StaticText", "Release notes", &[]),
        with(from_content(n(5, "heading", "Changelog", &[6])), &[("level", json!(2))]),
        link(6, "Changelog", "https://site.test/log", &[7]),
        n(7, "StaticText", "Changelog", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}## Release notes for 2.0 A0 [Release notes](/v2)\n## A1 [Changelog](/log)\n"));
}

#[test]
fn a_named_container_says_its_name_unless_the_line_below_does() {
    let item = |id: u32, text_id: u32, words: &str| vec![n(id, "listitem", "", &[text_id]), n(text_id, "StaticText", words, &[])];
    let mut nodes = vec![
        root(&[2, 7, 10]),
        labelled(n(2, "list", "Shipping options", &[3, 5])),
    ];
    nodes.extend(item(3, 4, "Standard"));
    nodes.extend(item(5, 6, "Express"));
    // A region labelled by its own heading: the heading says it.
    nodes.push(labelled(n(7, "region", "Features", &[8])));
    nodes.push(with(from_content(n(8, "heading", "Features", &[9])), &[("level", json!(2))]));
    nodes.push(n(9, "StaticText", "Features", &[]));
    nodes.push(labelled(n(10, "navigation", "Contents", &[11, 12])));
    nodes.push(n(11, "StaticText", "Contents", &[]));
    nodes.push(link(12, "Intro", "https://site.test/a/page?x=1#intro", &[]));
    let t = text(nodes);
    assert_eq!(
        t,
        format!("{HEAD}list \"Shipping options\"\n - Standard\n - Express\n## Features\nnav \"Contents\"\n A0 #[Intro]\n")
    );
}

#[test]
fn a_table_header_title_follows_its_words_once() {
    let sortable = |id: u32, text_id: u32, words: &str| {
        let mut h = n(id, "columnheader", words, &[text_id]);
        h["description"] = json!({"type": "computedString", "value": "Sort ascending"});
        vec![h, n(text_id, "StaticText", words, &[])]
    };
    let mut nodes = vec![root(&[2]), n(2, "table", "", &[3]), n(3, "row", "", &[4, 6])];
    nodes.extend(sortable(4, 5, "Film"));
    nodes.extend(sortable(6, 7, "Year"));
    let t = text(nodes);
    assert_eq!(t, format!("{HEAD}table\n | Film desc=\"Sort ascending\" | Year\n |-|-\n"));
}

#[test]
fn a_list_items_own_name_follows_its_marker() {
    let mut li = labelled(n(3, "listitem", "featured article badge", &[4]));
    li["name"]["sources"][0]["attribute"] = json!("title");
    let t = text(vec![root(&[2]), n(2, "list", "", &[3]), li, link(4, "Deutsch", "https://de.wikipedia.org/wiki/Microsoft", &[])]);
    assert_eq!(t, format!("{HEAD}- \"featured article badge\" A0 [Deutsch](//de.wikipedia.org/wiki/Microsoft)\n"));
}

#[test]
fn a_link_whose_words_are_its_url_is_an_autolink() {
    let t = text(vec![
        root(&[2]),
        n(2, "paragraph", "", &[3, 4]),
        n(3, "StaticText", "See ", &[]),
        link(4, "https://www.rfc-editor.org/info/rfc9110", "https://www.rfc-editor.org/info/rfc9110", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}See A0 <https://www.rfc-editor.org/info/rfc9110>\n"));
}

#[test]
fn a_field_holding_the_text_printed_just_above_says_so_once() {
    // A paste site: the paste as numbered lines, then its raw text to copy.
    let first: Vec<String> = (0..25).map(|i| format!("alpha{i}")).collect();
    let second: Vec<String> = (0..25).map(|i| format!("beta{i}")).collect();
    let raw = format!("{}\n{}", first.join(" "), second.join(" "));
    let field = |id: u32, value: &str| {
        let mut f = with(n(id, "textbox", "", &[]), &[("multiline", json!(true))]);
        f["value"] = json!({"type": "string", "value": value});
        f
    };
    let page = |value: &str| {
        text(vec![
            root(&[2, 7, 9]),
            n(2, "list", "", &[3, 5]),
            n(3, "listitem", "", &[4]),
            n(4, "StaticText", &first.join(" "), &[]),
            n(5, "listitem", "", &[6]),
            n(6, "StaticText", &second.join(" "), &[]),
            n(7, "StaticText", "Raw paste", &[]),
            field(9, value),
        ])
    };
    assert!(page(&raw).ends_with("\nRaw paste\ntextbox A0: (the text above)\n"), "{}", page(&raw));
    // Another text, or too short a value to be worth it: printed whole.
    let other = raw.replace("beta7", "gamma");
    assert!(page(&other).ends_with(&format!("textbox A0: {}\n", other.replace('\n', "\\n"))));
    assert!(page("alpha0 alpha1").ends_with("textbox A0: alpha0 alpha1\n"));
}

/// A heading a person can focus (a disclosure's, a tab's) has a ref, before
/// its words as every element's.
#[test]
fn a_focusable_headings_ref_comes_before_its_words() {
    let t = text(vec![
        root(&[2]),
        with(n(2, "heading", "Release notes", &[3]), &[("level", json!(2)), ("focusable", json!(true))]),
        n(3, "StaticText", "Release notes", &[]),
    ]);
    assert_eq!(t, format!("{HEAD}## A0 Release notes\n"));
}
