//! `fuzz`: the long run of the secret-canary fuzzer (see the crate's docs).
//!
//!     npm run fuzz
//!     cargo run --release -p axsnap-fuzz --bin fuzz -- [--execs 10000000] [--seed 1] [--from 0] [--corpus DIR]
//!
//! Exits 1 on the first failure, printing how to replay it alone; `--dump`
//! prints the input and facts of execution `--from` instead of running.

use axsnap_fuzz::{corpus_dir, dump, run, Seeds, CURRENT};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| args.iter().position(|a| a == flag).and_then(|i| args.get(i + 1));
    let number = |flag: &str, default: u64| value(flag).map_or(Ok(default), |v| v.replace('_', "").parse::<u64>().map_err(|_| format!("{flag} needs a whole number")));
    let parsed = (|| Ok::<_, String>((number("--execs", 10_000_000)?, number("--seed", 1)?, number("--from", 0)?, number("--per-page", 40)?)))();
    let (execs, seed, from, per_page) = match parsed {
        Ok(p) => p,
        Err(e) => {
            eprintln!("fuzz: {e}\nusage: fuzz [--execs N] [--seed N] [--from I] [--per-page N] [--corpus DIR]");
            return ExitCode::from(2);
        }
    };
    let Some(dir) = value("--corpus").map(PathBuf::from).or_else(corpus_dir) else {
        eprintln!("fuzz: the shared corpus was not found: pass --corpus DIR or set AXSNAP_CORPUS");
        return ExitCode::from(2);
    };
    let started = Instant::now();
    let seeds = match Seeds::from_corpus(&dir, 1, per_page as usize) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("fuzz: {e}");
            return ExitCode::from(2);
        }
    };
    eprintln!("fuzz: {} fragments from {} in {:.1} s; seed {seed}, executions {from}..{}", seeds.len(), dir.display(), started.elapsed().as_secs_f64(), from + execs);
    if args.iter().any(|a| a == "--dump") {
        println!("{}", dump(&seeds, seed, from));
        return ExitCode::SUCCESS;
    }
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let at = CURRENT.load(std::sync::atomic::Ordering::Relaxed);
        eprintln!("fuzz: PANIC at execution {at} (seed {seed})");
        eprintln!("replay: cargo run --release -p axsnap-fuzz --bin fuzz -- --seed {seed} --from {at} --execs 1");
        default_hook(info);
    }));
    let started = Instant::now();
    let every = (execs / 20).clamp(1, 500_000);
    let result = run(&seeds, seed, from, execs, every, |done| {
        let s = started.elapsed().as_secs_f64();
        eprintln!("fuzz: {done} executions, no failure, {:.0} s ({:.0}/s)", s, done as f64 / s);
    });
    match result {
        Ok(done) => {
            let s = started.elapsed().as_secs_f64();
            println!("fuzz: {done} executions, 0 failures, {s:.0} s ({:.0}/s), seed {seed}", done as f64 / s);
            ExitCode::SUCCESS
        }
        Err(f) => {
            println!("fuzz: FAILED at execution {} (seed {seed}): {}", f.iteration, f.what);
            println!("replay: cargo run --release -p axsnap-fuzz --bin fuzz -- --seed {seed} --from {} --execs 1", f.iteration);
            ExitCode::FAILURE
        }
    }
}
