//! The binary's contract: snapshot on stdout, one-line errors, exit 2.

use std::io::Write;
use std::process::{Command, Stdio};

fn axsnap(args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_axsnap"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The binary may exit on a bad flag before reading stdin.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

const PAGE: &str = r#"{"nodes":[
 {"nodeId":"1","role":{"type":"internalRole","value":"RootWebArea"},"name":{"type":"computedString","value":"Hi"},"childIds":["2"],"backendDOMNodeId":1},
 {"nodeId":"2","role":{"type":"role","value":"button"},"name":{"type":"computedString","value":"Go"},"childIds":[],"backendDOMNodeId":2}]}"#;

#[test]
fn prints_a_snapshot_from_stdin() {
    let (code, out, _) = axsnap(&["-"], PAGE);
    assert_eq!(code, 0);
    assert_eq!(out, "page \"Hi\"\nbutton A0 \"Go\"\n");
}

#[test]
fn stats_go_to_stderr() {
    let (code, _, err) = axsnap(&["--stats", "-"], PAGE);
    assert_eq!(code, 0);
    assert!(err.starts_with("nodes_in=2 nodes_out=2 refs=1 lines=2"), "{err}");
}

#[test]
fn json_format() {
    let (code, out, _) = axsnap(&["--format", "json", "-"], PAGE);
    assert_eq!(code, 0);
    assert_eq!(out.trim(), r#"[[0,"page","Hi",null,null],[1,"button","Go",null,"A0"]]"#);
}

#[test]
fn secrets_file_redacts() {
    let dir = std::env::temp_dir().join(format!("axsnap-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let secrets = dir.join("s.json");
    std::fs::write(&secrets, r#"[{"frame":"main","backendNodeId":2,"reason":"password"}]"#).unwrap();
    let (code, out, _) = axsnap(&["--secrets", secrets.to_str().unwrap(), "-"], PAGE);
    assert_eq!(code, 0);
    assert!(out.contains("button A0 \"Go\" secret=password\n"), "{out}");
}

#[test]
fn bad_input_exits_2_with_one_line() {
    for (args, stdin) in [
        (vec!["-"], "not json"),
        (vec!["-"], "{\"nodes\":[]}"),
        (vec!["/no/such/file.json"], ""),
        (vec!["--mode", "sideways", "-"], PAGE),
        (vec!["--max-chars", "lots", "-"], PAGE),
        (vec![], ""),
    ] {
        let (code, out, err) = axsnap(&args, stdin);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert!(err.starts_with("axsnap: "), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_reader_that_stops_early_is_not_a_panic() {
    let kids: Vec<String> = (2..4000).map(|i| format!("\"{i}\"")).collect();
    let mut nodes = vec![format!(
        r#"{{"nodeId":"1","role":{{"value":"RootWebArea"}},"childIds":[{}],"backendDOMNodeId":1}}"#,
        kids.join(",")
    )];
    for i in 2..4000 {
        nodes.push(format!(r#"{{"nodeId":"{i}","role":{{"value":"button"}},"name":{{"value":"Button number {i}"}},"backendDOMNodeId":{i}}}"#));
    }
    let page = format!(r#"{{"nodes":[{}]}}"#, nodes.join(","));
    let mut child = Command::new(env!("CARGO_BIN_EXE_axsnap"))
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let _ = child.stdin.take().unwrap().write_all(page.as_bytes());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn explain_lists_the_rules_that_decided() {
    let (code, _, err) = axsnap(&["--explain", "-"], PAGE);
    assert_eq!(code, 0);
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), axsnap_core::rules::RULES.len(), "one line per rule: {err}");
    assert_eq!(lines[0], "      0  drop-inline-text-boxes: an InlineTextBox is a layout slice of its parent StaticText, which carries the same text");
    assert!(lines[1].starts_with("      0  keep-clickable: "), "{err}");
    assert!(lines[2].starts_with("      1  keep-actionable: "), "{err}");
}

#[test]
fn option_flags_go_through_the_core_parser() {
    let (code, _, err) = axsnap(&["--mode", "sideways", "-"], PAGE);
    assert_eq!((code, err.as_str()), (2, "axsnap: option mode is \"full\" or \"interactive\", not \"sideways\"\n"));
    let (code, _, err) = axsnap(&["--max-chars", "lots", "-"], PAGE);
    assert_eq!((code, err.as_str()), (2, "axsnap: --max-chars needs a whole number\n"));
    // 0 means no limit, here as in the extension: text is not clipped to nothing.
    let (code, out, _) = axsnap(&["--max-text", "0", "-"], PAGE);
    assert_eq!((code, out.as_str()), (0, "page \"Hi\"\nbutton A0 \"Go\"\n"));
}

#[test]
fn diff_prints_what_changed_between_two_dumps() {
    let dir = std::env::temp_dir().join(format!("axsnap-diff-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (old, new) = (dir.join("old.json"), dir.join("new.json"));
    // The page has more than the button, or a diff would not be worth it.
    let text: Vec<String> = (3..13)
        .map(|i| format!(r#"{{"nodeId":"{i}","role":{{"type":"role","value":"StaticText"}},"name":{{"type":"computedString","value":"Line {i} of the page, unchanged"}},"backendDOMNodeId":{i}}}"#))
        .collect();
    let ids: Vec<String> = (3..13).map(|i| format!(r#""{i}""#)).collect();
    let page = PAGE.replace(r#""childIds":["2"]"#, &format!(r#""childIds":["2",{}]"#, ids.join(","))).replace("]}", &format!(",{}]}}", text.join(",")));
    std::fs::write(&old, &page).unwrap();
    std::fs::write(&new, page.replace(r#""Go"},"childIds":[]"#, r#""Go"},"properties":[{"name":"disabled","value":{"type":"boolean","value":true}}],"childIds":[]"#)).unwrap();
    let (code, out, err) = axsnap(&["diff", old.to_str().unwrap(), new.to_str().unwrap()], "");
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, "~1\n~ button A0 \"Go\" disabled\n");
    let (code, _, err) = axsnap(&["diff", old.to_str().unwrap()], "");
    assert_eq!((code, err.as_str()), (2, "axsnap: axsnap diff takes two input files: OLD NEW\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}
