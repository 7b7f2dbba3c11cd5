#![allow(dead_code)]
//! Helpers shared by the integration tests.

use std::io::Read;
use std::path::PathBuf;

/// The shared corpus of saved CDP trees (`AXSNAP_CORPUS`, else `../shared`
/// beside the checkout), or None when absent: a checkout elsewhere skips
/// these tests with a warning, but under CI (`CI` set) a missing corpus
/// fails them.
pub fn corpus() -> Option<Vec<(String, String)>> {
    let candidates = [
        std::env::var("AXSNAP_CORPUS").map(PathBuf::from).ok(),
        Some(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/ax")),
        Some(PathBuf::from("/work/shared/corpus/ax")),
    ];
    let Some(entries) = candidates.into_iter().flatten().find_map(|d| std::fs::read_dir(&d).ok()) else {
        assert!(std::env::var_os("CI").is_none(), "CI: the shared corpus is missing (set AXSNAP_CORPUS)");
        eprintln!("WARNING: shared corpus not found (set AXSNAP_CORPUS): corpus tests skipped");
        return None;
    };
    let mut pages: Vec<(String, String)> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json.gz"))
        .map(|e| {
            let mut s = String::new();
            flate2::read::GzDecoder::new(std::fs::File::open(e.path()).unwrap())
                .read_to_string(&mut s)
                .unwrap();
            (e.file_name().to_string_lossy().replace(".json.gz", ""), s)
        })
        .collect();
    pages.sort();
    Some(pages)
}

/// Every `A<n>` ref token in a text, in order.
pub fn refs_in(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let boundary = i == 0 || matches!(b[i - 1], b' ' | b'\n' | b'|');
        if b[i] == b'A' && boundary {
            let mut j = i + 1;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            let end_ok = j == b.len() || matches!(b[j], b' ' | b'\n' | b'|' | b':');
            if j > i + 1 && end_ok {
                out.push(text[i..j].to_string());
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

/// The refs of JSON-format rows: each row's own, then those of twin links
/// folded into it (`props.also`).
pub fn refs_in_rows(rows: &[serde_json::Value]) -> Vec<&str> {
    rows.iter()
        .flat_map(|r| r[4].as_str().into_iter().chain(r[3]["also"].as_array().into_iter().flatten().filter_map(|a| a.as_str())))
        .collect()
}

/// The refs a budget note says it left out: `(58 refs)` or `with 96 refs`.
pub fn refs_in_note(note: &str) -> usize {
    let Some(at) = note.find(" refs") else { return 0 };
    note[..at].rsplit(['(', ' ']).next().and_then(|n| n.parse().ok()).unwrap_or(0)
}
