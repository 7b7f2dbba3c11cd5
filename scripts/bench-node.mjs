// axsnap in one Node process (@axsnap/cdp), side by side with Playwright's
// ariaSnapshot (mode `ai`) and agent-browser, on the same Chromium and the
// same corpus pages (JavaScript off, 1280x800): o200k_base tokens, time per
// snapshot (median of runs, each a full read) and refs per actionable
// element (the page's actionable elements from its accessibility tree,
// scripts/actionable.mjs). agent-browser is a CLI talking to its own daemon:
// its time includes starting the CLI for each snapshot, as an agent calls it.
//
//   npm run bench -- --node [--pages name,name] [--runs N] [--all]   (default: the 8 pages of --quick, 3 runs)
import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { setup } from './setup.mjs';
import { build } from './build.mjs';
import { ROOT } from './lib.mjs';
import { corpusDir } from './fidelity.mjs';
import { actionableBackendIds } from './actionable.mjs';

const QUICK = ['form-github-login', 'news-cnn', 'docs-py-json', 'github-issue-56', 'table-steel-datasheet', 'forum-reddit-thread', 'shop-songkick-tickets', 'wiki-mozilla'];
const argv = process.argv.slice(2);
const flag = (name) => { const i = argv.indexOf(name); return i < 0 ? undefined : argv[i + 1]; };
const runs = Number(flag('--runs') ?? 3);

setup();
build({ quiet: true });
const { chromium } = await import('playwright-core');
const { get_encoding: getEncoding } = await import('tiktoken');
const { serve } = await import('../tests/server.mjs');
const { spawnChromium } = await import('../tests/harness.mjs');
const { attach } = await import('../packages/cdp/src/index.js');

const enc = getEncoding('o200k_base');
const tokens = (s) => enc.encode(s).length;
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const sum = (a) => a.reduce((x, y) => x + y, 0);

const pagesDir = join(corpusDir() ?? join(ROOT, '../shared/corpus'), 'pages');
let pages = argv.includes('--all') ? readdirSync(pagesDir).filter((f) => f.endsWith('.html')).map((f) => f.slice(0, -5)).sort() : QUICK;
if (flag('--pages')) pages = pages.filter((p) => flag('--pages').split(',').some((q) => p.includes(q)));

const server = await serve({ '/': pagesDir });
const remote = await spawnChromium();
const port = new URL(remote.endpoint).port;
const browser = await chromium.connectOverCDP(remote.endpoint);
const ctx = browser.contexts()[0];
const exec = promisify(execFile);
const session = `axsnap-bench-node-${process.pid}`;
const agentBrowser = async (args) => (await exec(join(ROOT, 'node_modules/.bin/agent-browser'), ['--session', session, '--cdp', port, ...args], { timeout: 60000, maxBuffer: 64 << 20 })).stdout;

/** Runs `fn` `runs` times: the last answer, and the median time in ms. */
async function timed(fn) {
  const ms = [];
  let out;
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    out = await fn();
    ms.push(performance.now() - t);
  }
  return { out, ms: median(ms) };
}

const rows = [];
for (const name of pages) {
  const page = await ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
  const url = server.url(`/${name}.html`);
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
  await page.waitForLoadState('load', { timeout: 20000 }).catch(() => {});
  const actionable = actionableBackendIds((await cdp.send('Accessibility.getFullAXTree')).nodes);
  const r = { page: name, actionable: actionable.size };

  const ax = await attach(page);
  const a = await timed(() => ax.snapshot({ full: true, fresh: true }));
  const refs = Object.keys(a.out.refs);
  // Which actionable elements got a ref: each ref resolved to its element.
  const got = new Set((await Promise.all(refs.map((ref) => ax.resolve(ref).then((x) => x.backendNodeId, () => null)))).filter((x) => x !== null));
  Object.assign(r, { axsnap_tokens: tokens(a.out.text), axsnap_ms: a.ms, axsnap_refs: refs.length, axsnap_covered: [...actionable].filter((id) => got.has(id)).length });
  await ax.detach();

  const p = await timed(() => page.ariaSnapshot({ mode: 'ai' }));
  Object.assign(r, { playwright_tokens: tokens(p.out), playwright_ms: p.ms, playwright_refs: (p.out.match(/\[ref=/g) || []).length });

  try {
    const list = await agentBrowser(['tab', 'list']);
    const id = (list.split('\n').find((l) => l.includes(url))?.match(/\[(\w+)\]/) || [])[1];
    if (id) await agentBrowser(['tab', id]);
    const b = await timed(() => agentBrowser(['snapshot']));
    Object.assign(r, { ab_tokens: tokens(b.out), ab_ms: b.ms, ab_refs: (b.out.match(/\[ref=/g) || []).length });
  } catch (e) {
    r.ab_error = String(e.stderr || e.message).trim().split('\n')[0];
  }
  await page.close();
  rows.push(r);
  console.log(`${name.padEnd(28)} axsnap ${r.axsnap_tokens} tok ${r.axsnap_ms.toFixed(0)} ms | playwright ${r.playwright_tokens} tok ${r.playwright_ms.toFixed(0)} ms | `
    + `agent-browser ${r.ab_tokens ?? r.ab_error} tok ${r.ab_ms?.toFixed(0) ?? '-'} ms | actionable ${r.actionable}, axsnap refs ${r.axsnap_refs} (${r.axsnap_covered} of them)`);
}

await agentBrowser(['close']).catch(() => {});
await browser.close().catch(() => {});
await remote.close();
await server.close();

const tools = [['axsnap (@axsnap/cdp)', 'axsnap'], ['Playwright ariaSnapshot ai', 'playwright'], ['agent-browser snapshot', 'ab']];
const actionableSum = sum(rows.map((r) => r.actionable));
console.log(`\n${rows.length} pages, ${runs} runs each; Chromium ${browser.version()}\n`);
console.log('| tool | tokens (sum) | vs axsnap | median ms per snapshot | refs per actionable element |');
console.log('|-|-|-|-|-|');
const axSum = sum(rows.map((r) => r.axsnap_tokens));
for (const [label, k] of tools) {
  const have = rows.filter((r) => r[`${k}_tokens`] !== undefined);
  const tok = sum(have.map((r) => r[`${k}_tokens`]));
  const refs = sum(have.map((r) => r[`${k}_refs`])) / sum(have.map((r) => r.actionable));
  console.log(`| ${label} | ${tok}${have.length < rows.length ? ` (${have.length} pages)` : ''} | ${(tok / axSum).toFixed(2)} | ${median(have.map((r) => r[`${k}_ms`])).toFixed(0)} | ${refs.toFixed(2)} |`);
}
console.log(`\naxsnap gave a ref to ${sum(rows.map((r) => r.axsnap_covered))} of ${actionableSum} actionable elements.`);
process.exit(0);
