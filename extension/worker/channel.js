// The desktop-agents bridge's cryptography, the extension's side of
// crates/axsnap-mcp/src/pairing.rs (the handshake's proofs) and channel.rs
// (the frames after it): WebCrypto only, so the worker, the panel and Node's
// tests share it.
//
// The handshake proves the token; the channel binds that proof to the
// connection: two keys, one per direction, derived with HKDF-SHA256 from the
// token and the transcript `<time>.<extension nonce>.<server nonce>`, seal
// every frame with AES-256-GCM, the frame's count in its direction as the
// nonce. A relay between the two sees the transcript, not the token: it reads
// nothing, and a frame it replays, reorders, drops, alters or forges does not open.

/** The bridge protocol's version, offered as a subprotocol; the older one is offered too, only to say it is outdated. */
export const PROTOCOL = 'axsnap.2';
export const OLD_PROTOCOL = 'axsnap.1';
const LABEL = new TextEncoder().encode(PROTOCOL);

const utf8 = (s) => new TextEncoder().encode(s);
export const hex = (bytes) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, '0')).join('');
export const randomHex = (n) => hex(crypto.getRandomValues(new Uint8Array(n)));

async function mac(token, label, challenge) {
  const key = await crypto.subtle.importKey('raw', utf8(token), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return hex(await crypto.subtle.sign('HMAC', key, utf8(`${label} ${challenge}`)));
}

/** The extension's proof, offered in the handshake: challenge is `<time>.<nonce>`. */
export const extensionProof = (token, challenge) => mac(token, 'axsnap extension', challenge);

/** The proof the server must answer with, bound to both nonces: transcript is `<time>.<nonce>.<server nonce>`. */
export const serverProof = (token, transcript) => mac(token, 'axsnap server', transcript);

/** What axsnap-mcp prints instead of the token, so the person can compare: SHA-256's first 8 hex digits. */
export async function fingerprint(token) {
  return hex(await crypto.subtle.digest('SHA-256', utf8(token))).slice(0, 8);
}

async function directionKey(token, transcript, direction) {
  const base = await crypto.subtle.importKey('raw', utf8(token), 'HKDF', false, ['deriveKey']);
  return crypto.subtle.deriveKey({ name: 'HKDF', hash: 'SHA-256', salt: utf8(transcript), info: utf8(`${PROTOCOL} ${direction}`) },
    base, { name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
}

/** The nonce of the frame numbered `n` in its direction: four zero bytes, then n, big-endian. */
function nonce(n) {
  const iv = new Uint8Array(12);
  new DataView(iv.buffer).setBigUint64(4, BigInt(n));
  return iv;
}

/**
 * One connection's channel. `send` gets each sealed frame, in order; `open`
 * answers the frames received, in order, and rejects for one that does not
 * open (after which the connection must be closed: the counts no longer agree).
 * @param {string} token
 * @param {string} transcript  `<time>.<extension nonce>.<server nonce>`
 * @param {'extension'|'server'} side  which end this is (the server's end only in tests)
 * @param {(frame: ArrayBuffer) => void} send
 */
export async function openChannel(token, transcript, side, send) {
  const other = side === 'extension' ? 'server' : 'extension';
  const [out, into] = await Promise.all([directionKey(token, transcript, `${side} to ${other}`), directionKey(token, transcript, `${other} to ${side}`)]);
  let sent = 0;
  let received = 0;
  // Sealing and opening are asynchronous: each direction is one queue, so the counts match the order on the wire.
  let sending = Promise.resolve();
  let opening = Promise.resolve('');
  return {
    /** @param {string} text */
    send(text) {
      const n = sent++;
      sending = sending.then(async () => send(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce(n), additionalData: LABEL }, out, utf8(text))))
        .catch(() => { /* the socket went away: the receiving side sees the gap */ });
      return sending;
    },
    /** @param {ArrayBuffer | string} frame  @returns {Promise<string>} */
    open(frame) {
      const n = received++;
      const next = opening.then(async () => {
        // A text frame is no sealed frame: refused like a forged one.
        if (typeof frame === 'string') throw new Error('an unsealed frame');
        return new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce(n), additionalData: LABEL }, into, frame));
      });
      opening = next.catch(() => '');
      return next;
    },
  };
}
