//! The format pinned on a few small real pages of the corpus. After an
//! intended format change: `AXSNAP_UPDATE_GOLDEN=1 cargo test --test golden`,
//! then read the diff.

mod common;

use axsnap_core::{snapshot, Format, Mode, Options, RefTable, SnapshotInput};
use std::path::PathBuf;

const PAGES: &[&str] = &["form-github-login", "form-hautelook-login", "form-bootstrap-checkout", "table-steel-datasheet"];

fn variants() -> Vec<(&'static str, Options)> {
    vec![
        ("full.txt", Options::default()),
        ("interactive.txt", Options { mode: Mode::Interactive, ..Options::default() }),
        ("capped.txt", Options { max_chars: Some(1500), max_url: Some(64), ..Options::default() }),
        ("json", Options { format: Format::Json, ..Options::default() }),
    ]
}

#[test]
fn small_real_pages_match_their_golden_output() {
    let Some(pages) = common::corpus() else { return };
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let update = std::env::var("AXSNAP_UPDATE_GOLDEN").is_ok();
    let mut failures = Vec::new();
    for name in PAGES {
        let (_, json) = pages.iter().find(|(n, _)| n == name).expect("golden page missing from the corpus");
        let input = SnapshotInput::from_json(json).unwrap();
        for (suffix, options) in variants() {
            let got = snapshot(&input, &[], &options, &mut RefTable::new()).unwrap().text;
            let path = dir.join(format!("{name}.{suffix}"));
            if update {
                std::fs::write(&path, &got).unwrap();
                continue;
            }
            let want = std::fs::read_to_string(&path).unwrap_or_default();
            if got != want {
                failures.push(format!("{}:\n--- want\n{want}\n--- got\n{got}", path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
