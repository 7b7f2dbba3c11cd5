//! The facade where the extension runs it: a service worker.
#![cfg(target_arch = "wasm32")]

mod common;

use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_service_worker);

#[wasm_bindgen_test]
fn snapshot_and_resolve_in_a_service_worker() {
    common::snapshot_from_json_string();
    common::snapshot_of_a_frames_bundle_matches_a_single_tree();
    common::resolve_and_stale_refs();
    common::bad_input_and_options_are_typed_errors();
    common::options_are_honoured();
}

#[wasm_bindgen_test]
fn diff_snapshots_against_the_previous_one() {
    common::diff_snapshots_against_the_previous_one();
}
