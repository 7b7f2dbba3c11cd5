//! The facade in a browser page (headless Chromium via chromedriver).
#![cfg(target_arch = "wasm32")]

mod common;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
fn snapshot_from_json_string() {
    common::snapshot_from_json_string();
}

#[wasm_bindgen_test]
fn snapshot_of_a_frames_bundle_matches_a_single_tree() {
    common::snapshot_of_a_frames_bundle_matches_a_single_tree();
}

#[wasm_bindgen_test]
fn resolve_and_stale_refs() {
    common::resolve_and_stale_refs();
}

#[wasm_bindgen_test]
fn bad_input_and_options_are_typed_errors() {
    common::bad_input_and_options_are_typed_errors();
}

#[wasm_bindgen_test]
fn options_are_honoured() {
    common::options_are_honoured();
}

#[wasm_bindgen_test]
fn diff_snapshots_against_the_previous_one() {
    common::diff_snapshots_against_the_previous_one();
}

#[wasm_bindgen_test]
fn refs_survive_export_and_import() {
    common::refs_survive_export_and_import();
}

#[wasm_bindgen_test]
fn packed_input_reads_as_serde_reads_it() {
    common::packed_input_reads_as_serde_reads_it();
}
