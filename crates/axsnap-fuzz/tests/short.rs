//! The short run of the secret-canary fuzzer, part of `cargo test`: a few
//! thousand executions seeded from a sixth of the corpus. The long run is
//! `cargo run --release -p axsnap-fuzz --bin fuzz -- --execs 10000000`.

use axsnap_fuzz::{corpus_dir, run, Seeds};

#[test]
fn canary_secrets_reach_no_output_and_nothing_panics() {
    let seeds = match corpus_dir() {
        Some(dir) => Seeds::from_corpus(&dir, 6, 20).unwrap(),
        None if std::env::var_os("CI").is_some() => panic!("the shared corpus is missing: set AXSNAP_CORPUS"),
        None => {
            eprintln!("WARNING: shared corpus not found (set AXSNAP_CORPUS): fuzzing the built-in page only");
            Seeds::builtin()
        }
    };
    let execs = std::env::var("AXSNAP_FUZZ_EXECS").ok().and_then(|v| v.parse().ok()).unwrap_or(3000);
    if let Err(f) = run(&seeds, 20251123, 0, execs, 0, |_| {}) {
        panic!("execution {} (seed 20251123): {}", f.iteration, f.what);
    }
}

#[test]
fn the_built_in_page_fuzzes_too() {
    run(&Seeds::builtin(), 5, 0, 500, 0, |_| {}).unwrap_or_else(|f| panic!("execution {}: {}", f.iteration, f.what));
}
