// Huge generated pages through the extension: 100,000, 150,000 and 300,000 links (tests/fixtures/huge.html),
// a table of 50,000 rows and a chat log of 20,000 messages, each with a control per item, at 1280x800. Per
// page and mode (default, interactive, full): the median time of `--runs` snapshots (5 unless told) after a
// first one, the answer's characters and refs, and how many of the controls on screen have no ref (the
// target: none). Side by side on the same page of the same browser, each tool in a fresh tab of its own (a
// peer that ran out of time may still be busy in its tab): Playwright's AI snapshot (`ariaSnapshot` with mode
// ai, what Playwright MCP answers) and chrome-devtools-mcp's `take_snapshot` (its MCP server driving this
// Chromium over CDP), each at most 3 runs and 120 s a call, since they are slow there. The results go to
// BENCHMARKS.md unless only some pages were asked for.
//   npm run bench -- --huge [--runs N] [--pages links,links-150k,links-300k,table,chat] [--no-build] [--no-peers]
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir, cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT, output, writeBenchmarkBlock } from './lib.mjs';
import { build } from './build.mjs';

const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const RUNS = Number(arg('--runs') || 5);
const PEER_RUNS = Math.min(RUNS, 3);
const PEER_TIMEOUT = 120000;
const peers = !process.argv.includes('--no-peers');

/** The generated pages: their builder script, and the names of their controls. */
const GENERATED = {
  table: `<table><thead><tr><th>Order</th><th>Total</th><th>Action</th></tr></thead><tbody id="rows"></tbody></table>
<script>
  const rows = document.getElementById('rows'), all = document.createDocumentFragment();
  for (let i = 0; i < 50000; i++) {
    const tr = document.createElement('tr');
    tr.innerHTML = '<td>Order ' + i + '</td><td>$' + ((i * 7919) % 1000) + '</td><td><button>Open ' + i + '</button></td>';
    all.append(tr);
  }
  rows.append(all);
</script>`,
  chat: `<div id="log"></div>
<script>
  const log = document.getElementById('log'), all = document.createDocumentFragment();
  for (let i = 0; i < 20000; i++) {
    const m = document.createElement('div');
    m.innerHTML = '<p><b>' + (i % 2 ? 'Ana' : 'Bo') + '</b> message ' + i + ': see you at ' + (i % 24) + ':00</p><button>Reply ' + i + '</button>';
    all.append(m);
  }
  log.append(all);
</script>`,
};
const PAGES = {
  links: '/huge.html?n=100000',
  'links-150k': '/huge.html?n=150000',
  'links-300k': '/huge.html?n=300000',
  table: '/gen/table.html',
  chat: '/gen/chat.html',
};
const only = arg('--pages')?.split(',');
const names = Object.keys(PAGES).filter((p) => !only || only.includes(p));

if (!process.argv.includes('--no-build')) build({ quiet: true });
const { serve } = await import('../tests/server.mjs');
const { EXTENSION_ID, launchWithCdp, devtoolsMcp } = await import('../tests/harness.mjs');
const dir = await mkdtemp(join(tmpdir(), 'axsnap-huge-'));
for (const [name, body] of Object.entries(GENERATED)) {
  await writeFile(join(dir, `${name}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Huge ${name}</title></head><body><h1>Huge ${name}</h1>${body}</body></html>`);
}
const server = await serve({ '/': join(ROOT, 'tests/fixtures'), '/gen/': dir });
// Its own process reachable over CDP, for chrome-devtools-mcp to attach to.
const port = 9400 + Math.floor(Math.random() * 500);
const chromium = await launchWithCdp(port);
const ctx = chromium.browser.contexts()[0];
const panel = await ctx.newPage();
await panel.goto(`chrome-extension://${EXTENSION_ID}/extension/panel/sidepanel.html`);
const call = (msg) => panel.evaluate((m) => chrome.runtime.sendMessage(m), msg);
const tabIdOf = (page) => panel.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, page.url());
let cdt = null;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** A fresh tab at the page, laid out, and the words of the controls on screen. */
async function open(name) {
  const page = await ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(server.url(PAGES[name]), { waitUntil: 'load', timeout: 180000 });
  await page.evaluate(() => document.body.getBoundingClientRect().height);
  const inView = await page.evaluate(() => [...document.querySelectorAll('a, button')]
    .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.bottom > 0 && r.top < innerHeight; })
    .map((e) => e.textContent.trim()));
  return { page, inView };
}

/** The controls on screen with no line holding both their words (not followed by a digit: "Link 1" is not "Link 10") and a ref. */
const withoutRef = (text, inView, ref) => {
  const lines = text.split('\n').filter((l) => ref.test(l));
  return inView.filter((n) => !lines.some((l) => new RegExp(`${n}(?!\\d)`).test(l))).length;
};

/** A peer's row: `look()` at most PEER_RUNS times after a first one, each within PEER_TIMEOUT (null past it). */
async function peerRow(name, tool, mode, look, ref, inView) {
  const times = [];
  let text;
  for (let i = 0; i <= PEER_RUNS; i++) {
    const t = Date.now();
    text = await look();
    if (text === null) break;
    if (i > 0) times.push(Date.now() - t);
  }
  if (text === null) return { name, tool, mode, ms: null };
  const refs = new Set(text.match(new RegExp(ref.source, 'g')) || []).size;
  return { name, tool, mode, ms: median(times), chars: text.length, refs, missing: withoutRef(text, inView, ref), inView: inView.length };
}

const textOf = (r) => (r.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
async function devtoolsSnapshot(page) {
  cdt ??= await devtoolsMcp(port, 'axsnap-bench-huge');
  const tool = async (name, args, timeout = 30000) => {
    const r = await cdt.callTool({ name, arguments: args }, undefined, { timeout });
    if (r.isError) throw new Error(`${name}: ${textOf(r).slice(0, 200)}`);
    return textOf(r);
  };
  const line = (await tool('list_pages', {})).split('\n').find((l) => l.includes(page.url()));
  const pageId = Number(line.match(/^(\d+):/)[1]);
  await tool('select_page', { pageId });
  return () => tool('take_snapshot', { pageId }, PEER_TIMEOUT).catch(() => null);
}

const rows = [];
try {
  for (const name of names) {
    let { page, inView } = await open(name);
    const tabId = await tabIdOf(page);
    for (const [mode, options] of [['default', {}], ['interactive', { mode: 'interactive' }], ['full', { mode: 'full' }]]) {
      const times = [];
      let last;
      for (let i = 0; i <= RUNS; i++) {
        const t = Date.now();
        last = await call({ cmd: 'snapshot', tabId, options });
        if (i > 0) times.push(Date.now() - t);
      }
      if (!last.ok) { rows.push({ name, tool: 'axsnap', mode, error: last.error.code }); continue; }
      const refs = new Set(last.text.match(/\bA\d+\b/g) || []).size;
      rows.push({ name, tool: 'axsnap', mode, ms: median(times), chars: last.text.length, refs, missing: withoutRef(last.text, inView, /(?:^|\s)A\d+\b/), inView: inView.length });
    }
    if (peers) {
      await page.close();
      ({ page, inView } = await open(name));
      rows.push(await peerRow(name, 'Playwright ariaSnapshot', 'ai', () => page.ariaSnapshot({ mode: 'ai', timeout: PEER_TIMEOUT }).catch(() => null), /\[ref=e\d+\]/, inView));
      await page.close();
      ({ page, inView } = await open(name));
      const look = await devtoolsSnapshot(page);
      rows.push(await peerRow(name, 'chrome-devtools-mcp take_snapshot', '', look, /uid=\S+/, inView));
    }
    await page.close();
  }
} finally {
  await cdt?.close().catch(() => {});
  await chromium.close();
  await server.close();
}

const cell = (r) => (r.error ? `error ${r.error}` : r.ms === null ? `> ${PEER_TIMEOUT / 1000} s` : String(r.ms));
let report = `### ${new Date().toISOString().slice(0, 10)} · ${chromium.browser.version()} · ${output('uname', ['-srm']) || 'unknown'}, ${cpus().length} cores, load ${loadavg()[0].toFixed(1)}`
  + ` · axsnap ${RUNS} timed snapshots after a first one, each peer ${PEER_RUNS} (at most ${PEER_TIMEOUT / 1000} s a call)\n\n`
  + '| page | tool | mode | median ms | chars | refs | controls in view without a ref |\n|---|---|---|--:|--:|--:|--:|\n';
for (const r of rows) report += `| ${r.name} | ${r.tool} | ${r.mode} | ${cell(r)} | ${r.chars ?? ''} | ${r.refs ?? ''} | ${r.missing === undefined ? '' : `${r.missing} of ${r.inView}`} |\n`;
if (peers) {
  report += '\nThe slowest of axsnap\'s modes against each peer (its median over axsnap\'s; a peer past its time limit: at least that):\n\n'
    + '| page | axsnap, slowest mode ms | every control in view with a ref, every mode | Playwright ms | ratio | chrome-devtools-mcp ms | ratio |\n|---|--:|---|--:|--:|--:|--:|\n';
  for (const name of names) {
    const ours = rows.filter((r) => r.name === name && r.tool === 'axsnap');
    const slowest = ours.some((r) => r.error) ? null : Math.max(...ours.map((r) => r.ms));
    const all = ours.every((r) => r.missing === 0) ? 'yes' : 'no';
    const ratio = (tool) => {
      const p = rows.find((r) => r.name === name && r.tool.startsWith(tool));
      const ms = p.ms ?? PEER_TIMEOUT;
      return [p.ms === null ? `> ${ms}` : ms, slowest ? `${p.ms === null ? '> ' : ''}${(ms / slowest).toFixed(1)}×` : ''];
    };
    report += `| ${name} | ${slowest ?? 'error'} | ${all} | ${ratio('Playwright').join(' | ')} | ${ratio('chrome-devtools-mcp').join(' | ')} |\n`;
  }
}
console.log(report);
if (!only) writeBenchmarkBlock('huge', '## Huge pages: `npm run bench -- --huge`', report.trimEnd());
process.exit(0);
