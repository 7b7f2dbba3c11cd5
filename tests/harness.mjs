// Real Chromium (Debian's) with the real extension loaded, driven by
// playwright-core. Requests go to the extension through its message
// protocol, sent from one of its own pages, as the side panel sends them.
import { chromium } from 'playwright-core';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const EXTENSION_ID = 'igfmikjflpmjjplejblhobglmclempkh';
export const CHROMIUM = process.env.AXSNAP_CHROMIUM || '/usr/bin/chromium';

export const FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage', '--silent-debugger-extension-api',
];

/**
 * @param {{headless?: boolean, javaScript?: boolean, viewport?: {width:number,height:number}}} [o]
 */
export async function launch(o = {}) {
  const dir = await mkdtemp(join(tmpdir(), 'axsnap-chromium-'));
  const ctx = await chromium.launchPersistentContext(dir, {
    headless: o.headless ?? true,
    executablePath: CHROMIUM,
    javaScriptEnabled: o.javaScript ?? true,
    viewport: o.viewport ?? { width: 1280, height: 800 },
    args: [...FLAGS, `--disable-extensions-except=${ROOT}`, `--load-extension=${ROOT}`],
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
  const close = async () => {
    await ctx.close().catch(() => {});
    await rm(dir, { recursive: true, force: true }).catch(() => {});
  };
  return { ctx, worker, panel, call, tabId, close };
}

/** The snapshot line holding `needle`, and the ref on it. */
export function refOf(text, needle) {
  const line = text.split('\n').find((l) => l.includes(needle));
  if (!line) throw new Error(`no line with ${JSON.stringify(needle)} in:\n${text}`);
  const after = line.slice(line.indexOf(needle));
  const m = after.match(/ (A\d+)\b/) || line.match(/ (A\d+)\b/);
  if (!m) throw new Error(`no ref on line ${JSON.stringify(line)}`);
  return m[1];
}
