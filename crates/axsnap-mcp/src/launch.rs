//! `--launch`: the agent's own browser. Starts a Chromium (headless unless
//! `--headed`) on a fresh profile with the axsnap extension loaded, and pairs
//! it with this server: the setting the side panel would write (allowed, this
//! server's port, the token) is written into the extension's storage over
//! Chromium's DevTools pipe (`--remote-debugging-pipe`, file descriptors 3
//! and 4), so the token never shows on a command line, and no port is opened
//! for other programs to drive the browser. The browser and its profile go
//! when the server ends.

// Handing file descriptors 3 and 4 to a child is Unix's: elsewhere `start`
// only says that `--launch` is not there, and the rest stays compiled (and
// unused) so that a change breaking it fails on every platform's build.
#![cfg_attr(not(unix), allow(dead_code, unused_imports))]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The extension's id (pinned by the manifest's key).
pub const EXTENSION_ID: &str = "igfmikjflpmjjplejblhobglmclempkh";
/// How long the extension's service worker may take to start.
const START_WAIT: Duration = Duration::from_secs(30);

#[derive(Debug, PartialEq, Eq, Clone)]
pub struct Launch {
    pub headed: bool,
    /// The Chromium to run: `--chromium` or AXSNAP_CHROMIUM, else the first of the usual names on PATH.
    pub chromium: Option<PathBuf>,
    /// The unpacked extension (the directory with manifest.json): `--extension` or AXSNAP_EXTENSION, else this repository.
    pub extension: Option<PathBuf>,
}

/// A running launched browser: ended, and its profile removed, when dropped.
pub struct Browser {
    child: Child,
    profile: PathBuf,
    /// Kept open: Chromium ends its DevTools pipe session (not the browser) when it closes.
    _pipe: (std::fs::File, BufReader<std::fs::File>),
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        // Its helper processes may still write into the profile for a moment after the browser ended.
        for _ in 0..20 {
            if std::fs::remove_dir_all(&self.profile).is_ok() || !self.profile.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// The names Chromium goes by on PATH, in the order they are tried.
const NAMES: [&str; 5] = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"];

pub fn find_chromium(given: Option<&Path>, path: Option<&str>) -> Result<PathBuf, String> {
    if let Some(p) = given {
        return if p.is_file() { Ok(p.to_path_buf()) } else { Err(format!("no Chromium at {}", p.display())) };
    }
    for dir in std::env::split_paths(path.unwrap_or("")) {
        for name in NAMES {
            let p = dir.join(name);
            if p.is_file() {
                return Ok(p);
            }
        }
    }
    Err(format!("no Chromium found on PATH (looked for {}): pass --chromium PATH or set AXSNAP_CHROMIUM", NAMES.join(", ")))
}

/// This repository's root, where the extension's manifest is, when the binary was built from it.
fn default_extension() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Chromium's arguments: nothing secret goes here.
pub fn arguments(l: &Launch, extension: &Path, profile: &Path) -> Vec<String> {
    let ext = extension.display();
    let mut args = vec![
        format!("--user-data-dir={}", profile.display()),
        "--remote-debugging-pipe".into(),
        "--no-first-run".into(),
        "--no-default-browser-check".into(),
        "--disable-background-networking".into(),
        "--disable-component-update".into(),
        "--disable-sync".into(),
        format!("--disable-extensions-except={ext}"),
        format!("--load-extension={ext}"),
    ];
    if !l.headed {
        args.push("--headless".into());
    }
    // As root (containers, CI) Chromium runs only without its sandbox.
    if cfg!(unix) && unsafe_is_root() {
        args.push("--no-sandbox".into());
    }
    args.push("about:blank".into());
    args
}

#[cfg(unix)]
fn unsafe_is_root() -> bool {
    std::fs::metadata("/proc/self").map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0).unwrap_or(false)
}

#[cfg(not(unix))]
fn unsafe_is_root() -> bool {
    false
}

/// Starts the browser and pairs its extension with the server on `port`.
#[cfg(unix)]
pub fn start(l: &Launch, port: u16, token: &str) -> Result<Browser, String> {
    use std::os::fd::{AsRawFd, OwnedFd};
    use std::os::unix::process::CommandExt;

    let chromium = find_chromium(l.chromium.as_deref(), std::env::var("PATH").ok().as_deref())?;
    let extension = l.extension.clone().unwrap_or_else(default_extension);
    if !extension.join("manifest.json").is_file() {
        return Err(format!("no extension at {} (no manifest.json): pass --extension DIR", extension.display()));
    }
    let profile = std::env::temp_dir().join(format!("axsnap-mcp-browser-{}-{port}", std::process::id()));
    std::fs::create_dir_all(&profile).map_err(|e| format!("{}: {e}", profile.display()))?;
    // fd 3: what Chromium reads (our commands); fd 4: what it writes (answers and events).
    let (to_read, to_write) = std::io::pipe().map_err(|e| e.to_string())?;
    let (from_read, from_write) = std::io::pipe().map_err(|e| e.to_string())?;
    let (cmd_fd, out_fd) = (OwnedFd::from(to_read), OwnedFd::from(from_write));
    let (cmd_raw, out_raw) = (cmd_fd.as_raw_fd(), out_fd.as_raw_fd());
    let mut command = Command::new(&chromium);
    command.args(arguments(l, &extension, &profile)).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
    // SAFETY: between fork and exec only dup2 and prctl, which are async-signal-safe; dup2 clears close-on-exec on 3 and 4.
    unsafe {
        command.pre_exec(move || {
            if libc::dup2(cmd_raw, 3) < 0 || libc::dup2(out_raw, 4) < 0 {
                return Err(std::io::Error::last_os_error());
            }
            // The browser ends with the server, even one killed without a chance to end it.
            #[cfg(target_os = "linux")]
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            Ok(())
        });
    }
    let child = command.spawn().map_err(|e| format!("could not start {}: {e}", chromium.display()))?;
    drop((cmd_fd, out_fd));
    let writer = std::fs::File::from(OwnedFd::from(to_write));
    let reader = BufReader::new(std::fs::File::from(OwnedFd::from(from_read)));
    let mut browser = Browser { child, profile, _pipe: (writer, reader) };
    pair(&mut browser, port, token)?;
    Ok(browser)
}

#[cfg(not(unix))]
pub fn start(_: &Launch, _: u16, _: &str) -> Result<Browser, String> {
    Err("--launch works on Linux and macOS".into())
}

/// The DevTools pipe: one JSON message per NUL-terminated chunk.
struct Pipe<'a> {
    out: &'a mut std::fs::File,
    input: &'a mut BufReader<std::fs::File>,
    next: u64,
}

impl Pipe<'_> {
    fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Result<Value, String> {
        self.next += 1;
        let id = self.next;
        let mut msg = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        let mut bytes = serde_json::to_vec(&msg).map_err(|e| e.to_string())?;
        bytes.push(0);
        self.out.write_all(&bytes).map_err(|e| format!("the browser closed its DevTools pipe: {e}"))?;
        loop {
            let mut chunk = Vec::new();
            let n = self.input.read_until(0, &mut chunk).map_err(|e| e.to_string())?;
            if n == 0 {
                return Err("the browser ended before it was paired".into());
            }
            chunk.pop();
            let answer: Value = serde_json::from_slice(&chunk).map_err(|e| e.to_string())?;
            if answer["id"].as_u64() != Some(id) {
                continue; // an event, or an answer to nobody
            }
            if let Some(e) = answer.get("error") {
                return Err(format!("{method}: {}", e["message"].as_str().unwrap_or("failed")));
            }
            return Ok(answer["result"].clone());
        }
    }
}

/// Writes the pairing into the extension's storage, from its own service worker.
fn pair(b: &mut Browser, port: u16, token: &str) -> Result<(), String> {
    let (out, input) = (&mut b._pipe.0, &mut b._pipe.1);
    let mut pipe = Pipe { out, input, next: 0 };
    let worker_url = format!("chrome-extension://{EXTENSION_ID}/");
    let until = Instant::now() + START_WAIT;
    let target = loop {
        let targets = pipe.call(None, "Target.getTargets", json!({}))?;
        let found = targets["targetInfos"].as_array().and_then(|all| {
            all.iter()
                .find(|t| t["type"] == "service_worker" && t["url"].as_str().is_some_and(|u| u.starts_with(&worker_url)))
                .and_then(|t| t["targetId"].as_str().map(str::to_string))
        });
        if let Some(t) = found {
            break t;
        }
        if Instant::now() > until {
            return Err(format!("the axsnap extension's service worker did not start within {} s", START_WAIT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let attached = pipe.call(None, "Target.attachToTarget", json!({"targetId": target, "flatten": true}))?;
    let session = attached["sessionId"].as_str().ok_or("no session for the extension's worker")?.to_string();
    // The setting as the side panel writes it (agent_setting.js), and that this browser is the agent's own.
    let setting = json!({"enabled": true, "url": format!("ws://127.0.0.1:{port}"), "token": token, "own": true});
    // The worker's target shows before its script has run: until then it has no `chrome`.
    let expression = format!("globalThis.chrome?.storage ? chrome.storage.local.set({{mcp: {setting}}}).then(() => true) : false");
    loop {
        let r = pipe.call(Some(&session), "Runtime.evaluate", json!({"expression": expression, "awaitPromise": true, "returnByValue": true}))?;
        if r["result"]["value"] == json!(true) {
            break;
        }
        if Instant::now() > until {
            let why = r["exceptionDetails"]["text"].as_str().unwrap_or("its storage did not answer");
            return Err(format!("the extension did not take the pairing: {why}"));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let _ = pipe.call(None, "Target.detachFromTarget", json!({"sessionId": session}));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_holds_no_token_and_opens_no_port() {
        let l = Launch { headed: false, chromium: None, extension: None };
        let args = arguments(&l, Path::new("/ext"), Path::new("/tmp/p")).join(" ");
        assert!(args.contains("--remote-debugging-pipe") && args.contains("--load-extension=/ext") && args.contains("--headless"));
        assert!(!args.contains("remote-debugging-port") && !args.contains("token"), "{args}");
        let headed = arguments(&Launch { headed: true, ..l }, Path::new("/ext"), Path::new("/tmp/p")).join(" ");
        assert!(!headed.contains("--headless"));
    }

    #[test]
    fn chromium_is_found_on_path_or_named() {
        let dir = std::env::temp_dir().join(format!("axsnap-find-chromium-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("chromium-browser"), "").unwrap();
        assert_eq!(find_chromium(None, dir.to_str()).unwrap(), dir.join("chromium-browser"));
        assert!(find_chromium(None, Some("/nonexistent")).unwrap_err().contains("--chromium"));
        assert!(find_chromium(Some(&dir.join("nope")), None).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
