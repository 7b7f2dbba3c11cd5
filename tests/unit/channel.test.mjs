// The desktop-agents channel's cryptography (extension/worker/channel.js):
// the same bytes as axsnap-mcp's (crates/axsnap-mcp/src/channel.rs has the
// same vector) and as node:crypto's independent HKDF and AES-GCM, and frames
// that do not open when replayed, reordered, altered or forged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCipheriv, createHash, createHmac, hkdfSync } from 'node:crypto';
import { openChannel, extensionProof, serverProof, fingerprint, hex } from '../../extension/worker/channel.js';

const TOKEN = '0123456789abcdef0123456789abcdef';
const TRANSCRIPT = '1800000000.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const READY = '{"type":"ready"}';

/** Both ends of one connection, each frame sent kept in `wire`. */
async function pair(token = TOKEN, transcript = TRANSCRIPT) {
  const wire = { up: [], down: [] };
  const extension = await openChannel(token, transcript, 'extension', (f) => wire.up.push(f));
  const server = await openChannel(TOKEN, TRANSCRIPT, 'server', (f) => wire.down.push(f));
  return { extension, server, wire };
}

test('the first frame is the bytes axsnap-mcp and node:crypto make', async () => {
  const { extension, wire } = await pair();
  await extension.send(READY);
  const key = Buffer.from(hkdfSync('sha256', TOKEN, TRANSCRIPT, 'axsnap.2 extension to server', 32));
  const c = createCipheriv('aes-256-gcm', key, Buffer.alloc(12)).setAAD(Buffer.from('axsnap.2'));
  const expected = Buffer.concat([c.update(READY), c.final(), c.getAuthTag()]).toString('hex');
  assert.equal(hex(wire.up[0]), expected);
  assert.equal(expected, 'a138caae3a6455bf329efe1a49f54690548ef0ac1aaf59575b0b6fee84e8bc94');
});

test('frames open in order both ways', async () => {
  const { extension, server, wire } = await pair();
  for (const m of ['one', 'two', 'three']) {
    extension.send(m);
    server.send(`${m}!`);
  }
  await extension.send('');
  await server.send('');
  assert.deepEqual(await Promise.all(wire.up.map((f) => server.open(f))), ['one', 'two', 'three', '']);
  assert.deepEqual(await Promise.all(wire.down.map((f) => extension.open(f))), ['one!', 'two!', 'three!', '']);
});

test('replayed, reordered, altered, forged or unsealed frames do not open', async () => {
  const { extension, server, wire } = await pair();
  for (const m of ['a', 'b']) await server.send(m);
  const opener = async () => (await pair()).extension;
  const flipped = new Uint8Array(wire.down[0].slice(0));
  flipped[2] ^= 1;
  await assert.rejects((await opener()).open(flipped.buffer));
  await assert.rejects((await opener()).open(wire.down[1]), 'reordered, or the first dropped');
  assert.equal(await extension.open(wire.down[0]), 'a');
  await assert.rejects(extension.open(wire.down[0]), 'replayed');
  await assert.rejects((await opener()).open('{"id":1,"request":{"cmd":"tabs","action":"open"}}'), 'a text frame');
  await assert.rejects((await opener()).open(new TextEncoder().encode('{"id":1}').buffer), 'forged');
  const other = await openChannel(TOKEN, TRANSCRIPT.replace(/b+$/, 'c'.repeat(32)), 'extension', () => {});
  await assert.rejects(other.open(wire.down[0]), 'another connection');
  const wrong = await openChannel('another-token-0123456789', TRANSCRIPT, 'extension', () => {});
  await assert.rejects(wrong.open(wire.down[0]), 'another token');
});

test('proofs are the HMACs axsnap-mcp checks, the server\'s bound to both nonces', async () => {
  const challenge = '1800000000.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  assert.equal(await extensionProof(TOKEN, challenge), createHmac('sha256', TOKEN).update(`axsnap extension ${challenge}`).digest('hex'));
  assert.equal(await serverProof(TOKEN, TRANSCRIPT), createHmac('sha256', TOKEN).update(`axsnap server ${TRANSCRIPT}`).digest('hex'));
});

test('the fingerprint: the first 8 hex digits of SHA-256, as axsnap-mcp prints it', async () => {
  assert.equal(await fingerprint(TOKEN), createHash('sha256').update(TOKEN).digest('hex').slice(0, 8));
  assert.equal(await fingerprint(TOKEN), '3eb1bd43');
});
