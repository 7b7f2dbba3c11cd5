// The app benchmark: every fixture app of tests/apps (component libraries
// bundled at test time, JavaScript on, 127.0.0.1, 1280x800), each in a fresh
// tab of one Chromium, snapshotted by axsnap (through the extension) and by
// its peers side by side. Per app and tool: o200k_base tokens, refs, the
// median latency of a snapshot (RUNS looks after a first one), and the
// coverage of the elements the app's author marked interactive (`data-act`,
// scored as tests/apps/coverage.mjs scores axsnap in the e2e tests), each
// peer's refs followed to their elements its own way:
//   axsnap               resolve → backendNodeId → the element
//   chrome-devtools-mcp  evaluate_script with the uids as arguments
//   Playwright           ariaSnapshot {mode: 'ai'}; its refs are `aria-ref=` selectors
//   agent-browser        snapshot -i -C; `get box` of each ref → the element with that box
// Then the latency target: each app against the corpus page nearest in AX
// nodes, loaded with JavaScript off in the same run.
//
//   npm run bench -- --apps [--app name,name] [--runs N] [--no-peers] [--no-build]
//     [--package: axsnap through @axsnap/cdp on the page's CDPSession too, beside the extension]
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { promisify } from 'node:util';
import { setup } from './setup.mjs';
import { build } from './build.mjs';
import { ROOT, output, writeBenchmarkBlock } from './lib.mjs';
import { corpusDir } from './fidelity.mjs';

const argv = process.argv.slice(2).filter((a) => a !== '--apps');
const only = argv.includes('--app') ? argv[argv.indexOf('--app') + 1].split(',') : null;
const RUNS = argv.includes('--runs') ? Number(argv[argv.indexOf('--runs') + 1]) : 5;
const peersOn = !argv.includes('--no-peers');
const viaPackage = argv.includes('--package');

if (!argv.includes('--no-build')) {
  setup();
  build({ quiet: true });
}
const { get_encoding: getEncoding } = await import('tiktoken');
const { serve } = await import('../tests/server.mjs');
const { EXTENSION_ID, launchWithCdp, devtoolsMcp } = await import('../tests/harness.mjs');
const { serveApps, appNames } = await import('../tests/apps/build.mjs');
const { shownMarks, markAround, marksOf, score } = await import('../tests/apps/coverage.mjs');

const enc = getEncoding('o200k_base');
const tokens = (s) => enc.encode(s).length;
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN; };
const now = () => performance.now();
const distinct = (text, re) => [...new Set([...text.matchAll(re)].map((m) => m[1]))];

const apps = appNames().filter((a) => !only || only.includes(a));
const appServer = await serveApps();
const corpus = corpusDir() || join(ROOT, '../shared/corpus');
const pageServer = existsSync(join(corpus, 'pages')) ? await serve({ '/': join(corpus, 'pages') }) : null;
const port = 9400 + Math.floor(Math.random() * 500);
const chromium = await launchWithCdp(port);
const { browser } = chromium;
const ctx = browser.contexts()[0];
const panel = await ctx.newPage();
await panel.goto(`chrome-extension://${EXTENSION_ID}/extension/panel/sidepanel.html`);
const call = (msg) => panel.evaluate((m) => chrome.runtime.sendMessage(m), msg);

/** A fresh tab at `url` (JavaScript off when asked), and its tab id for the extension. */
async function open(url, { js = true } = {}) {
  const page = await ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  if (!js) {
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Emulation.setScriptExecutionDisabled', { value: true });
  }
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
  await page.waitForLoadState('load', { timeout: 20000 }).catch(() => {});
  if (js) await page.waitForFunction(() => document.body.innerText.trim().length > 0);
  // Let the app's first effects and animations end, as a person would before looking.
  await page.waitForTimeout(500);
  await page.bringToFront();
  const tabId = await panel.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, page.url());
  return { page, tabId };
}

/** Times `look` RUNS times after a first look; answers the first look's result and the median ms. */
async function timed(look) {
  const first = await look();
  const ms = [];
  let last = first;
  for (let i = 0; i < RUNS; i++) {
    const t0 = now();
    last = await look();
    ms.push(last.ms ?? now() - t0);
  }
  return { ...first, last, ms: median(ms) };
}

/** The extension's requests through @axsnap/cdp attached to `page`: the same answers, `{ok: false, error}` on failure. */
async function packageCall(page) {
  const { attach } = await import('../packages/cdp/src/index.js');
  const ax = await attach(page);
  const call = async (msg) => {
    try {
      return { ok: true, ...(await ax.request(msg)) };
    } catch (e) {
      return { ok: false, error: { code: e.code, message: e.message } };
    }
  };
  return { call, detach: () => ax.detach() };
}

// --- axsnap
async function axsnap(page, tabId, options = { full: true }, o = {}) {
  const via = o.package ? await packageCall(page) : null;
  try {
    return await axsnapWith(via ? via.call : call, page, tabId, options);
  } finally {
    await via?.detach();
  }
}

async function axsnapWith(call, page, tabId, options) {
  const snap = async () => {
    const t0 = now();
    const res = await call({ cmd: 'snapshot', tabId, options });
    if (!res.ok) throw new Error(`${res.error.code}: ${res.error.message}`);
    return { text: res.text, stats: res.stats, wall: now() - t0, ms: res.stats.timings.totalMs };
  };
  const r = await timed(snap);
  const refs = distinct(r.text, /(?:^|[ |])(A\d+)(?=$|[ |:\n])/gm);
  const nodes = [];
  for (const ref of refs) {
    const res = await call({ cmd: 'resolve', tabId, ref });
    if (res.ok) nodes.push(res.backendNodeId);
  }
  const hits = await marksOf(page, nodes);
  return { text: r.text, refs: refs.length, ms: r.ms, hits, nodes: r.stats.nodesIn, timings: r.last.stats.timings };
}

// --- chrome-devtools-mcp
let cdt = null;
const textOf = (r) => (r.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
async function cdtmcp(page) {
  cdt ??= await devtoolsMcp(port, 'axsnap-bench-apps');
  const tool = async (name, args) => {
    const r = await cdt.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${textOf(r).slice(0, 200)}`);
    return textOf(r);
  };
  const list = await tool('list_pages', {});
  const line = list.split('\n').find((l) => l.includes(page.url()));
  if (!line) throw new Error('our tab is not among its pages');
  const pageId = Number(line.match(/^(\d+):/)[1]);
  await tool('select_page', { pageId });
  const r = await timed(async () => ({ text: await tool('take_snapshot', { pageId }) }));
  // Each snapshot issues new uids: the last one's are the ones that resolve.
  const text = r.last.text;
  const uids = distinct(text, /uid=(\S+)/g);
  // The root web area is the page, not a control: it is not counted as a ref.
  const refs = uids.filter((u) => !new RegExp(`uid=${u} RootWebArea`).test(text));
  // One uid a call: an element the app has replaced since (antd re-renders) hits nothing.
  const hits = [];
  for (const uid of refs) {
    const out = await tool('evaluate_script', { pageId, waitForStableDom: false, args: [uid], function: `(el) => (${markAround})(el)` }).catch(() => null);
    const json = out?.match(/```json\n([\s\S]*?)\n```/)?.[1];
    hits.push(json ? JSON.parse(json) : null);
  }
  return { text: r.text, refs: refs.length, ms: r.ms, hits };
}

// --- Playwright
async function playwright(page) {
  const r = await timed(async () => ({ text: await page.ariaSnapshot({ mode: 'ai' }) }));
  const refs = distinct(r.text, /\[ref=(e\d+)\]/g);
  const hits = [];
  for (const ref of refs) hits.push(await page.locator(`aria-ref=${ref}`).evaluate(markAround).catch(() => null));
  return { text: r.text, refs: refs.length, ms: r.ms, hits };
}

// --- agent-browser
const exec = promisify(execFile);
const session = `axsnap-bench-apps-${process.pid}`;
const ab = async (...args) => (await exec(join(ROOT, 'node_modules/.bin/agent-browser'), ['--session', session, '--cdp', String(port), ...args],
  { timeout: 60000, maxBuffer: 64 << 20 })).stdout;

/**
 * In the page: the mark around the element whose box is `box` (the
 * outermost one, shadow trees included), or null.
 */
function markAtBox(box, around) {
  const near = (a, b) => Math.abs(a - b) < 1;
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      const r = el.getBoundingClientRect();
      if (near(r.x, box.x) && near(r.y, box.y) && near(r.width, box.width) && near(r.height, box.height)) return el;
      const inner = el.shadowRoot && walk(el.shadowRoot);
      if (inner) return inner;
    }
    return null;
  };
  const el = walk(document);
  return el ? around(el) : null;
}

async function agentBrowser(page) {
  const list = await ab('tab', 'list');
  const line = list.split('\n').find((l) => l.includes(page.url()));
  const id = line && (line.match(/\[(\w+)\]/) || [])[1];
  if (!id) throw new Error('our tab is not among its tabs');
  await ab('tab', id);
  const r = await timed(async () => ({ text: await ab('snapshot', '-i', '-C') }));
  const refs = distinct(r.text, /\[ref=(e\d+)\]/g);
  const boxes = JSON.parse(await ab('batch', '--json', ...refs.map((ref) => `get box @${ref}`)));
  const hits = [];
  for (const b of Array.isArray(boxes) ? boxes : boxes.data ?? []) {
    const box = b?.result ?? b?.data;
    hits.push(box && Number.isFinite(box.width)
      ? await page.evaluate(`(${markAtBox})(${JSON.stringify(box)}, ${markAround})`)
      : null);
  }
  return { text: r.text, refs: refs.length, ms: r.ms, hits };
}

const TOOLS = [
  ['axsnap', (p, t) => axsnap(p, t)],
  ['axsnap interactive', (p, t) => axsnap(p, t, { full: true, mode: 'interactive' })],
  ...(viaPackage ? [['axsnap via @axsnap/cdp', (p, t) => axsnap(p, t, { full: true }, { package: true })]] : []),
  ...(peersOn ? [['chrome-devtools-mcp', cdtmcp], ['Playwright ai', playwright], ['agent-browser -i -C', agentBrowser]] : []),
];

// --- the run: apps
const outDir = join(ROOT, 'bench/out/apps');
mkdirSync(join(outDir, 'texts'), { recursive: true });
const results = {};
const failures = [];
for (const app of apps) {
  results[app] = {};
  for (const [name, run] of TOOLS) {
    const { page, tabId } = await open(appServer.app(app));
    try {
      const marked = await page.evaluate(shownMarks);
      const r = await run(page, tabId);
      const c = score(marked, r.hits);
      writeFileSync(join(outDir, 'texts', `${app}.${name.replace(/\W+/g, '-')}.txt`), r.text);
      results[app][name] = { tokens: tokens(r.text), refs: r.refs, ms: r.ms, marked: c.marked.length, covered: c.covered.length, missing: c.missing, extra: c.extra, nodes: r.nodes, timings: r.timings };
    } catch (e) {
      failures.push(`${app}, ${name}: ${String(e.message).split('\n')[0]}`);
    }
    await page.close();
  }
  const line = Object.entries(results[app]).map(([n, x]) => `${n} ${x.tokens} tok ${x.refs} refs ${x.covered}/${x.marked} ${x.ms.toFixed(0)} ms`).join(' | ');
  console.log(`${app.padEnd(9)} ${line}`);
}

// --- the latency target: each app against the corpus page nearest in AX nodes, JavaScript off
const sizes = pageServer ? readdirSync(join(corpus, 'ax')).filter((f) => f.endsWith('.json.gz')).map((f) => {
  const tree = JSON.parse(gunzipSync(readFileSync(join(corpus, 'ax', f))).toString());
  return { name: f.replace(/\.json\.gz$/, ''), nodes: (tree.nodes || []).length };
}).filter((p) => existsSync(join(corpus, 'pages', `${p.name}.html`))) : [];
// Both tabs open, their snapshots taken in turns, so the load of this shared
// machine weighs on both alike.
for (const app of apps) {
  const nodes = results[app].axsnap?.nodes;
  if (!nodes || !sizes.length) continue;
  const near = sizes.reduce((a, b) => (Math.abs(b.nodes - nodes) < Math.abs(a.nodes - nodes) ? b : a));
  const tabs = [await open(appServer.app(app)), await open(pageServer.url(`/${near.name}.html`), { js: false })];
  try {
    const looks = [[], []];
    for (let round = 0; round <= RUNS; round++) {
      for (const [k, { page, tabId }] of tabs.entries()) {
        await page.bringToFront();
        // Read whole, both: the cost of reading a page, not of looking again at one that did not change
        // (incremental fetching follows a JavaScript-off page almost always, an app with state-dependent CSS not).
        const res = await call({ cmd: 'snapshot', tabId, options: { full: true, fresh: true } });
        if (!res.ok) throw new Error(`${res.error.code}: ${res.error.message}`);
        if (round > 0) looks[k].push(res.stats);
      }
    }
    const summary = (stats) => ({ nodes: stats[0].nodesIn, ms: median(stats.map((x) => x.timings.totalMs)),
      timings: { fetchMs: median(stats.map((x) => x.timings.fetchMs)), clickablesMs: median(stats.map((x) => x.timings.clickablesMs)) } });
    results[app].inTurns = summary(looks[0]);
    results[app].baseline = { page: near.name, ...summary(looks[1]) };
  } catch (e) {
    failures.push(`${app} beside ${near.name}: ${String(e.message).split('\n')[0]}`);
  }
  for (const t of tabs) await t.page.close();
}

if (cdt) await cdt.close().catch(() => {});
if (peersOn) await ab('close').catch(() => {});
await chromium.close();
await appServer.close();
await pageServer?.close();

// --- the report
const fmt = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const labels = TOOLS.map(([n]) => n);
const perApp = ['| app | AX nodes | tool | tokens | refs | marked elements with a ref | extra refs | median ms per snapshot |', '|---|---|---|---|---|---|---|---|'];
for (const app of apps) {
  for (const l of labels) {
    const x = results[app][l];
    if (!x) { perApp.push(`| ${app} | | ${l} | failed | | | | |`); continue; }
    const miss = x.missing.length ? ` (missing ${x.missing.join(', ')})` : '';
    perApp.push(`| ${app} | ${results[app].axsnap?.nodes ?? ''} | ${l} | ${x.tokens} | ${x.refs} | ${x.covered}/${x.marked}${miss} | ${x.extra} | ${fmt(x.ms)} |`);
  }
}
const total = labels.map((l) => {
  const xs = apps.map((a) => results[a][l]).filter(Boolean);
  const sum = (k) => xs.reduce((s, x) => s + x[k], 0);
  return `| ${l} | ${xs.length} | ${sum('tokens')} | ${sum('refs')} | ${sum('covered')}/${sum('marked')} (${fmt((100 * sum('covered')) / sum('marked'), 1)}%) | ${sum('extra')} | ${fmt(median(xs.map((x) => x.ms)))} |`;
});
const totals = ['| tool | apps | tokens, all apps | refs | marked elements with a ref | extra refs | median over apps of median ms |', '|---|---|---|---|---|---|---|', ...total].join('\n');
const lat = apps.filter((a) => results[a].inTurns && results[a].baseline?.ms).map((a) => {
  const x = results[a].inTurns, p = results[a].baseline;
  const ratio = x.ms / p.ms;
  return { app: a, ratio, row: `| ${a} | ${x.nodes} | ${fmt(x.ms)} (fetch ${fmt(x.timings.fetchMs)}, clickables ${fmt(x.timings.clickablesMs)}) | ${p.page} | ${p.nodes} | ${fmt(p.ms)} (fetch ${fmt(p.timings.fetchMs)}, clickables ${fmt(p.timings.clickablesMs)}) | ${fmt(ratio, 2)} |` };
});
const latency = ['| app | AX nodes | axsnap median ms (JavaScript on) | corpus page nearest in size | AX nodes | median ms (JavaScript off) | ratio |', '|---|---|---|---|---|---|---|', ...lat.map((x) => x.row)].join('\n');
const ours = apps.map((a) => results[a].axsnap).filter(Boolean);
const mark = (ok) => (ok ? 'met' : '**not met**');
const allCovered = ours.length === apps.length && ours.every((x) => x.missing.length === 0);
const extraOk = ours.every((x) => x.extra <= Math.floor(x.refs * 0.05));
const targets = ['| target | measured | |', '|---|---|---|',
  `| 100% of marked interactive elements reachable by ref on every app | ${ours.reduce((s, x) => s + x.covered, 0)}/${ours.reduce((s, x) => s + x.marked, 0)} | ${mark(allCovered)} |`,
  `| at most 5% extra refs on every app | worst ${fmt(Math.max(...ours.map((x) => (100 * x.extra) / x.refs)), 1)}% | ${mark(extraOk)} |`,
  `| snapshot latency within 1.5× of JavaScript-off pages of the same size | worst ${fmt(Math.max(...lat.map((x) => x.ratio)), 2)}× (${lat.sort((a, b) => b.ratio - a.ratio)[0]?.app ?? '–'}) | ${mark(lat.length === apps.length && lat.every((x) => x.ratio <= 1.5))} |`,
].join('\n');
const machine = `${output('uname', ['-srm']) || 'unknown'}, ${(await import('node:os')).cpus().length} cores, load ${(await import('node:os')).loadavg()[0].toFixed(1)}`;
const report = `### ${new Date().toISOString().slice(0, 10)} · ${browser.version()} · ${machine} · ${apps.length} apps, ${RUNS} timed snapshots each\n\n` +
  `Per app (tokens: o200k_base of one snapshot; ms: median of ${RUNS} snapshots after a first one, axsnap's as the extension times it, the peers' from the call to the answer):\n\n${perApp.join('\n')}\n\n` +
  `All apps:\n\n${totals}\n\n${targets}\n\nLatency beside JavaScript-off pages of the same size (axsnap full, medians of ${RUNS} snapshots of each, taken in turns):\n\n${latency}\n` +
  (failures.length ? `\n- failures: ${failures.join('; ')}\n` : '');
console.log(`\n${report}`);
writeFileSync(join(outDir, 'apps.json'), JSON.stringify(results, null, 1));
// BENCHMARKS.md keeps the extension's run; one with the package beside it is printed only.
if (!only && !viaPackage) {
  writeBenchmarkBlock('apps', '## Web apps: `npm run bench -- --apps`', report);
}
process.exit(0);
