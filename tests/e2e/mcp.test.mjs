// Desktop agents end to end: the official TypeScript MCP client starts
// axsnap-mcp over stdio, real Chromium runs the extension paired with it
// (preset in chrome.storage.local, as a test or a managed install does), and
// the agent drives fixture pages through its tools. Then the refusals: a web
// page opening the bridge, wrong and missing tokens, the panel's switch
// turned off mid-call, and the extension restarting under a call.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { request } from 'node:http';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { launch, refOf, until, ROOT, EXTENSION_ID } from '../harness.mjs';
import { serve } from '../server.mjs';
import { ACTIONS } from '../../protocol/protocol.js';

const BIN = join(ROOT, 'target/debug/axsnap-mcp');
const TOKEN = randomBytes(16).toString('hex');
const CANARY = 'CANARY-7f3a9c-pw';
const ORIGIN = `chrome-extension://${EXTENSION_ID}`;
const PANEL = `${ORIGIN}/extension/panel/sidepanel.html`;

let server, b, port, agentA;
/** Every text any tool returned: the canary must be in none. */
const seen = [];

/** Two free ports in a row: the extension looks at the configured one and the nine after it. */
async function freePorts() {
  for (;;) {
    const p = await new Promise((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => { const { port: n } = /** @type {any} */ (s.address()); s.close(() => resolve(n)); });
    });
    if (p > 65000) continue;
    const second = await new Promise((resolve) => {
      const s = createServer().once('error', () => resolve(false)).listen(p + 1, '127.0.0.1', () => s.close(() => resolve(true)));
    });
    if (second) return p;
  }
}

/** Starts axsnap-mcp as an agent does, with the official client (the token in the environment, never in the command line). */
async function startAgent(name, agentPort, token = TOKEN) {
  const transport = new StdioClientTransport({
    command: BIN, args: ['--port', String(agentPort), '--connect-timeout', '5'], stderr: 'pipe',
    env: { ...getDefaultEnvironment(), AXSNAP_MCP_TOKEN: token },
  });
  let log = '';
  transport.stderr?.on('data', (d) => { log += d; });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  /** @param {string} tool @param {object} [args] @param {{echoes?: boolean}} [o]  echoes: the answer may repeat what the test itself sent */
  const call = async (tool, args = {}, o = {}) => {
    const r = /** @type {any} */ (await client.callTool({ name: tool, arguments: args }));
    if (!o.echoes) {
      for (const c of r.content) seen.push(c.text ?? c.data);
      seen.push(JSON.stringify(r.structuredContent ?? null));
    }
    return { text: r.content.map((c) => c.text).join('\n'), error: r.isError === true, code: r.structuredContent?.code, raw: r };
  };
  const ok = async (tool, args) => {
    const r = await call(tool, args);
    assert.equal(r.error, false, `${tool} ${JSON.stringify(args)}: ${r.text}`);
    return r.text;
  };
  return { client, call, ok, log: () => log, close: () => client.close() };
}

/** The panel page (the extension's own page, where chrome.storage is reachable). */
async function panelPage() {
  const open = b.ctx.pages().find((p) => p.url() === PANEL);
  if (open) return open;
  const p = await b.ctx.newPage();
  await p.goto(PANEL);
  return p;
}

const setSetting = async (setting) => (await panelPage()).evaluate((s) => chrome.storage.local.set({ mcp: s }), setting);
const status = async () => (await panelPage()).evaluate(async () => (await chrome.storage.session.get('mcpStatus')).mcpStatus);

/** The Playwright page of a tab the agent opened. */
const pageAt = (url) => until(`a page at ${url}`, () => b.ctx.pages().find((p) => p.url() === url));

before(async () => {
  assert.ok(existsSync(BIN), `${BIN} is missing: cargo build -p axsnap-mcp`);
  server = await serve({ '/': join(ROOT, 'tests/fixtures'), '/apps/': join(ROOT, 'tests/apps') });
  port = await freePorts();
  agentA = await startAgent('agent-a', port);
  b = await launch();
  await setSetting({ enabled: true, url: `ws://127.0.0.1:${port}`, token: TOKEN });
  await until('the extension to connect', async () => (await status())?.agents?.length === 1);
});

after(async () => {
  await agentA?.close();
  await b?.close();
  await server?.close();
});

test('the agent lists eight tools, each said in one short line', async () => {
  const { tools } = await agentA.client.listTools();
  assert.deepEqual(tools.map((t) => t.name).sort(),
    ['browser_act', 'browser_navigate', 'browser_resolve', 'browser_screenshot', 'browser_snapshot', 'browser_tabs', 'browser_upload', 'browser_wait_for']);
  for (const t of tools) assert.ok(t.description.length <= 200, t.name);
  const act = tools.find((t) => t.name === 'browser_act');
  assert.deepEqual(/** @type {any} */ (act.inputSchema.properties).action.enum, Object.keys(ACTIONS), 'the protocol\'s actions, drag among them');
  assert.ok(/** @type {any} */ (act.inputSchema.properties).to, 'drag\'s target');
});

/** Runs a call that takes the agent to a site it may not reach yet, and answers "Allow once" in the side panel. */
async function allowing(call) {
  const allow = (await panelPage()).locator('#confirms').getByRole('button', { name: 'Allow once' });
  const [result] = await Promise.all([call, allow.click()]);
  return result;
}

test('an agent goes to a new site only once the person allows it in the side panel', async () => {
  const panel = await panelPage();
  const asked = agentA.call('browser_navigate', { url: server.url('/agent.html') }, { echoes: true });
  const question = panel.locator('#confirms');
  await question.getByRole('button', { name: 'Deny' }).waitFor();
  assert.match(await question.innerText(), /The desktop agent agent-a wants to go to 127\.0\.0\.1/);
  await question.getByRole('button', { name: 'Deny' }).click();
  assert.equal((await asked).code, 'declined');
  assert.match(await allowing(agentA.ok('browser_navigate', { url: server.url('/demo.html') })), /^opened tab \d+ "axsnap demo/);
  await agentA.ok('browser_tabs', { action: 'close' });
});

test('an agent opens a page, snapshots it, fills and clicks by ref, and never sees the password', async () => {
  const opened = await agentA.ok('browser_navigate', { url: server.url('/agent.html') });
  assert.match(opened, /^opened tab \d+ "Agent sign-in" http:\/\/127\.0\.0\.1:\d+\/agent\.html$/);
  const snap = await agentA.ok('browser_snapshot');
  assert.match(snap, /^page "Agent sign-in" /);
  assert.match(snap, /textbox A\d+ "Password" secret=current-password filled/);
  // An act answers with what it changed on the page, once the page settled.
  const filled = await agentA.ok('browser_act', { action: 'fill', ref: refOf(snap, 'textbox "Email"'), value: 'ada@example.com' });
  assert.equal(filled.split('\n')[0], `filled ${refOf(snap, 'textbox "Email"')}`);
  assert.match(filled, /^~ +textbox A\d+ "Email" .*ada@example\.com$/m);
  const clicked = await agentA.ok('browser_act', { action: 'click', ref: refOf(snap, 'button "Sign in"') });
  assert.equal(clicked.split('\n')[0], `clicked ${refOf(snap, 'button "Sign in"')}`);
  assert.match(clicked, /Signed in as ada@example\.com/);
  const page = await pageAt(server.url('/agent.html'));
  assert.equal(await page.textContent('#result'), 'Signed in as ada@example.com');
  assert.match(await agentA.ok('browser_snapshot', { mode: 'interactive' }), /textbox A\d+ "Email": ada@example\.com/);
  const link = await agentA.ok('browser_resolve', { ref: refOf(snap, '[The shop]') });
  assert.equal(link, `${refOf(snap, '[The shop]')} link "The shop" ${server.url('/demo.html')}`);
});

test('an agent gets a screenshot as MCP image content, the password painted over', async () => {
  const r = await agentA.call('browser_screenshot');
  assert.equal(r.error, false, r.text);
  const [caption, image] = r.raw.content;
  assert.match(caption.text, /^the viewport, \d+×\d+ px, 1 secret field painted over$/);
  assert.equal(image.type, 'image');
  assert.equal(image.mimeType, 'image/png');
  assert.equal(Buffer.from(image.data, 'base64').subarray(1, 4).toString(), 'PNG');
  const { tools } = await agentA.client.listTools();
  assert.deepEqual(tools.find((t) => t.name === 'browser_screenshot').annotations,
    { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
  assert.equal((await agentA.call('browser_screenshot', { ref: 'A999' })).code, 'unknown_ref');
});

test('an agent uploads a file from its own computer into a file input by ref', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'axsnap-upload-'));
  const file = join(dir, 'report.csv');
  writeFileSync(file, 'a,b\n1,2\n');
  await agentA.ok('browser_navigate', { url: server.url('/tools.html') });
  const snap = await agentA.ok('browser_snapshot', { mode: 'interactive' });
  const input = refOf(snap, '"Attachment"');
  assert.equal(await agentA.ok('browser_upload', { ref: input, paths: [file] }), `${input} holds report.csv (8 bytes)`);
  const page = await pageAt(server.url('/tools.html'));
  await page.waitForFunction(() => document.getElementById('chosen').textContent !== 'nothing chosen');
  assert.equal(await page.textContent('#chosen'), 'report.csv (text/csv, 8 bytes): a,b\n1,2\n');
  // Only a path the agent names, whole: a relative one or a folder is refused before anything is sent.
  assert.equal((await agentA.call('browser_upload', { ref: input, paths: ['report.csv'] }, { echoes: true })).code, 'bad_request');
  assert.equal((await agentA.call('browser_upload', { ref: input, paths: [dir] }, { echoes: true })).code, 'bad_request');
  rmSync(dir, { recursive: true });
  await agentA.ok('browser_navigate', { back: true });
});

test('wait_for sees text that comes later, and cannot be used to learn a secret', async () => {
  const snap = await agentA.ok('browser_snapshot');
  await agentA.ok('browser_act', { action: 'click', ref: refOf(snap, 'button "Save later"') });
  assert.match(await agentA.ok('browser_wait_for', { text: 'Saved a moment later', timeout: 5000 }), /^done after \d+\.\d s$/);
  const secret = await agentA.call('browser_wait_for', { text: CANARY, timeout: 700 }, { echoes: true });
  assert.equal(secret.code, 'timeout', 'the value of a password field is not on the page an agent sees');
});

test('an old ref after navigation is stale_ref, as a tool error with the code', async () => {
  const snap = await agentA.ok('browser_snapshot');
  const nav = await agentA.ok('browser_navigate', { url: server.url('/demo.html') });
  assert.match(nav, /^tab \d+ "axsnap demo: a small shop" /);
  const old = await agentA.call('browser_act', { action: 'click', ref: refOf(snap, 'button "Sign in"') });
  assert.equal(old.error, true);
  assert.equal(old.code, 'stale_ref');
  assert.match(old.text, /^stale_ref: /);
  assert.match(await agentA.ok('browser_navigate', { back: true }), /^back: tab \d+ "Agent sign-in"/);
});

test('an agent drags a card onto another column by ref', async () => {
  await agentA.ok('browser_navigate', { url: server.url('/apps/divsoup/index.html') });
  const snap = await agentA.ok('browser_snapshot');
  const [card, done] = [refOf(snap, 'Call Ana'), snap.match(/clickable (A\d+) Done\n/)[1]];
  const dragged = await agentA.ok('browser_act', { action: 'drag', ref: card, to: done });
  assert.equal(dragged.split('\n')[0], `dragged ${card} onto ${done}`);
  assert.match(dragged, /Moved Call Ana to Done/, 'the answer says what changed');
  const page = await pageAt(server.url('/apps/divsoup/index.html'));
  assert.equal(await page.textContent('#status'), 'Moved Call Ana to Done');
  const missing = await agentA.call('browser_act', { action: 'drag', ref: card });
  assert.equal(missing.code, 'bad_request');
  assert.match(await agentA.ok('browser_navigate', { back: true }), /^back: tab \d+ "Agent sign-in"/);
});

test('an agent reaches its own tabs and the ones the person shares, not the others', async () => {
  const mine = Number(/^\* (\d+) /m.exec(await agentA.ok('browser_tabs'))[1]);
  const person = await b.ctx.newPage();
  await person.goto(server.url('/form.html'));
  const theirs = await b.tabId(person);
  assert.doesNotMatch(await agentA.ok('browser_tabs'), new RegExp(`^  ${theirs} `, 'm'));
  assert.equal((await agentA.call('browser_snapshot', { tabId: theirs })).code, 'forbidden');
  assert.equal((await agentA.call('browser_tabs', { action: 'select', tabId: theirs })).code, 'forbidden');

  // A second agent on the next port: its own tabs only.
  const agentB = await startAgent('agent-b', port + 1);
  try {
    // The extension looks at a port that never answered again at most 30 s later (its backoff).
    await until('the second agent', async () => (await status())?.agents?.length === 2, 35000);
    assert.match(await agentB.ok('browser_tabs'), /^no tabs yet/);
    assert.equal((await agentB.call('browser_snapshot', { tabId: mine })).code, 'forbidden');
    assert.equal((await agentB.call('browser_snapshot')).code, 'no_tab');

    // The person shares their tab from the side panel (pinned to that tab, as the co-pilot's can be).
    const panel = await b.ctx.newPage();
    await panel.goto(`${PANEL}?tab=${theirs}`);
    await panel.locator('#desktop-agents > summary').click();
    await panel.getByRole('button', { name: 'Share this tab' }).click();
    await until('the shared list', async () => (await panel.locator('#agents-shared').innerText()).includes('Checkout'));
    assert.match(await agentB.ok('browser_tabs'), new RegExp(`^  ${theirs} "Checkout" .* \\(shared\\)$`, 'm'));
    assert.match(await agentB.ok('browser_snapshot'), /^page "Checkout"/, 'the only tab it may use is used without select');
    assert.match(await agentA.ok('browser_snapshot', { tabId: theirs }), /^page "Checkout"/);
    assert.equal((await agentB.call('browser_tabs', { action: 'close', tabId: theirs })).code, 'forbidden', 'a shared tab stays the person\'s');

    await panel.getByRole('button', { name: 'Stop sharing Checkout' }).click();
    await until('the tab to be unshared', async () => (await agentB.call('browser_snapshot', { tabId: theirs })).code === 'forbidden');
    await panel.close();
  } finally {
    await agentB.close();
    await (await panelPage()).evaluate(() => chrome.storage.local.set({ mcpShared: [] }));
    await person.close();
  }
  await until('the second agent to go', async () => (await status())?.agents?.length === 1);
});

test('the panel shows the agent and its steps, and its switch disconnects at once', async () => {
  const panel = await panelPage();
  await panel.reload();
  await panel.locator('#desktop-agents > summary').click();
  await until('the status line', async () => /Connected: agent-a \(port \d+\)/.test(await panel.locator('#agents-status').textContent()));
  // The server's log names the token's fingerprint, never the token; the panel shows the same fingerprint.
  const print = createHash('sha256').update(TOKEN).digest('hex').slice(0, 8);
  assert.match(agentA.log(), new RegExp(`fingerprint, which must be ${print}`));
  assert.equal(agentA.log().includes(TOKEN), false);
  assert.match(await panel.locator('#agents-fingerprint').textContent(), new RegExp(`^Token fingerprint: ${print} `));
  const snap = await agentA.ok('browser_snapshot');
  await agentA.ok('browser_act', { action: 'click', ref: refOf(snap, 'button "Sign in"') });
  await agentA.call('browser_act', { action: 'click', ref: 'A999' });
  await until('the steps', async () => /agent-a: click A\d+ "Sign in"\nagent-a: click A999 \(unknown_ref\)$/.test(await panel.locator('#agents-steps').innerText()));
  assert.match(await panel.locator('#desktop-agents > summary').textContent(), /Desktop agents agent-a connected/);

  const waiting = agentA.call('browser_wait_for', { text: 'never on this page', timeout: 20000 });
  await new Promise((r) => setTimeout(r, 300));
  const started = Date.now();
  await panel.getByRole('switch', { name: 'Allow desktop agents' }).uncheck();
  const cut = await waiting;
  assert.equal(cut.code, 'disconnected', cut.text);
  assert.match(cut.text, /turned off in the side panel/);
  assert.ok(Date.now() - started < 3000, 'at once');
  await until('the panel to say so', async () => /^Off/.test(await panel.locator('#agents-status').textContent()));
  const off = await agentA.call('browser_tabs');
  assert.equal(off.code, 'no_extension');
  assert.match(off.text, /Allow desktop agents/);

  await panel.getByRole('switch', { name: 'Allow desktop agents' }).check();
  await until('the extension to connect again', async () => (await status())?.agents?.length === 1);
  assert.match(await agentA.ok('browser_tabs'), /^\* \d+ "Agent sign-in"/m);
});

/** A WebSocket handshake sent by hand, with any Origin and offer: its HTTP status, and the close frame that follows an upgrade. */
function handshake(headers) {
  return new Promise((resolve, reject) => {
    const req = request({
      host: '127.0.0.1', port, path: '/',
      headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': randomBytes(16).toString('base64'), ...headers },
    });
    req.on('response', (res) => { res.resume(); resolve({ status: res.statusCode }); });
    req.on('upgrade', (res, socket, head) => {
      // A server's close frame: opcode 8, unmasked, short: code then reason.
      const closeFrame = (frame) => {
        socket.destroy();
        resolve({ status: res.statusCode, opcode: frame[0] & 0x0f, code: frame.readUInt16BE(2), reason: frame.subarray(4, 2 + (frame[1] & 0x7f)).toString() });
      };
      if (head.length) closeFrame(head);
      else socket.once('data', closeFrame);
    });
    req.on('error', reject);
    req.end();
  });
}

const offer = (token) => {
  const challenge = `${Math.floor(Date.now() / 1000)}.${randomBytes(16).toString('hex')}`;
  return `axsnap.2, axsnap-auth.${challenge}.${createHmac('sha256', token).update(`axsnap extension ${challenge}`).digest('hex')}`;
};

test('refused: a web page opening the bridge, and a wrong or missing pairing token', async () => {
  const page = await b.ctx.newPage();
  await page.goto(server.url('/demo.html'));
  const fromPage = await page.evaluate((p) => new Promise((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${p}/`, ['axsnap.2', 'axsnap-auth.1.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.00']);
    let opened = false;
    ws.onopen = () => { opened = true; };
    ws.onclose = () => resolve({ opened });
  }), port);
  await page.close();
  assert.deepEqual(fromPage, { opened: false });
  await until('the refusal in the log', () => agentA.log().includes(`refused a connection from ${server.url('').replace(/\/$/, '')}`));

  assert.equal((await handshake({ Origin: server.url('').replace(/\/$/, ''), 'Sec-WebSocket-Protocol': offer(TOKEN) })).status, 403, 'a page with the right token is still a page');
  assert.deepEqual(await handshake({ Origin: ORIGIN, 'Sec-WebSocket-Protocol': 'axsnap.2' }), { status: 101, opcode: 8, code: 4001, reason: 'no pairing token' });
  assert.deepEqual(await handshake({ Origin: ORIGIN, 'Sec-WebSocket-Protocol': offer(TOKEN).replace('axsnap.2', 'axsnap.1') }),
    { status: 101, opcode: 8, code: 4001, reason: 'this axsnap-mcp speaks axsnap.2: update the axsnap extension' }, 'an older extension is told to update');
  assert.deepEqual(await handshake({ Origin: ORIGIN, 'Sec-WebSocket-Protocol': offer('not-the-token-0000') }), { status: 101, opcode: 8, code: 4001, reason: 'wrong pairing token' });

  // The extension with a wrong token: refused, and the panel says why.
  await setSetting({ enabled: true, url: `ws://127.0.0.1:${port}`, token: 'a-token-that-is-wrong' });
  const refused = await until('the refusal in the panel', async () => {
    const s = await status();
    return s?.problem?.includes('refused: wrong pairing token') && s;
  });
  assert.deepEqual(refused.agents, []);
  assert.equal((await agentA.call('browser_tabs')).code, 'no_extension');
  await setSetting({ enabled: true, url: `ws://127.0.0.1:${port}`, token: TOKEN });
  await until('the extension to connect again', async () => (await status())?.agents?.length === 1);
});

/** Stops the extension's service worker, as Chrome does to restart or update it. */
async function stopWorker() {
  const cdp = await b.ctx.newCDPSession(await panelPage());
  const running = [];
  cdp.on('ServiceWorker.workerVersionUpdated', (e) => {
    for (const v of e.versions) if (v.scriptURL.startsWith(ORIGIN) && v.runningStatus === 'running') running.push(v.versionId);
  });
  await cdp.send('ServiceWorker.enable');
  await until('the running worker', () => running.length > 0);
  await cdp.send('ServiceWorker.stopWorker', { versionId: running.at(-1) });
  await cdp.detach();
}

test('the extension restarting fails calls in flight clearly, and the agent carries on after it', async () => {
  // (chrome.runtime.reload() unloads an extension loaded with --load-extension
  // in this Chromium; stopping its worker is the same restart for the bridge.)
  const waiting = agentA.call('browser_wait_for', { text: 'never on this page', timeout: 20000 });
  await new Promise((r) => setTimeout(r, 300));
  await stopWorker();
  const cut = await waiting;
  assert.equal(cut.code, 'disconnected', cut.text);
  assert.match(cut.text, /may or may not have been done/);
  // Any event starts the worker again (here a message; otherwise its 30 s
  // alarm), and it reads the setting and connects by itself.
  await (await panelPage()).evaluate(() => chrome.runtime.sendMessage({ cmd: 'ping' }));
  await until('the extension to come back', async () => (await status())?.agents?.length === 1);
  const snap = await agentA.ok('browser_snapshot');
  assert.match(snap, /^page "Agent sign-in"/);
  assert.match(await agentA.ok('browser_act', { action: 'fill', ref: refOf(snap, 'textbox "Email"'), value: 'grace@example.com' }), /^filled A\d+\n/);
});

test('no tool result ever held the canary password', () => {
  assert.ok(seen.length > 20);
  assert.deepEqual(seen.filter((t) => t.includes(CANARY)), []);
});
