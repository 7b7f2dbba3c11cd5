//! Flags, environment and the stored pairing token.

use crate::launch::Launch;
use crate::pairing::{random_hex, MIN_TOKEN_CHARS};
use std::path::PathBuf;

/// The first port tried when none is given; the next ones serve further agents.
pub const DEFAULT_PORT: u16 = 17373;
/// How many ports from the first one the server tries, and the extension looks at.
pub const PORT_RANGE: u16 = 10;

pub const USAGE: &str = "\
axsnap-mcp: an MCP server (stdio) that drives your own Chrome through the axsnap extension

usage:
  axsnap-mcp [--port N] [--connect-timeout S] [--launch [--headed] [--chromium PATH] [--extension DIR]]
                                       serve MCP on stdin/stdout (what an agent starts)
  axsnap-mcp token                     print the pairing token (to enter in axsnap's side panel)

  --port N   the port on 127.0.0.1 the extension connects to (env AXSNAP_MCP_PORT);
             default: the first free one of 17373-17382, so several agents can run at once
  --connect-timeout S  how long a tool call waits for the extension to connect, in seconds
             (env AXSNAP_MCP_CONNECT_TIMEOUT; default 40)
  --launch   start the agent's own Chromium (headless; --headed shows it) on a fresh profile, with the
             extension loaded and paired with this server; it ends with the server
  --chromium PATH  the Chromium for --launch (env AXSNAP_CHROMIUM; default: chromium, google-chrome… on PATH)
  --extension DIR  the unpacked extension for --launch (env AXSNAP_EXTENSION; default: the repository built from)

  the pairing token: the one in the token file, made on first use and readable by you only
  (env AXSNAP_MCP_TOKEN_FILE, default ~/.config/axsnap/mcp-token), or env AXSNAP_MCP_TOKEN
  (at least 16 characters); never on the command line, which every user of the computer sees";

#[derive(Debug, PartialEq, Eq)]
pub enum Command {
    Serve(Config),
    PrintToken(Config),
    Help,
    Version,
}

#[derive(Debug, PartialEq, Eq)]
pub struct Config {
    /// A port given by flag or environment: bind it or fail; none: the first free of the range.
    pub port: Option<u16>,
    pub token: Option<String>,
    /// How long a tool call waits for the extension to connect, in seconds.
    pub connect_timeout: u64,
    /// `--launch`: the browser to start and pair.
    pub launch: Option<Launch>,
}

/// The default of `--connect-timeout`: a sleeping extension looks for servers every 30 s (an alarm), and
/// Chrome may fire an alarm a little late.
pub const DEFAULT_CONNECT_TIMEOUT: u64 = 40;

/// Parses the arguments (without the program name) and the environment.
pub fn parse(args: &[String], env: impl Fn(&str) -> Option<String>) -> Result<Command, String> {
    let mut port = env("AXSNAP_MCP_PORT");
    let token = env("AXSNAP_MCP_TOKEN");
    let mut wait = env("AXSNAP_MCP_CONNECT_TIMEOUT");
    let mut print_token = false;
    let mut launch = false;
    let mut headed = false;
    let mut chromium = env("AXSNAP_CHROMIUM").filter(|p| !p.is_empty());
    let mut extension = env("AXSNAP_EXTENSION").filter(|p| !p.is_empty());
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |flag: &str| inline.clone().or_else(|| it.next().cloned()).ok_or(format!("{flag} needs a value"));
        match name {
            "--port" => port = Some(value("--port")?),
            // A command line is in every user's process list.
            "--token" => return Err("--token is not taken: a command line shows in every user's process list; set \
                AXSNAP_MCP_TOKEN, or keep the token in the token file (`axsnap-mcp token` makes and prints it)".into()),
            "--connect-timeout" => wait = Some(value("--connect-timeout")?),
            "--launch" => launch = true,
            "--headed" => headed = true,
            "--chromium" => chromium = Some(value("--chromium")?),
            "--extension" => extension = Some(value("--extension")?),
            "token" => print_token = true,
            "-h" | "--help" => return Ok(Command::Help),
            "-V" | "--version" => return Ok(Command::Version),
            other => return Err(format!("unknown argument {other:?} (see --help)")),
        }
    }
    let port = match port.filter(|p| !p.is_empty()) {
        None => None,
        Some(p) => match p.parse::<u16>() {
            Ok(n) if n > 0 => Some(n),
            _ => return Err(format!("the port must be a number from 1 to 65535, not {p:?}")),
        },
    };
    let token = token.map(|t| t.trim().to_string()).filter(|t| !t.is_empty());
    if let Some(t) = &token {
        check_token(t)?;
    }
    let connect_timeout = match wait.filter(|w| !w.is_empty()) {
        None => DEFAULT_CONNECT_TIMEOUT,
        Some(w) => w.parse().map_err(|_| format!("--connect-timeout takes whole seconds, not {w:?}"))?,
    };
    if headed && !launch {
        return Err("--headed is for --launch".into());
    }
    let launch = launch.then(|| Launch { headed, chromium: chromium.map(PathBuf::from), extension: extension.map(PathBuf::from) });
    let config = Config { port, token, connect_timeout, launch };
    Ok(if print_token { Command::PrintToken(config) } else { Command::Serve(config) })
}

fn check_token(t: &str) -> Result<(), String> {
    if t.chars().count() < MIN_TOKEN_CHARS || !t.bytes().all(|b| b.is_ascii_graphic()) {
        return Err(format!("a pairing token has at least {MIN_TOKEN_CHARS} characters, printable ASCII without spaces"));
    }
    Ok(())
}

/// Where the token is kept between runs, so the person pairs once.
pub fn token_file(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    if let Some(f) = env("AXSNAP_MCP_TOKEN_FILE").filter(|f| !f.is_empty()) {
        return Some(PathBuf::from(f));
    }
    let base = env("XDG_CONFIG_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| env("APPDATA").filter(|d| !d.is_empty()).map(PathBuf::from))
        .or_else(|| env("HOME").filter(|d| !d.is_empty()).map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("axsnap").join("mcp-token"))
}

/// The token from the environment, else the stored one, else a new one stored
/// for next time; and a line to log when the stored one had to be made private.
pub fn resolve_token(config: &Config, file: Option<PathBuf>) -> Result<(String, Option<String>), String> {
    if let Some(t) = &config.token {
        return Ok((t.clone(), None));
    }
    let file = file.ok_or("no home directory to keep the pairing token in: set AXSNAP_MCP_TOKEN or AXSNAP_MCP_TOKEN_FILE")?;
    if let Ok(stored) = std::fs::read_to_string(&file) {
        let stored = stored.trim().to_string();
        check_token(&stored).map_err(|e| format!("{}: {e}", file.display()))?;
        let notice = make_private(&file)?;
        return Ok((stored, notice));
    }
    let token = random_hex(16);
    write_private(&file, &token).map_err(|e| format!("could not store the pairing token in {}: {e}", file.display()))?;
    Ok((token, None))
}

/// A token file others may read is made the owner's alone (0600), and said so;
/// one that cannot be is refused: whoever reads the token can drive the browser.
#[cfg(unix)]
fn make_private(file: &PathBuf) -> Result<Option<String>, String> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(file).map_err(|e| format!("{}: {e}", file.display()))?.permissions().mode() & 0o777;
    if mode & 0o077 == 0 {
        return Ok(None);
    }
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600)).map_err(|e| {
        format!("{} can be read by other users (mode {mode:o}) and could not be made private ({e}): fix it with chmod 600", file.display())
    })?;
    Ok(Some(format!(
        "{} could be read by other users (mode {mode:o}): made it private (600); if anyone else may have read it, delete it \
         and pair again with the new token",
        file.display()
    )))
}

#[cfg(not(unix))]
fn make_private(_: &PathBuf) -> Result<Option<String>, String> {
    Ok(None)
}

/// Writes a file only its owner can read.
fn write_private(file: &PathBuf, content: &str) -> std::io::Result<()> {
    use std::io::Write;
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut f = options.open(file)?;
    writeln!(f, "{content}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(a: &[&str]) -> Vec<String> {
        a.iter().map(|s| s.to_string()).collect()
    }
    const T: &str = "0123456789abcdef";

    #[test]
    fn flags_win_over_environment() {
        let env = |k: &str| match k {
            "AXSNAP_MCP_PORT" => Some("9000".to_string()),
            "AXSNAP_MCP_TOKEN" => Some("from-the-environment".to_string()),
            _ => None,
        };
        assert_eq!(parse(&args(&[]), env), Ok(Command::Serve(Config { port: Some(9000), token: Some("from-the-environment".into()), connect_timeout: 40, launch: None })));
        assert_eq!(
            parse(&args(&["--port", "9001", "--connect-timeout", "3"]), env),
            Ok(Command::Serve(Config { port: Some(9001), token: Some("from-the-environment".into()), connect_timeout: 3, launch: None }))
        );
        assert_eq!(parse(&args(&["token"]), |_| None), Ok(Command::PrintToken(Config { port: None, token: None, connect_timeout: 40, launch: None })));
        let launched = parse(&args(&["--launch", "--headed", "--chromium", "/usr/bin/chromium"]), |_| None);
        let want = Launch { headed: true, chromium: Some("/usr/bin/chromium".into()), extension: None };
        assert_eq!(launched, Ok(Command::Serve(Config { port: None, token: None, connect_timeout: 40, launch: Some(want) })));
        assert!(parse(&args(&["--headed"]), |_| None).is_err(), "--headed alone says it is for --launch");
    }

    #[test]
    fn bad_flags_say_what_is_wrong() {
        assert!(parse(&args(&["--port", "0"]), |_| None).unwrap_err().contains("1 to 65535"));
        assert!(parse(&args(&["--port"]), |_| None).unwrap_err().contains("needs a value"));
        assert!(parse(&args(&[]), |k| (k == "AXSNAP_MCP_TOKEN").then(|| "short".into())).unwrap_err().contains("at least 16"));
        assert!(parse(&args(&["--bogus"]), |_| None).unwrap_err().contains("unknown argument"));
        assert!(parse(&args(&["--connect-timeout", "soon"]), |_| None).unwrap_err().contains("whole seconds"));
    }

    #[test]
    fn the_token_is_never_taken_from_the_command_line() {
        let inline = format!("--token={T}");
        for a in [vec!["--token", T], vec![inline.as_str()], vec!["token", "--token", T]] {
            let err = parse(&args(&a), |_| None).unwrap_err();
            assert!(err.contains("process list") && err.contains("AXSNAP_MCP_TOKEN"), "{err}");
            assert!(!err.contains(T), "the error does not repeat the token");
        }
        assert!(!USAGE.contains("--token"));
    }

    #[cfg(unix)]
    #[test]
    fn a_token_file_others_can_read_is_made_private_and_said_so() {
        use std::os::unix::fs::PermissionsExt;
        let dir = std::env::temp_dir().join(format!("axsnap-mcp-test-{}", random_hex(8)));
        let file = dir.join("mcp-token");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(&file, format!("{T}\n")).unwrap();
        let config = Config { port: None, token: None, connect_timeout: 30, launch: None };
        for mode in [0o644, 0o640, 0o604] {
            std::fs::set_permissions(&file, std::fs::Permissions::from_mode(mode)).unwrap();
            let (token, notice) = resolve_token(&config, Some(file.clone())).unwrap();
            assert_eq!(token, T);
            let notice = notice.expect("said so");
            assert!(notice.contains(&format!("mode {mode:o}")) && notice.contains("made it private"), "{notice}");
            assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
        }
        assert_eq!(resolve_token(&config, Some(file.clone())).unwrap(), (T.to_string(), None), "a private file: nothing to say");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_token_is_made_once_and_kept() {
        let dir = std::env::temp_dir().join(format!("axsnap-mcp-test-{}", random_hex(8)));
        let file = dir.join("axsnap").join("mcp-token");
        let config = Config { port: None, token: None, connect_timeout: 30, launch: None };
        let (first, _) = resolve_token(&config, Some(file.clone())).unwrap();
        assert_eq!(first.len(), 32);
        assert_eq!(resolve_token(&config, Some(file.clone())).unwrap(), (first, None));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
        }
        let given = Config { port: None, token: Some(T.into()), connect_timeout: 30, launch: None };
        assert_eq!(resolve_token(&given, Some(file)).unwrap().0, T);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_token_file_follows_the_platform_convention() {
        let env = |k: &str| (k == "HOME").then(|| "/home/ada".to_string());
        assert_eq!(token_file(env), Some(PathBuf::from("/home/ada/.config/axsnap/mcp-token")));
        let env = |k: &str| (k == "AXSNAP_MCP_TOKEN_FILE").then(|| "/tmp/t".to_string());
        assert_eq!(token_file(env), Some(PathBuf::from("/tmp/t")));
    }
}
