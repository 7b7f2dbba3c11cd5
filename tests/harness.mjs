// Real Chromium (Debian's) with the real extension loaded, driven by
// playwright-core. Requests go to the extension through its message
// protocol, sent from one of its own pages, as the side panel sends them.
import { chromium } from 'playwright-core';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, after } from 'node:test';
import { ROOT, CHROMIUM } from '../scripts/lib.mjs';
import { serve } from './server.mjs';

export { ROOT, CHROMIUM };
export const EXTENSION_ID = 'igfmikjflpmjjplejblhobglmclempkh';

export const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--silent-debugger-extension-api',
];

/**
 * A copy of the extension whose manifest grants host access to `origins` up
 * front. chrome.permissions.request (which the panel calls in the person's
 * click) shows a browser prompt no headless test can answer, and answers at
 * once, granted, when the access is there already; everything else is the
 * extension as shipped.
 * @param {string[]} origins  match patterns, e.g. ['http://*.test/*']
 * @returns {Promise<{dir: string, remove: () => Promise<void>}>}
 */
export async function extensionWithHostAccess(origins) {
  const dir = await mkdtemp(join(tmpdir(), 'axsnap-ext-'));
  for (const d of ['extension', 'protocol']) await cp(join(ROOT, d), join(dir, d), { recursive: true });
  const manifest = JSON.parse(await readFile(join(ROOT, 'manifest.json'), 'utf8'));
  manifest.host_permissions = origins;
  await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * @param {{headless?: boolean, javaScript?: boolean, viewport?: {width:number,height:number},
 *   extensionDir?: string, args?: string[], profile?: string}} [o]  extensionDir: load the extension from there
 *   (an unpacked package, or extensionWithHostAccess's copy) instead of the repository; args: more Chromium
 *   flags; profile: a user data directory to use and keep (a browser restart reuses it), else a fresh one
 */
export async function launch(o = {}) {
  const ext = o.extensionDir ?? ROOT;
  const dir = o.profile ?? await mkdtemp(join(tmpdir(), 'axsnap-chromium-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    headless: o.headless ?? true,
    executablePath: CHROMIUM,
    javaScriptEnabled: o.javaScript ?? true,
    viewport: o.viewport ?? { width: 1280, height: 800 },
    args: [...FLAGS, ...(o.args ?? []), `--disable-extensions-except=${ext}`, `--load-extension=${ext}`],
  });
  let worker = ctx.serviceWorkers().find((w) => w.url().includes(EXTENSION_ID));
  if (!worker) worker = await ctx.waitForEvent('serviceworker', { timeout: 30000 });
  // The extension's own page: chrome.* APIs and the message protocol.
  const panel = await ctx.newPage();
  await panel.goto(`chrome-extension://${EXTENSION_ID}/extension/panel/sidepanel.html`);
  /** Sends one protocol request, exactly as the side panel would. */
  const call = (msg) => panel.evaluate((m) => chrome.runtime.sendMessage(m), msg);
  /** The tab id of a Playwright page. */
  const tabId = async (page) => panel.evaluate(async (url) => {
    const tabs = await chrome.tabs.query({});
    const t = tabs.find((x) => x.url === url);
    return t ? t.id : -1;
  }, page.url());
  /** Records the person's answer for a site, as the panel's buttons do (tests of other things start from an allowed site). */
  const allowSite = (origin, kind = 'always') => panel.evaluate(async ([o, k]) => {
    const grants = await import('/extension/worker/grants.js');
    await grants.answer(o, { kind: k });
  }, [origin, kind]);
  const close = async () => {
    await ctx.close().catch(() => {});
    if (!o.profile) await rm(dir, { recursive: true, force: true }).catch(() => {});
  };
  return { ctx, worker, panel, call, tabId, allowSite, close };
}

/**
 * Chromium with the extension as its own process, reachable over CDP on
 * `port` (for peers that attach by URL, such as chrome-devtools-mcp), and
 * Playwright connected to it. `close` ends it and removes its profile.
 * @param {number} port
 */
export async function launchWithCdp(port) {
  const { spawn } = await import('node:child_process');
  const dir = await mkdtemp(join(tmpdir(), 'axsnap-chromium-cdp-'));
  const proc = spawn(CHROMIUM, ['--headless', ...FLAGS, `--remote-debugging-port=${port}`, `--user-data-dir=${dir}`,
    '--window-size=1280,800', `--disable-extensions-except=${ROOT}`, `--load-extension=${ROOT}`, 'about:blank'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  let browser;
  for (let i = 0; i < 50 && !browser; i++) {
    await new Promise((r) => setTimeout(r, 200));
    browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`).catch(() => null);
  }
  const close = async () => {
    await browser?.close().catch(() => {});
    proc.kill();
    await exited;
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  };
  if (!browser) {
    await close();
    throw new Error('Chromium did not start');
  }
  return { browser, close };
}

/**
 * A plain Chromium (no extension) as its own process, listening for CDP on a
 * port it picks: a stand-in for a remote browser of a fleet. `endpoint` is
 * what chromium.connectOverCDP takes; `close` ends it and removes its profile.
 * @param {{args?: string[]}} [o]
 */
export async function spawnChromium(o = {}) {
  const { spawn } = await import('node:child_process');
  const dir = await mkdtemp(join(tmpdir(), 'axsnap-chromium-remote-'));
  const proc = spawn(CHROMIUM, ['--headless', ...FLAGS, '--remote-debugging-port=0', `--user-data-dir=${dir}`,
    '--window-size=1280,800', ...(o.args ?? []), 'about:blank'], { stdio: 'ignore' });
  const exited = new Promise((resolve) => proc.once('exit', resolve));
  const close = async () => {
    proc.kill();
    await exited;
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  };
  // Chromium writes the port it listens on into the profile once it is ready.
  for (let i = 0; i < 150; i++) {
    const port = await readFile(join(dir, 'DevToolsActivePort'), 'utf8').then((t) => t.split('\n')[0], () => '');
    if (port) return { endpoint: `http://127.0.0.1:${port}`, pid: proc.pid, close };
    await new Promise((r) => setTimeout(r, 100));
  }
  await close();
  throw new Error('Chromium did not start');
}

/**
 * chrome-devtools-mcp, a peer in the benchmarks, as an MCP client driving
 * the Chromium that listens for CDP on `port` (launchWithCdp).
 * @param {number} port
 * @param {string} name  the client's name
 */
export async function devtoolsMcp(port, name) {
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const client = new Client({ name, version: '1' });
  await client.connect(new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'), '--browserUrl', `http://127.0.0.1:${port}`,
      '--no-usage-statistics', '--no-performance-crux'],
    stderr: 'ignore',
  }));
  return client;
}

/**
 * One Chromium with the extension and the fixture server for a whole test
 * file: started before its first test, closed after its last.
 * @param {Parameters<typeof launch>[0] & {allow?: string[]}} [options]  allow: hosts whose
 *   sites (on the fixture server) the person has already allowed, always
 * @returns {{b: Awaited<ReturnType<typeof launch>>, server: Awaited<ReturnType<typeof serve>>}}
 */
export function withExtension(options) {
  const ctx = /** @type {any} */ ({});
  before(async () => {
    ctx.server = await serve({ '/': join(ROOT, 'tests/fixtures') });
    ctx.b = await launch(options);
    for (const host of options?.allow ?? []) await ctx.b.allowSite(new URL(ctx.server.url('/', host)).origin);
  });
  after(async () => {
    await ctx.b?.close();
    await ctx.server?.close();
  });
  return ctx;
}

/**
 * Sends one protocol request from a web page or frame (a Playwright Page or
 * Frame) to the extension, as any site allowed by externally_connectable would.
 */
export function webCall(frame, msg) {
  return frame.evaluate(([id, m]) => chrome.runtime.sendMessage(id, m), [EXTENSION_ID, msg]);
}

/** Polls `check` until it answers something truthy (which it returns), for at most `ms`. */
export async function until(what, check, ms = 10000) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * The ref of what `needle` names: a control as `role "name"` (printed
 * `role A3 "name"`), or any words, whose ref is the nearest before them on
 * their line (`A5 [Docs](/docs)`, `clickable A7 Delete card`), else the
 * first after.
 */
export function refOf(text, needle) {
  const control = /^([a-z]+) (".*")$/.exec(needle);
  if (control) {
    const quoted = control[2].replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const m = new RegExp(`(?:^|\\s)${control[1]} (A\\d+)(?: A\\d+)* ${quoted}`).exec(text);
    if (m) return m[1];
  }
  const line = text.split('\n').find((l) => l.includes(needle));
  if (!line) throw new Error(`no line with ${JSON.stringify(needle)} in:\n${text}`);
  const before = [...line.slice(0, line.indexOf(needle)).matchAll(/(?:^|\s)(A\d+)\b/g)].at(-1);
  const m = before || line.slice(line.indexOf(needle)).match(/(?:^|\s)(A\d+)\b/);
  if (!m) throw new Error(`no ref on line ${JSON.stringify(line)}`);
  return m[1];
}
