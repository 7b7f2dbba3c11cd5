//! Who may open the bridge: the checks on every WebSocket handshake.
//!
//! Any web page can open a WebSocket to 127.0.0.1, and any local process can
//! listen on a port before this server does, so both sides prove that they
//! hold the pairing token without ever sending it:
//!
//! - the extension offers the subprotocols `axsnap.2` and
//!   `axsnap-auth.<time>.<nonce>.<mac>`, where `mac` is
//!   HMAC-SHA256(token, `axsnap extension <time>.<nonce>`) in hex;
//! - the server accepts only the extension's origin, a fresh time, an unused
//!   nonce and the right mac, and answers (in its first message, the only one
//!   sent in the clear) with a nonce of its own and
//!   HMAC-SHA256(token, `axsnap server <time>.<nonce>.<server nonce>`), which
//!   the extension checks before anything else;
//! - every frame after that is sealed with keys derived from the token and
//!   both nonces (`channel.rs`), so the proofs hold for this connection only:
//!   a program that relays the handshake between the two gets a pipe it can
//!   neither read nor write into.
//!
//! A page fails the origin check (HTTP 403, nothing else); the extension with
//! a wrong token gets a socket that is closed at once with code 4001 and the
//! reason, so the side panel can say so; an extension that speaks only the
//! older `axsnap.1` is told the same way to update; a process without the
//! token fails the mac (server side) or the answer (extension side); a
//! captured handshake cannot be replayed.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::collections::{HashSet, VecDeque};

/// The extension's origin: its id is pinned by the manifest key.
pub const EXTENSION_ORIGIN: &str = "chrome-extension://igfmikjflpmjjplejblhobglmclempkh";
/// The bridge protocol's version, offered and answered as a subprotocol.
pub const PROTOCOL: &str = "axsnap.2";
/// The version before frames were sealed: an extension that offers only it is told to update.
pub const OLD_PROTOCOL: &str = "axsnap.1";
const AUTH_PREFIX: &str = "axsnap-auth.";
/// How far a handshake's time may be from ours (same machine: only latency and a coarse clock).
const MAX_SKEW_SECS: u64 = 120;
/// A token shorter than this is too easy to guess.
pub const MIN_TOKEN_CHARS: usize = 16;

/// Why a handshake was refused. Pages learn only an HTTP status.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Not the axsnap extension (a web page, or no `Origin`).
    Origin(Option<String>),
    /// No bridge subprotocol at all: another program.
    Protocol,
    /// Only `axsnap.1`: an extension from before frames were sealed.
    OldExtension,
    /// No proof, or a malformed one.
    NoProof,
    /// A proof made with another token.
    WrongToken,
    /// A proof older (or newer) than a couple of minutes.
    Expired,
    /// A nonce already used.
    Replayed,
}

impl Refusal {
    /// The HTTP status that refuses the handshake, for callers that are not
    /// the extension at all; `None` for the extension with a bad proof, which
    /// is refused with a close frame instead, so the side panel can say why.
    pub fn status(&self) -> Option<u16> {
        match self {
            Refusal::Origin(_) => Some(403),
            Refusal::Protocol => Some(400),
            _ => None,
        }
    }

    /// What the extension is told (close code 4001) when its proof is refused.
    pub fn close_reason(&self) -> &'static str {
        match self {
            Refusal::NoProof => "no pairing token",
            Refusal::WrongToken => "wrong pairing token",
            Refusal::Expired => "handshake too old: check the clock",
            Refusal::Replayed => "replayed handshake",
            Refusal::OldExtension => "this axsnap-mcp speaks axsnap.2: update the axsnap extension",
            Refusal::Origin(_) | Refusal::Protocol => "refused",
        }
    }

    /// The subprotocol to answer a handshake that is refused with a close frame:
    /// one the extension offered, or its browser drops the socket before the reason arrives.
    pub fn answered_protocol(&self) -> &'static str {
        if *self == Refusal::OldExtension { OLD_PROTOCOL } else { PROTOCOL }
    }

    /// One line for the server's log (stderr), saying what to do.
    pub fn reason(&self) -> String {
        match self {
            Refusal::Origin(Some(o)) => format!("refused a connection from {o}: only the axsnap extension may connect"),
            Refusal::Origin(None) => "refused a connection without an Origin: only the axsnap extension may connect".into(),
            Refusal::Protocol => format!("refused a connection that does not speak {PROTOCOL}: update the extension or this server"),
            Refusal::NoProof => "refused the extension: it sent no pairing proof (enter the token in the side panel)".into(),
            Refusal::WrongToken => "refused the extension: its pairing token is not this server's (run `axsnap-mcp token` and enter it in the side panel)".into(),
            Refusal::Expired => "refused the extension: its handshake is too old (is the clock right?)".into(),
            Refusal::Replayed => "refused a replayed handshake".into(),
            Refusal::OldExtension => format!("refused the extension: it speaks {OLD_PROTOCOL}, this server {PROTOCOL} (update the extension)"),
        }
    }
}

/// Nonces seen recently: a handshake is good once.
#[derive(Default)]
pub struct NonceLog {
    order: VecDeque<String>,
    seen: HashSet<String>,
}

impl NonceLog {
    const CAPACITY: usize = 4096;

    /// False when the nonce was used already.
    fn insert(&mut self, nonce: &str) -> bool {
        if !self.seen.insert(nonce.to_string()) {
            return false;
        }
        self.order.push_back(nonce.to_string());
        if self.order.len() > Self::CAPACITY {
            if let Some(old) = self.order.pop_front() {
                self.seen.remove(&old);
            }
        }
        true
    }
}

/// An accepted handshake: what the server's answer must be bound to.
#[derive(Debug, PartialEq, Eq)]
pub struct Accepted {
    /// `<time>.<nonce>` as the extension sent it.
    pub challenge: String,
}

fn mac(token: &str, label: &str, challenge: &str) -> Hmac<Sha256> {
    let mut m = Hmac::<Sha256>::new_from_slice(token.as_bytes()).expect("HMAC takes keys of any length");
    m.update(label.as_bytes());
    m.update(b" ");
    m.update(challenge.as_bytes());
    m
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() % 2 != 0 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok()).collect()
}

/// The extension's proof for a challenge (the extension computes it with WebCrypto).
#[cfg(test)]
pub fn extension_proof(token: &str, challenge: &str) -> String {
    hex(&mac(token, "axsnap extension", challenge).finalize().into_bytes())
}

/// The server's answer, sent in its first message: `transcript` is the
/// extension's `<time>.<nonce>` and the server's own nonce, `<time>.<nonce>.<server nonce>`,
/// so the answer is good for this connection only.
pub fn server_proof(token: &str, transcript: &str) -> String {
    hex(&mac(token, "axsnap server", transcript).finalize().into_bytes())
}

/// What is printed instead of the token (logs keep stderr): SHA-256's first 8 hex digits,
/// which the side panel shows for the token entered there.
pub fn fingerprint(token: &str) -> String {
    use sha2::Digest;
    hex(&Sha256::digest(token.as_bytes()))[..8].to_string()
}

/// A fresh random value, `bytes` long, in hex.
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    getrandom::fill(&mut buf).expect("the operating system's random source");
    hex(&buf)
}

/// Checks one handshake: the `Origin` header, the `Sec-WebSocket-Protocol`
/// header and the proof in it. `now` is in seconds since the Unix epoch.
pub fn check(
    origin: Option<&str>,
    protocols: Option<&str>,
    token: &str,
    now: u64,
    log: &mut NonceLog,
) -> Result<Accepted, Refusal> {
    if origin != Some(EXTENSION_ORIGIN) {
        return Err(Refusal::Origin(origin.map(str::to_string)));
    }
    let offered: Vec<&str> = protocols.unwrap_or("").split(',').map(str::trim).collect();
    if !offered.contains(&PROTOCOL) {
        return Err(if offered.contains(&OLD_PROTOCOL) { Refusal::OldExtension } else { Refusal::Protocol });
    }
    let proof = offered.iter().find_map(|p| p.strip_prefix(AUTH_PREFIX)).ok_or(Refusal::NoProof)?;
    let mut parts = proof.split('.');
    let (Some(time), Some(nonce), Some(tag), None) = (parts.next(), parts.next(), parts.next(), parts.next()) else {
        return Err(Refusal::NoProof);
    };
    let time: u64 = time.parse().map_err(|_| Refusal::NoProof)?;
    if nonce.len() < 32 || nonce.len() > 64 || unhex(nonce).is_none() {
        return Err(Refusal::NoProof);
    }
    let tag = unhex(tag).ok_or(Refusal::NoProof)?;
    let challenge = format!("{time}.{nonce}");
    // Constant-time comparison: the mac's own verify.
    mac(token, "axsnap extension", &challenge).verify_slice(&tag).map_err(|_| Refusal::WrongToken)?;
    if now.abs_diff(time) > MAX_SKEW_SECS {
        return Err(Refusal::Expired);
    }
    if !log.insert(nonce) {
        return Err(Refusal::Replayed);
    }
    Ok(Accepted { challenge })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "0123456789abcdef0123456789abcdef";
    const NOW: u64 = 1_800_000_000;
    const NONCE: &str = "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";

    fn offer(token: &str, time: u64, nonce: &str) -> String {
        let challenge = format!("{time}.{nonce}");
        format!("{PROTOCOL}, {AUTH_PREFIX}{challenge}.{}", extension_proof(token, &challenge))
    }

    fn check_now(origin: Option<&str>, protocols: Option<&str>) -> Result<Accepted, Refusal> {
        check(origin, protocols, TOKEN, NOW, &mut NonceLog::default())
    }

    #[test]
    fn the_paired_extension_is_accepted() {
        let accepted = check_now(Some(EXTENSION_ORIGIN), Some(&offer(TOKEN, NOW, NONCE))).unwrap();
        assert_eq!(accepted.challenge, format!("{NOW}.{NONCE}"));
    }

    #[test]
    fn a_web_page_is_refused_whatever_it_sends() {
        let good = offer(TOKEN, NOW, NONCE);
        for origin in ["http://127.0.0.1:8000", "https://evil.example", "null", "chrome-extension://otherextensionid"] {
            let r = check_now(Some(origin), Some(&good));
            assert_eq!(r, Err(Refusal::Origin(Some(origin.into()))));
            assert_eq!(r.unwrap_err().status(), Some(403));
        }
        assert_eq!(check_now(None, Some(&good)), Err(Refusal::Origin(None)));
    }

    #[test]
    fn a_missing_proof_or_protocol_is_refused() {
        assert_eq!(check_now(Some(EXTENSION_ORIGIN), None), Err(Refusal::Protocol));
        assert_eq!(check_now(Some(EXTENSION_ORIGIN), Some("chat")), Err(Refusal::Protocol));
        let old = offer(TOKEN, NOW, NONCE).replace(PROTOCOL, OLD_PROTOCOL);
        let r = check_now(Some(EXTENSION_ORIGIN), Some(&old));
        assert_eq!(r, Err(Refusal::OldExtension));
        let r = r.unwrap_err();
        assert_eq!((r.status(), r.answered_protocol()), (None, OLD_PROTOCOL), "told with a close frame, on the protocol it offered");
        assert!(r.close_reason().contains("update the axsnap extension"));
        assert_eq!(check_now(Some(EXTENSION_ORIGIN), Some(&format!("{OLD_PROTOCOL}, {}", offer(TOKEN, NOW, NONCE)))).map(|_| ()), Ok(()), "both offered: the new one");
        assert_eq!(check_now(Some(EXTENSION_ORIGIN), Some(PROTOCOL)), Err(Refusal::NoProof));
        for bad in ["axsnap-auth.", "axsnap-auth.1.2.3", "axsnap-auth.x.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.00",
            "axsnap-auth.1800000000.short.00", "axsnap-auth.1800000000.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.zz",
            "axsnap-auth.1800000000.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.00.00"] {
            let r = check_now(Some(EXTENSION_ORIGIN), Some(&format!("{PROTOCOL},{bad}")));
            assert_eq!(r, Err(Refusal::NoProof), "{bad}");
            assert_eq!(r.unwrap_err().status(), None, "the extension is told why with a close frame");
        }
    }

    #[test]
    fn a_proof_made_with_another_token_is_refused() {
        let r = check_now(Some(EXTENSION_ORIGIN), Some(&offer("not-the-token-0123456789", NOW, NONCE)));
        assert_eq!(r, Err(Refusal::WrongToken));
        // The token itself in place of a proof is no proof either.
        let r = check_now(Some(EXTENSION_ORIGIN), Some(&format!("{PROTOCOL},{AUTH_PREFIX}{NOW}.{NONCE}.{}", hex(TOKEN.as_bytes()))));
        assert_eq!(r, Err(Refusal::WrongToken));
    }

    #[test]
    fn an_old_or_replayed_handshake_is_refused() {
        let old = offer(TOKEN, NOW - 600, NONCE);
        assert_eq!(check_now(Some(EXTENSION_ORIGIN), Some(&old)), Err(Refusal::Expired));
        let mut log = NonceLog::default();
        let good = offer(TOKEN, NOW, NONCE);
        assert!(check(Some(EXTENSION_ORIGIN), Some(&good), TOKEN, NOW, &mut log).is_ok());
        assert_eq!(check(Some(EXTENSION_ORIGIN), Some(&good), TOKEN, NOW + 1, &mut log), Err(Refusal::Replayed));
    }

    #[test]
    fn the_two_proofs_differ_so_one_side_cannot_echo_the_other() {
        let challenge = format!("{NOW}.{NONCE}");
        assert_ne!(extension_proof(TOKEN, &challenge), server_proof(TOKEN, &challenge));
        assert_eq!(server_proof(TOKEN, &challenge).len(), 64);
        // Bound to the server's nonce too: another connection's answer is not this one's.
        let (a, b) = (format!("{challenge}.{}", "b".repeat(32)), format!("{challenge}.{}", "c".repeat(32)));
        assert_ne!(server_proof(TOKEN, &a), server_proof(TOKEN, &b));
    }

    #[test]
    fn the_fingerprint_is_short_and_says_nothing_of_the_token() {
        // As the side panel computes it (tests/unit/channel.test.mjs has the same value).
        assert_eq!(fingerprint(TOKEN), "3eb1bd43");
        assert!(!TOKEN.contains(&fingerprint(TOKEN)));
        assert_ne!(fingerprint(TOKEN), fingerprint("0123456789abcdef0123456789abcdeF"));
    }

    #[test]
    fn random_values_are_fresh_hex() {
        let (a, b) = (random_hex(16), random_hex(16));
        assert_eq!(a.len(), 32);
        assert!(unhex(&a).is_some());
        assert_ne!(a, b);
    }
}
