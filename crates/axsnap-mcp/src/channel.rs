//! The channel after the handshake: every frame, both ways, is sealed with
//! AES-256-GCM under keys that belong to this connection alone.
//!
//! The handshake proves the token, but proof alone binds nothing: a program
//! on a port the extension tries could relay the handshake to the real server
//! and then read and write the frames that follow. So each side derives two
//! keys, one per direction, with HKDF-SHA256 from the token (key material) and
//! the connection's transcript `<time>.<extension nonce>.<server nonce>`
//! (salt), which both sides made fresh; a relay sees the transcript but not
//! the token, so it can neither read a frame nor make one that opens. A frame
//! is the ciphertext and tag of one JSON message, in a binary WebSocket frame;
//! its nonce is the direction's count of frames before it, never sent, so a
//! frame replayed, reordered or dropped fails to open like an altered one.
//! The extension's side is `extension/worker/channel.js`.

use aes_gcm::aead::{Aead, KeyInit, Nonce, Payload};
use aes_gcm::{Aes256Gcm, Key};
use hkdf::Hkdf;
use sha2::Sha256;

/// Bound into every frame (its associated data), and the prefix of each direction's key label.
const LABEL: &str = "axsnap.2";

/// A frame that did not open: altered, replayed, reordered, forged, or after a dropped one.
#[derive(Debug, PartialEq, Eq)]
pub struct Tampered;

/// One direction of a connection: its key and how many frames went that way.
pub struct Direction {
    cipher: Aes256Gcm,
    count: u64,
}

impl Direction {
    fn new(token: &str, transcript: &str, direction: &str) -> Self {
        let mut key = Key::<Aes256Gcm>::default();
        Hkdf::<Sha256>::new(Some(transcript.as_bytes()), token.as_bytes())
            .expand(format!("{LABEL} {direction}").as_bytes(), &mut key)
            .expect("32 bytes is a valid HKDF-SHA256 length");
        Direction { cipher: Aes256Gcm::new(&key), count: 0 }
    }

    /// The next frame's nonce: four zero bytes, then the count, big-endian.
    fn next_nonce(&mut self) -> Result<Nonce<Aes256Gcm>, Tampered> {
        let mut nonce = [0u8; 12];
        nonce[4..].copy_from_slice(&self.count.to_be_bytes());
        // Never reached in practice; a nonce must never repeat under one key.
        self.count = self.count.checked_add(1).ok_or(Tampered)?;
        Ok(nonce.into())
    }

    pub fn seal(&mut self, plain: &[u8]) -> Vec<u8> {
        let nonce = self.next_nonce().expect("fewer than 2^64 frames");
        self.cipher.encrypt(&nonce, Payload { msg: plain, aad: LABEL.as_bytes() }).expect("AES-GCM seals any frame this small")
    }

    pub fn open(&mut self, sealed: &[u8]) -> Result<Vec<u8>, Tampered> {
        let nonce = self.next_nonce()?;
        self.cipher.decrypt(&nonce, Payload { msg: sealed, aad: LABEL.as_bytes() }).map_err(|_| Tampered)
    }
}

/// The server's two directions: it seals towards the extension and opens what the extension sent.
pub fn server_side(token: &str, transcript: &str) -> (Direction, Direction) {
    (Direction::new(token, transcript, "server to extension"), Direction::new(token, transcript, "extension to server"))
}

#[cfg(test)]
pub fn extension_side(token: &str, transcript: &str) -> (Direction, Direction) {
    let (to_extension, to_server) = server_side(token, transcript);
    (to_server, to_extension)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "0123456789abcdef0123456789abcdef";
    const TRANSCRIPT: &str = "1800000000.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";

    fn hex(b: &[u8]) -> String {
        b.iter().map(|b| format!("{b:02x}")).collect()
    }

    #[test]
    fn frames_open_in_order_on_the_other_side() {
        let (mut seal, mut open) = server_side(TOKEN, TRANSCRIPT);
        let (mut ext_seal, mut ext_open) = extension_side(TOKEN, TRANSCRIPT);
        for m in ["one", "two", "three"] {
            assert_eq!(ext_open.open(&seal.seal(m.as_bytes())).unwrap(), m.as_bytes());
            assert_eq!(open.open(&ext_seal.seal(m.as_bytes())).unwrap(), m.as_bytes());
        }
    }

    #[test]
    fn the_same_vector_as_the_extension() {
        // tests/unit/channel.test.mjs checks the same bytes against WebCrypto and node:crypto.
        let (mut seal, _) = extension_side(TOKEN, TRANSCRIPT);
        assert_eq!(hex(&seal.seal(br#"{"type":"ready"}"#)), "a138caae3a6455bf329efe1a49f54690548ef0ac1aaf59575b0b6fee84e8bc94");
    }

    #[test]
    fn altered_replayed_reordered_dropped_or_forged_frames_do_not_open() {
        let (mut seal, _) = server_side(TOKEN, TRANSCRIPT);
        let frames: Vec<Vec<u8>> = (0..3).map(|i| seal.seal(format!("frame {i}").as_bytes())).collect();
        let opener = || extension_side(TOKEN, TRANSCRIPT).1;

        let mut flipped = frames[0].clone();
        flipped[3] ^= 1;
        assert_eq!(opener().open(&flipped), Err(Tampered));
        let mut o = opener();
        o.open(&frames[0]).unwrap();
        assert_eq!(o.open(&frames[0]), Err(Tampered), "replayed");
        assert_eq!(opener().open(&frames[1]), Err(Tampered), "reordered, or the first dropped");
        assert_eq!(opener().open(b"{\"id\":1,\"request\":{\"cmd\":\"tabs\",\"action\":\"open\"}}"), Err(Tampered), "forged");
        assert_eq!(opener().open(&[]), Err(Tampered));
        // Another connection's transcript, or another token: other keys.
        assert_eq!(extension_side(TOKEN, "1800000000.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.cccccccccccccccccccccccccccccccc").1.open(&frames[0]), Err(Tampered));
        assert_eq!(extension_side("another-token-0123456789", TRANSCRIPT).1.open(&frames[0]), Err(Tampered));
        // A frame sent one way does not open the other way.
        let (_, mut open_at_server) = server_side(TOKEN, TRANSCRIPT);
        assert_eq!(open_at_server.open(&frames[0]), Err(Tampered));
    }
}
