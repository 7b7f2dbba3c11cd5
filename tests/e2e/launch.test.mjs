// axsnap-mcp --launch: the agent's own browser. The official MCP client starts
// the server with --launch; it starts Chromium (headless, a fresh profile) with
// the extension loaded and paired over Chromium's DevTools pipe, so the token
// shows on no command line; the agent then opens and drives a page on a site
// nobody allowed, since the browser is its own; the browser and its profile
// go when the server ends.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ROOT, CHROMIUM, refOf } from '../harness.mjs';
import { serve } from '../server.mjs';

const BIN = join(ROOT, 'target/debug/axsnap-mcp');
const TOKEN = randomBytes(16).toString('hex');
let server, client;

after(async () => {
  await client?.close().catch(() => {});
  await server?.close();
});

/** The command lines of every process on this machine (Linux /proc). */
function commandLines() {
  return readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
    } catch {
      return '';
    }
  });
}

test('axsnap-mcp --launch starts a paired browser of the agent\'s own, and takes it away at the end', { skip: !existsSync(BIN) && 'build axsnap-mcp first' }, async () => {
  server = await serve({ '/': join(ROOT, 'tests/fixtures') });
  const transport = new StdioClientTransport({
    command: BIN, args: ['--launch', '--port', String(17500 + Math.floor(Math.random() * 400)), '--connect-timeout', '30'], stderr: 'pipe',
    env: { ...getDefaultEnvironment(), AXSNAP_MCP_TOKEN: TOKEN, AXSNAP_CHROMIUM: CHROMIUM },
  });
  let log = '';
  transport.stderr?.on('data', (d) => { log += d; });
  client = new Client({ name: 'launch-test', version: '1.0.0' });
  await client.connect(transport);
  const ok = async (name, args = {}) => {
    const r = /** @type {any} */ (await client.callTool({ name, arguments: args }));
    const text = r.content.map((c) => c.text).join('\n');
    assert.ok(!r.isError, `${name}: ${text}\n${log}`);
    return text;
  };
  const opened = await ok('browser_navigate', { url: server.url('/demo.html') });
  assert.match(opened, /axsnap demo/);
  assert.match(log, /started the agent's own browser \(headless\)/);
  const lines = commandLines().filter((l) => l.includes('--remote-debugging-pipe') && l.includes('axsnap-mcp-browser-'));
  assert.ok(lines.length > 0, 'the launched Chromium runs');
  assert.ok(commandLines().every((l) => !l.includes(TOKEN)), 'the token is on no command line');
  assert.ok(!log.includes(TOKEN), 'nor in the log');
  const snap = await ok('browser_snapshot', { mode: 'full' });
  assert.match(snap, /textbox A\d+ "Password" secret=current-password/);
  // Another site, never allowed: in its own browser the agent is not held by the guard.
  const other = await ok('browser_navigate', { url: server.url('/form.html', 'localhost') });
  assert.match(other, /Checkout/);
  const after1 = await ok('browser_act', { action: 'click', ref: refOf(await ok('browser_snapshot', {}), 'Count clicks') });
  assert.match(after1, /Clicked 1/);
  const profile = lines[0].match(/--user-data-dir=(\S+)/)[1];
  assert.ok(profile.startsWith(tmpdir()) && existsSync(profile));
  await client.close();
  client = null;
  // The browser and its profile end with the server.
  for (let i = 0; i < 50 && existsSync(profile); i++) await new Promise((r) => setTimeout(r, 100));
  assert.ok(!existsSync(profile), 'the profile was removed');
  assert.ok(commandLines().every((l) => !l.includes(profile)), 'the browser ended');
});
