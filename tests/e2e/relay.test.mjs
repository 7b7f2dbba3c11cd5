// The desktop-agents bridge through a relay: a local program without the
// pairing token listens on a port the extension tries (tests/relay.mjs) and
// forwards to the real axsnap-mcp, which listens elsewhere. Through it the
// session works only as an opaque pipe: the relay reads nothing an agent
// sends or gets, and any frame it replays, alters or forges is refused, the
// connection closes, and nothing it asked for is done. Last, a server of the
// older protocol (frames in the clear) is named in the panel and sent nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:net';
import { createHash, randomBytes } from 'node:crypto';
import { createServer as createHttpServer } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { launch, refOf, until, ROOT, EXTENSION_ID } from '../harness.mjs';
import { serve } from '../server.mjs';
import { startRelay, OP } from '../relay.mjs';

const BIN = join(ROOT, 'target/debug/axsnap-mcp');
const TOKEN = randomBytes(16).toString('hex');
const TYPED = `typed-${randomBytes(6).toString('hex')}`;
const PANEL = `chrome-extension://${EXTENSION_ID}/extension/panel/sidepanel.html`;

let server, b, relay, agent, panel, log = '';

const freePort = () => new Promise((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => { const { port } = /** @type {any} */ (s.address()); s.close(() => resolve(port)); });
});

const setSetting = (s) => panel.evaluate((v) => chrome.storage.local.set({ mcp: v }), s);
const status = () => panel.evaluate(async () => (await chrome.storage.session.get('mcpStatus')).mcpStatus);
let relayPort;
/** Turns agents off and on again, so the extension connects through the relay anew. */
async function reconnect() {
  await setSetting({ enabled: false, url: `ws://127.0.0.1:${relayPort}`, token: TOKEN });
  await until('off', async () => !(await status())?.on);
  await setSetting({ enabled: true, url: `ws://127.0.0.1:${relayPort}`, token: TOKEN });
  await until('the extension to connect through the relay', async () => (await status())?.agents?.length === 1);
}

const call = async (tool, args = {}) => {
  const r = /** @type {any} */ (await agent.callTool({ name: tool, arguments: args }));
  return { text: r.content.map((c) => c.text).join('\n'), error: r.isError === true, code: r.structuredContent?.code };
};
const ok = async (tool, args) => {
  const r = await call(tool, args);
  assert.equal(r.error, false, `${tool}: ${r.text}`);
  return r.text;
};
/**
 * `ok` for a call that may take the agent to a site it may not reach yet: the person answers "Allow once"
 * in the side panel whenever it asks (the guard is not what these tests are about).
 */
const allowingOk = async (tool, args) => {
  let done = false;
  const result = ok(tool, args).finally(() => { done = true; });
  const allow = panel.locator('#confirms').getByRole('button', { name: 'Allow once' });
  while (!done) {
    if (await allow.count()) await allow.first().click().catch(() => {});
    await new Promise((r) => setTimeout(r, 100));
  }
  return result;
};
const opened = (url) => b.ctx.pages().some((p) => p.url() === url);
const dataFrames = (dir, from = 0) => relay.frames.slice(from).filter((f) => f.dir === dir && !f.injected && (f.opcode === OP.text || f.opcode === OP.binary));

before(async () => {
  assert.ok(existsSync(BIN), `${BIN} is missing: cargo build -p axsnap-mcp`);
  server = await serve({ '/': join(ROOT, 'tests/fixtures') });
  // The server outside the ten ports the extension tries, so that it is reached only through the relay.
  relayPort = await freePort();
  let serverPort;
  do serverPort = await freePort(); while (serverPort >= relayPort && serverPort < relayPort + 10);
  const transport = new StdioClientTransport({
    command: BIN, args: ['--port', String(serverPort), '--connect-timeout', '5'], stderr: 'pipe',
    env: { ...getDefaultEnvironment(), AXSNAP_MCP_TOKEN: TOKEN },
  });
  transport.stderr?.on('data', (d) => { log += d; });
  agent = new Client({ name: 'relayed-agent', version: '1.0.0' });
  await agent.connect(transport);
  relay = await startRelay({ port: relayPort, target: serverPort });
  b = await launch();
  panel = await b.ctx.newPage();
  await panel.goto(PANEL);
  await reconnect();
});

after(async () => {
  await agent?.close();
  await b?.close();
  await relay?.close();
  await server?.close();
});

test('through a relay the session works, and the relay reads none of it', async () => {
  const page = server.url('/agent.html');
  assert.match(await allowingOk('browser_navigate', { url: page }), /^opened tab \d+ "Agent sign-in"/);
  const snap = await ok('browser_snapshot');
  assert.match(await ok('browser_act', { action: 'fill', ref: refOf(snap, 'textbox "Password"'), value: TYPED }), /^filled A\d+/);
  assert.match(await ok('browser_act', { action: 'fill', ref: refOf(snap, 'textbox "Email"'), value: 'ada@example.com' }), /^filled A\d+/);
  assert.match(await ok('browser_snapshot'), /ada@example\.com/);

  assert.ok(dataFrames('down').length >= 5 && dataFrames('up').length >= 5, 'the relay saw the traffic');
  const seen = relay.seen();
  assert.ok(seen.includes('"type":"hello"'), 'the relay reads the frames it forwards (the handshake is plain)');
  for (const plain of [TYPED, 'fill', 'ada@example.com', 'Agent sign-in', '"request"', '"response"', 'agent.html']) {
    assert.equal(seen.includes(plain), false, `the relay read ${JSON.stringify(plain)}`);
  }
});

/** What the relay's frame does: the connection closes with 4004, the panel says why, the agent's calls fail. */
async function refused(before) {
  await until('the connection to close on the frame', () => tampered() > before);
  await until('the panel to say why', async () => /failed authentication/.test((await status())?.problem ?? ''));
  assert.equal((await status()).agents.length, 0);
}
/** How many close frames with code 4004 crossed the relay, either way. */
const tampered = () => relay.closes('up').concat(relay.closes('down')).filter((c) => c.code === 4004).length;

test('a request the relay replays is refused, the connection closes, and nothing is done again', async () => {
  const url = server.url('/demo.html?replayed');
  const mark = relay.frames.length;
  assert.match(await allowingOk('browser_tabs', { action: 'open', url }), /^opened tab \d+/);
  const request = dataFrames('down', mark)[0];
  await (await until('the opened tab', () => b.ctx.pages().find((p) => p.url() === url))).close();
  const before = tampered();
  relay.replay(request);
  await refused(before);
  await new Promise((r) => setTimeout(r, 500));
  assert.equal(opened(url), false, 'the replayed tabs open was not obeyed');
  await reconnect();
});

test('a frame the relay alters is refused either way, and the call fails', async () => {
  const url = server.url('/demo.html?altered');
  let before = tampered();
  relay.alterNext('down', (f) => {
    const raw = Buffer.from(f.raw);
    raw[raw.length - 1] ^= 1;
    return raw;
  });
  const cut = await call('browser_tabs', { action: 'open', url });
  assert.equal(cut.code, 'disconnected', cut.text);
  await refused(before);
  assert.equal(opened(url), false);
  await reconnect();

  // Towards the server: its answer altered, the server closes.
  before = tampered();
  relay.alterNext('up', (f) => {
    const raw = Buffer.from(f.raw);
    raw[raw.length - 2] ^= 0x80;
    return raw;
  });
  const gone = await call('browser_snapshot');
  assert.equal(gone.code, 'disconnected', gone.text);
  assert.match(gone.text, /failed authentication/);
  await refused(before);
  assert.match(log, /closed the connection: a frame failed authentication/);
  await reconnect();
});

test('a tabs open the relay forges, in the clear or sealed with a guessed key, is refused and nothing opens', async () => {
  const url = server.url('/demo.html?forged');
  const forged = JSON.stringify({ id: 1e6, request: { cmd: 'tabs', action: 'open', url } });
  for (const [opcode, payload] of [[OP.text, Buffer.from(forged)], [OP.binary, Buffer.from(forged)], [OP.binary, randomBytes(forged.length + 16)]]) {
    const before = tampered();
    relay.inject('down', opcode, payload);
    await refused(before);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(opened(url), false);
    await reconnect();
  }
  // And the session still works through the relay, as a pipe.
  assert.match(await ok('browser_tabs'), /"Agent sign-in"/);
});

test('an axsnap-mcp of the older protocol is named in the panel, and nothing is sent to it in the clear', async () => {
  // A server of axsnap.1: it accepts the older protocol the extension still offers, and records what it gets.
  const got = [];
  const old = createHttpServer().on('upgrade', (req, socket) => {
    const accept = createHash('sha1').update(`${req.headers['sec-websocket-key']}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\nSec-WebSocket-Protocol: axsnap.1\r\n\r\n`);
    socket.on('data', (d) => got.push(d));
    socket.on('error', () => {});
  });
  const oldPort = await new Promise((resolve) => old.listen(0, '127.0.0.1', () => resolve(/** @type {any} */ (old.address()).port)));
  try {
    await setSetting({ enabled: true, url: `ws://127.0.0.1:${oldPort}`, token: TOKEN });
    const s = await until('the panel to name the older server', async () => {
      const st = await status();
      return st?.problem?.includes(`port ${oldPort}: the axsnap-mcp on this port speaks axsnap.1, this extension axsnap.2: update axsnap-mcp`) && st;
    });
    assert.deepEqual(s.agents, []);
    // What reached it after the handshake: one close frame (opcode 8, masked), code 4005, and nothing else.
    const frame = await until('the close frame', () => got.length && Buffer.concat(got));
    assert.equal(frame[0] & 0x0f, 8);
    assert.equal(frame.length, 2 + 4 + (frame[1] & 0x7f), 'one close frame');
    assert.equal(((frame[6] ^ frame[2]) << 8) | (frame[7] ^ frame[3]), 4005);
  } finally {
    old.close();
  }
});
