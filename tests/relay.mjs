// A relay as a local program without the pairing token would run it: it
// listens on a port the extension tries, forwards every connection to the
// real axsnap-mcp byte for byte, and keeps what crossed it, WebSocket frame by
// frame (unmasked), so a test can look for plaintext in it. It can also alter
// the next frame in one direction, and inject frames of its own, to show that
// the bridge refuses them. It strips the extension's offer of compression, as
// an eavesdropper would, so that nothing it reads is hidden by it.
import { createServer, connect } from 'node:net';
import { randomBytes } from 'node:crypto';

/** @typedef {'up'|'down'} Dir  up: extension → server; down: server → extension */
/** @typedef {{dir: Dir, opcode: number, payload: Buffer, raw: Buffer, injected?: boolean}} Frame */

export const OP = { text: 1, binary: 2, close: 8 };

/** One WebSocket frame, FIN set; `masked` as a client must send it. */
export function encodeFrame(opcode, payload, masked) {
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x80 | opcode, len]) : len < 65536
    ? Buffer.from([0x80 | opcode, 126, len >> 8, len & 0xff])
    : Buffer.concat([Buffer.from([0x80 | opcode, 127]), (() => { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt(len)); return b; })()]);
  if (!masked) return Buffer.concat([head, payload]);
  head[1] |= 0x80;
  const key = randomBytes(4);
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length; i++) body[i] ^= key[i % 4];
  return Buffer.concat([head, key, body]);
}

/** The first whole frame in `buf`, or null while it is incomplete. */
function parseFrame(buf) {
  if (buf.length < 2) return null;
  let len = buf[1] & 0x7f;
  let off = 2;
  if (len === 126) {
    if (buf.length < 4) return null;
    len = buf.readUInt16BE(2);
    off = 4;
  } else if (len === 127) {
    if (buf.length < 10) return null;
    len = Number(buf.readBigUInt64BE(2));
    off = 10;
  }
  const masked = (buf[1] & 0x80) !== 0;
  const key = masked ? buf.subarray(off, off + 4) : null;
  if (masked) off += 4;
  if (buf.length < off + len) return null;
  const payload = Buffer.from(buf.subarray(off, off + len));
  if (key) for (let i = 0; i < payload.length; i++) payload[i] ^= key[i % 4];
  return { opcode: buf[0] & 0x0f, payload, raw: Buffer.from(buf.subarray(0, off + len)) };
}

/**
 * @param {{port: number, target: number}} o  listen on 127.0.0.1:port, forward to 127.0.0.1:target
 */
export function startRelay({ port, target }) {
  /** @type {Frame[]} */
  const frames = [];
  /** Every byte forwarded, each direction, as it crossed (handshakes included). */
  const bytes = { up: [], down: [] };
  /** @type {Partial<Record<Dir, (f: Frame) => Buffer>>} */
  const alter = {};
  /** @type {{up: import('node:net').Socket, down: import('node:net').Socket} | null} where each direction is written */
  let current = null;
  const sockets = new Set();

  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    }
    const out = { up: upstream, down: client };
    current = out;
    const pipe = (/** @type {Dir} */ dir, from) => {
      let buf = Buffer.alloc(0);
      let upgraded = false;
      from.on('data', (chunk) => {
        buf = Buffer.concat([buf, chunk]);
        if (!upgraded) {
          const end = buf.indexOf('\r\n\r\n');
          if (end < 0) return;
          let head = buf.subarray(0, end + 4).toString('latin1');
          if (dir === 'up') head = head.replace(/^Sec-WebSocket-Extensions:.*\r\n/gim, '');
          send(dir, Buffer.from(head, 'latin1'));
          buf = buf.subarray(end + 4);
          upgraded = true;
        }
        for (let f = parseFrame(buf); f; f = parseFrame(buf)) {
          buf = buf.subarray(f.raw.length);
          const frame = { dir, ...f };
          frames.push(frame);
          const change = alter[dir];
          if (change && (f.opcode === OP.text || f.opcode === OP.binary)) {
            delete alter[dir];
            send(dir, change(frame));
          } else send(dir, f.raw);
        }
      });
      from.on('close', () => out[dir].end());
      from.on('error', () => out[dir].destroy());
    };
    const send = (dir, data) => {
      bytes[dir].push(data);
      if (!out[dir].destroyed) out[dir].write(data);
    };
    pipe('up', client);
    pipe('down', upstream);
  });

  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve({
    frames,
    /** Everything forwarded so far in both directions, raw and unmasked, as one buffer to search. */
    seen: () => Buffer.concat([...bytes.up, ...bytes.down, ...frames.map((f) => f.payload)]),
    /** The next data frame in `dir` is replaced by what `change` makes of it. */
    alterNext: (/** @type {Dir} */ dir, change) => { alter[dir] = change; },
    /** Sends a frame of the relay's own in `dir` on the latest connection (masked upwards, as a client must). */
    inject(/** @type {Dir} */ dir, opcode, payload) {
      const raw = encodeFrame(opcode, payload, dir === 'up');
      frames.push({ dir, opcode, payload, raw, injected: true });
      current?.[dir].write(raw);
    },
    /** Sends earlier bytes again, as they were (a replay). */
    replay: (/** @type {Frame} */ f) => current?.[f.dir].write(f.raw),
    /** The close frames seen so far in `dir`: their codes and reasons. */
    closes: (/** @type {Dir} */ dir) => frames.filter((f) => f.dir === dir && f.opcode === OP.close && f.payload.length >= 2)
      .map((f) => ({ code: f.payload.readUInt16BE(0), reason: f.payload.subarray(2).toString() })),
    close: () => new Promise((r) => {
      for (const s of sockets) s.destroy();
      server.close(r);
    }),
  })));
}
