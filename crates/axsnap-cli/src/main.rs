//! `axsnap`: prints the snapshot of a saved `getFullAXTree` response.
//! Flags in, core call, text out; exit 2 on bad input.

use axsnap_core::{Defaults, FieldFacts, Format, Options, Previous, RefTable, SnapshotInput};
use std::io::{Read, Write};
use std::process::ExitCode;
use std::time::Instant;

const USAGE: &str = "usage: axsnap [--mode full|interactive] [--max-chars N] [--max-depth N] [--max-text N] [--max-url N]
              [--format text|json] [--secrets FILE] [--stats] [--explain] FILE|FILE.gz|-
       axsnap diff [flags] OLD NEW

Prints a compact snapshot of a saved CDP Accessibility.getFullAXTree response
(or of {\"frames\":[{key,parent,owner,nodes}]}). Refs (A0, A1, …) mark what an
agent can act on. --secrets gives the text fields' DOM facts, or names secret
fields: [{frame, backendNodeId, reason}] (see the README's Secrets section).
--explain lists on stderr each distill rule, how many nodes it decided on this
page, and why it is safe. `axsnap diff OLD NEW` prints what changed from the
first dump to the second (or the second in full, saying why on stderr).";

struct Args {
    options: Options,
    secrets: Option<String>,
    stats: bool,
    explain: bool,
    /// `axsnap diff OLD NEW`: the old dump.
    before: Option<String>,
    input: String,
}

/// Flags that set an option, and the option key the core parses them as.
const OPTION_FLAGS: &[(&str, &str, bool)] = &[
    ("--mode", "mode", false),
    ("--format", "format", false),
    ("--max-chars", "maxChars", true),
    ("--max-depth", "maxDepth", true),
    ("--max-text", "maxText", true),
    ("--max-url", "maxUrl", true),
];

fn parse_args(argv: &[String]) -> Result<Args, String> {
    let mut given = serde_json::Map::new();
    let (mut secrets, mut stats, mut explain) = (None, false, false);
    let mut inputs = Vec::new();
    let is_diff = argv.first().is_some_and(|a| a == "diff");
    let mut it = argv.iter().skip(usize::from(is_diff));
    while let Some(a) = it.next() {
        if let Some(&(flag, key, numeric)) = OPTION_FLAGS.iter().find(|(f, _, _)| f == a) {
            let v = it.next().ok_or(format!("{flag} needs a value"))?;
            let v = match numeric {
                true => serde_json::Value::from(v.parse::<u64>().map_err(|_| format!("{flag} needs a whole number"))?),
                false => serde_json::Value::from(v.as_str()),
            };
            given.insert(key.to_string(), v);
            continue;
        }
        match a.as_str() {
            "--secrets" => secrets = Some(it.next().ok_or("--secrets needs a file")?.clone()),
            "--stats" => stats = true,
            "--explain" => explain = true,
            "-h" | "--help" => return Err(String::new()),
            s if s.starts_with("--") => return Err(format!("unknown flag {s}")),
            s => inputs.push(s.to_string()),
        }
    }
    if is_diff {
        given.insert("diff".into(), true.into());
    }
    let options = Options::from_value(&given.into(), Defaults::Uncapped).map_err(|e| e.message)?;
    let (before, input) = match (is_diff, inputs.len()) {
        (false, 1) => (None, inputs.remove(0)),
        (false, 0) => return Err("no input file (use - for stdin)".into()),
        (false, _) => return Err("give one input file".into()),
        (true, 2) => (Some(inputs.remove(0)), inputs.remove(0)),
        (true, _) => return Err("axsnap diff takes two input files: OLD NEW".into()),
    };
    Ok(Args { options, secrets, stats, explain, before, input })
}

fn read_input(path: &str) -> Result<String, String> {
    let mut bytes = Vec::new();
    if path == "-" {
        std::io::stdin().read_to_end(&mut bytes).map_err(|e| format!("stdin: {e}"))?;
    } else {
        bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    }
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_end(&mut out)
            .map_err(|e| format!("{path}: not valid gzip: {e}"))?;
        bytes = out;
    }
    String::from_utf8(bytes).map_err(|_| format!("{path}: not UTF-8 text"))
}

fn run(argv: &[String]) -> Result<(), String> {
    let args = parse_args(argv)?;
    let text = read_input(&args.input)?;
    let facts: Vec<FieldFacts> = match &args.secrets {
        // The error gives the position only: a facts file may hold values.
        Some(path) => serde_json::from_str(&read_input(path)?).map_err(|e| {
            format!("{path}: not a list of field facts like {{frame, backendNodeId, reason}} (line {}, column {})", e.line(), e.column())
        })?,
        None => Vec::new(),
    };
    let started = Instant::now();
    let input = SnapshotInput::from_json(&text).map_err(|e| format!("{}: {}", args.input, e.message))?;
    let parsed = started.elapsed();
    let mut refs = RefTable::new();
    let mut previous = Previous::default();
    if let Some(before) = &args.before {
        let old = SnapshotInput::from_json(&read_input(before)?).map_err(|e| format!("{before}: {}", e.message))?;
        let first = Options { diff: false, ..args.options.clone() };
        axsnap_core::snapshot_since(&old, &facts, &first, &mut refs, &mut previous)
            .map_err(|e| format!("{before}: {}", e.message))?;
    }
    let snap = axsnap_core::snapshot_since(&input, &facts, &args.options, &mut refs, &mut previous)
        .map_err(|e| format!("{}: {}", args.input, e.message))?;
    if let Some(reason) = snap.diff.as_ref().and_then(|d| d.reason) {
        eprintln!("axsnap: the full snapshot, not a diff: {reason}");
    }
    let total = started.elapsed();
    let mut out = std::io::stdout().lock();
    let newline = if args.options.format == Format::Json { "\n" } else { "" };
    let written = out.write_all(snap.text.as_bytes()).and_then(|_| out.write_all(newline.as_bytes())).and_then(|_| out.flush());
    match written {
        // The reader stopped early (`| head`): nothing left to say.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(()),
        Err(e) => return Err(format!("stdout: {e}")),
        Ok(()) => {}
    }
    if args.stats {
        let s = &snap.stats;
        eprintln!(
            "nodes_in={} nodes_out={} refs={} lines={} chars={} tokens_est={} truncated_lines={} parse_ms={:.2} total_ms={:.2}",
            s.nodes_in, s.nodes_out, s.refs, s.lines, s.chars, s.tokens_est, s.truncated_lines,
            parsed.as_secs_f64() * 1e3, total.as_secs_f64() * 1e3
        );
    }
    if args.explain {
        for (rule, count) in axsnap_core::rules::RULES.iter().zip(&snap.decisions) {
            eprintln!("{count:>7}  {}: {}", rule.name, rule.why);
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match run(&argv) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) if msg.is_empty() => {
            println!("{USAGE}");
            ExitCode::SUCCESS
        }
        Err(msg) => {
            eprintln!("axsnap: {msg}");
            if argv.is_empty() {
                eprintln!("{USAGE}");
            }
            ExitCode::from(2)
        }
    }
}
