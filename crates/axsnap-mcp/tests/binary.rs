//! The binary's contract on its command line: what it prints, and exit 2
//! with one line on stderr for what it refuses.
//!
//! Also why `cargo test --workspace` builds `target/debug/axsnap-mcp` (a
//! package's binaries are built for its integration tests): the end-to-end
//! tests drive that file, and building it again alone (`cargo build -p
//! axsnap-mcp`) would compile rmcp, tokio and their dependencies a second
//! time, with the features of one package instead of the workspace's.

use std::process::{Command, Output};

fn axsnap_mcp(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_axsnap-mcp"));
    c.args(args).env_remove("AXSNAP_MCP_TOKEN").env_remove("AXSNAP_MCP_PORT").env_remove("AXSNAP_MCP_TOKEN_FILE");
    for (k, v) in env {
        c.env(k, v);
    }
    c.output().unwrap()
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn version_and_help_go_to_stdout() {
    let v = axsnap_mcp(&["--version"], &[]);
    assert_eq!(v.status.code(), Some(0));
    assert_eq!(text(&v.stdout), format!("axsnap-mcp {}\n", env!("CARGO_PKG_VERSION")));
    let h = axsnap_mcp(&["--help"], &[]);
    assert_eq!(h.status.code(), Some(0));
    assert!(text(&h.stdout).contains("axsnap-mcp token"), "{}", text(&h.stdout));
}

#[test]
fn token_prints_the_one_from_the_environment() {
    let out = axsnap_mcp(&["token"], &[("AXSNAP_MCP_TOKEN", "0123456789abcdef0123")]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "0123456789abcdef0123\n");
}

#[test]
fn refusals_exit_2_with_one_line() {
    for (args, env, says) in [
        (&["--bogus"][..], &[][..], "unknown argument"),
        (&["--token", "0123456789abcdef0123"][..], &[][..], "--token is not taken"),
        (&["token"][..], &[("AXSNAP_MCP_TOKEN", "short")][..], "at least 16"),
    ] {
        let out = axsnap_mcp(args, env);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(err.starts_with("axsnap-mcp: ") && err.contains(says) && err.trim_end().lines().count() == 1, "{args:?}: {err}");
    }
}
