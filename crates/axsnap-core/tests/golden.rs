//! The format pinned on small real pages: the bundled demo page (its saved
//! tree lives here, `golden/demo.ax.json.gz`) and four pages of the shared
//! corpus. After an intended format change:
//! `AXSNAP_UPDATE_GOLDEN=1 cargo test --test golden`, then read the diff.

mod common;

use axsnap_core::{snapshot, Format, Mode, Options, RefTable, SnapshotInput};
use std::io::Read;
use std::path::PathBuf;

const CORPUS_PAGES: &[&str] = &["form-github-login", "form-hautelook-login", "form-bootstrap-checkout", "table-steel-datasheet"];

fn variants() -> Vec<(&'static str, Options)> {
    let capped = Options { max_chars: Some(1500), max_url: Some(64), ..Options::default() };
    let tight = Options { max_chars: Some(500), max_url: Some(64), ..Options::default() };
    vec![
        ("full.txt", Options::default()),
        ("interactive.txt", Options { mode: Mode::Interactive, ..Options::default() }),
        ("capped.txt", capped.clone()),
        ("tight.txt", tight.clone()),
        ("json", Options { format: Format::Json, ..Options::default() }),
        ("capped.json", Options { format: Format::Json, ..capped }),
        ("tight.json", Options { format: Format::Json, max_chars: Some(1200), ..tight }),
    ]
}

fn check(name: &str, json: &str, failures: &mut Vec<String>) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let update = std::env::var("AXSNAP_UPDATE_GOLDEN").is_ok();
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

#[test]
fn the_demo_page_matches_its_golden_output() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/demo.ax.json.gz");
    let mut json = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()).read_to_string(&mut json).unwrap();
    let mut failures = Vec::new();
    check("demo", &json, &mut failures);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn small_corpus_pages_match_their_golden_output() {
    let Some(pages) = common::corpus() else { return };
    let mut failures = Vec::new();
    for name in CORPUS_PAGES {
        let (_, json) = pages.iter().find(|(n, _)| n == name).expect("golden page missing from the corpus");
        check(name, json, &mut failures);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
