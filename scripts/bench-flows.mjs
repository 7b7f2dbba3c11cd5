// The agent-loop benchmark: the scripted flows of tests/flows.mjs on the
// hand-written apps of tests/fixtures/flows/ (JavaScript on, 127.0.0.1),
// each tool running each flow in a fresh tab of one Chromium. Per step:
// o200k_base tokens of what the agent reads after the action, and the time
// from sending the action to having it. Tools:
//   axsnap full       act, then snapshot {full: true}
//   axsnap diff       act with snapshot {diff: true, full: true} (one call; waits for the page to settle)
//   chrome-devtools-mcp  its action tool with includeSnapshot (scroll: evaluate_script + take_snapshot)
//   Playwright        the action through playwright-core, then ariaSnapshot {mode: 'ai'}
//   agent-browser     the action, then `snapshot`; and `diff snapshot` (its diff) before it
//
//   npm run bench -- --flows [--flow name,name] [--no-peers] [--no-build: use the extension as built]
//     [--package: axsnap's loops through @axsnap/cdp on the page's CDPSession instead of the extension]
//     [--report bench/out/flows.json: write the report again from a saved run, without running anything]
import { execFile } from 'node:child_process';
import { writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { join, isAbsolute } from 'node:path';
import { cpus, loadavg } from 'node:os';
import { promisify } from 'node:util';
import { setup } from './setup.mjs';
import { build } from './build.mjs';
import { ROOT, output, writeBenchmarkBlock } from './lib.mjs';

const argv = process.argv.slice(2).filter((a) => a !== '--flows');
const only = argv.includes('--flow') ? argv[argv.indexOf('--flow') + 1].split(',') : null;
const peersOn = !argv.includes('--no-peers');
// A whole run takes long on a loaded machine; the report can be made again from the results it saved.
const saved = argv.includes('--report') ? JSON.parse(readFileSync(argv[argv.indexOf('--report') + 1], 'utf8')) : null;
const viaPackage = saved?.viaPackage ?? argv.includes('--package');

if (!saved && !argv.includes('--no-build')) {
  setup();
  build({ quiet: true });
}
const { get_encoding: getEncoding } = await import('tiktoken');
const { serve } = await import('../tests/server.mjs');
const { EXTENSION_ID, launchWithCdp, refOf, devtoolsMcp } = await import('../tests/harness.mjs');
const { FLOWS, axsnapNeedle } = await import('../tests/flows.mjs');

const enc = getEncoding('o200k_base');
const tokens = (s) => enc.encode(s).length;
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN; };
const sum = (a) => a.reduce((x, y) => x + y, 0);
const now = () => performance.now();

const server = saved ? null : await serve({ '/': join(ROOT, 'tests/fixtures') });
const port = 9400 + Math.floor(Math.random() * 500);
const chromium = saved ? null : await launchWithCdp(port);
const ctx = chromium?.browser.contexts()[0];
const panel = await ctx?.newPage();
await panel?.goto(`chrome-extension://${EXTENSION_ID}/extension/panel/sidepanel.html`);
const extensionCall = (msg) => panel.evaluate((m) => chrome.runtime.sendMessage(m), msg);

/** A fresh tab on the flow's page, found by the extension by a marker in its URL. */
async function open(flow) {
  const page = await ctx.newPage();
  await page.setViewportSize({ width: 1280, height: 800 });
  const url = `${server.url(flow.page)}?run=${Date.now()}`;
  await page.goto(url, { waitUntil: 'load' });
  await page.bringToFront();
  const tabId = await panel.evaluate(async (u) => (await chrome.tabs.query({})).find((t) => t.url === u)?.id, url);
  return { page, url, tabId };
}

const valueOf = (s) => (s.do === 'click' || s.do === 'check' ? undefined : s.value);

// --- axsnap
async function axsnap(flow, diff) {
  const { page, tabId } = await open(flow);
  const ax = viaPackage ? await (await import('../packages/cdp/src/index.js')).attach(page) : null;
  // Through the package, the same requests and answers (ok or the error), on the page's own CDPSession.
  const call = !ax ? extensionCall : async (msg) => {
    try {
      return { ok: true, ...(await ax.request(msg)) };
    } catch (e) {
      return { ok: false, error: { code: e.code, message: e.message } };
    }
  };
  // The full tool reads the whole tree each time (fresh), as every snapshot did before incremental fetching.
  const look = async () => {
    const res = await call({ cmd: 'snapshot', tabId, options: { full: true, fresh: !diff } });
    if (!res.ok) throw new Error(`snapshot: ${res.error.code} ${res.error.message}`);
    return res;
  };
  let view = await look();
  const steps = [];
  for (const s of flow.steps) {
    const ref = s.role ? refOf(view.text, axsnapNeedle(s)) : undefined;
    const req = { cmd: 'act', tabId, action: s.do, ref, value: valueOf(s) };
    const t0 = now();
    if (diff) {
      const res = await call({ ...req, snapshot: { diff: true, full: true } });
      if (!res.ok) throw new Error(`${s.do} ${s.name}: ${res.error.code} ${res.error.message}`);
      steps.push({ text: res.text, tokens: tokens(res.text), ms: now() - t0, full: res.diff.full, settleMs: res.settled.ms, nodes: res.stats.nodesIn,
        snapMs: res.stats.timings.totalMs, fetchMs: res.stats.timings.fetchMs, fetch: res.stats.fetch, timings: res.stats.timings });
      // The refs of the page now, for the next step (not timed; the next diff compares with it, the same page).
      view = await look();
    } else {
      const res = await call(req);
      if (!res.ok) throw new Error(`${s.do} ${s.name}: ${res.error.code} ${res.error.message}`);
      view = await look();
      steps.push({ text: view.text, tokens: tokens(view.text), ms: now() - t0, nodes: view.stats.nodesIn, fetchMs: view.stats.timings.fetchMs, serializeMs: view.stats.timings.serializeMs,
        snapMs: view.stats.timings.totalMs });
    }
  }
  await ax?.detach();
  await page.close();
  return steps;
}

// --- Playwright: the action, then the AI snapshot Playwright MCP returns after it
async function playwright(flow) {
  const { page } = await open(flow);
  await page.ariaSnapshot({ mode: 'ai' });
  const steps = [];
  for (const s of flow.steps) {
    const t0 = now();
    const el = s.role ? page.getByRole(/** @type {any} */ (s.role), { name: s.name, exact: true }).first() : null;
    if (s.do === 'click') await el.click();
    else if (s.do === 'fill') await el.fill(String(s.value));
    else if (s.do === 'select') await el.selectOption({ label: String(s.value) });
    else if (s.do === 'check') await el.check();
    else if (s.do === 'scroll') await page.mouse.wheel(0, Number(s.value));
    const text = await page.ariaSnapshot({ mode: 'ai' });
    steps.push({ tokens: tokens(text), ms: now() - t0 });
  }
  await page.close();
  return steps;
}

// --- Playwright MCP: its MCP stdio server on the same Chromium, as its users drive it. After an action it waits
// (its own settling) and writes the page's snapshot to a file the agent reads; an action that answers with no
// snapshot (its fill) is followed by browser_snapshot, as an agent must to see the effect.
let pwm = null;
const pwmOut = join(ROOT, 'bench/out/playwright-mcp');
async function pwmClient() {
  if (pwm) return pwm;
  const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  pwm = new Client({ name: 'axsnap-bench-flows', version: '1' });
  await pwm.connect(new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'node_modules/@playwright/mcp/cli.js'), '--cdp-endpoint', `http://127.0.0.1:${port}`, '--output-dir', pwmOut],
    cwd: pwmOut,
    stderr: 'ignore',
  }));
  return pwm;
}
async function playwrightMcp(flow) {
  mkdirSync(pwmOut, { recursive: true });
  const c = await pwmClient();
  const { page, url } = await open(flow);
  const tool = async (name, args) => {
    const r = await c.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${textOf(r).slice(0, 200)}`);
    return textOf(r);
  };
  /** What the agent reads after a call: the answer, and the snapshot file it links to. */
  const read = async (answer) => {
    const file = answer.match(/\[Snapshot\]\(([^)]+)\)/)?.[1];
    if (!file) return answer;
    return `${answer}\n${readFileSync(isAbsolute(file) ? file : join(pwmOut, file), 'utf8')}`;
  };
  const tabs = await tool('browser_tabs', { action: 'list' });
  const index = tabs.split('\n').find((l) => l.includes(url))?.match(/^- (\d+):/)?.[1];
  if (index === undefined) throw new Error('our tab is not among its tabs');
  await tool('browser_tabs', { action: 'select', index: Number(index) });
  let view = await tool('browser_snapshot', {});
  const ref = (s) => {
    const m = view.match(new RegExp(`${s.role} "${s.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"[^\n]*?\\[ref=(\\w+)\\]`));
    if (!m) throw new Error(`no ${s.role} "${s.name}" in its snapshot`);
    return m[1];
  };
  const steps = [];
  for (const s of flow.steps) {
    const t0 = now();
    let answer;
    if (s.do === 'scroll') answer = await tool('browser_evaluate', { function: `() => { window.scrollBy(0, ${Number(s.value)}); }` });
    else if (s.do === 'fill') answer = await tool('browser_type', { element: s.name, target: ref(s), text: String(s.value) });
    else if (s.do === 'select') answer = await tool('browser_select_option', { element: s.name, target: ref(s), values: [String(s.value)] });
    else answer = await tool('browser_click', { element: s.name, target: ref(s) });
    let text = await read(answer);
    if (!/### Snapshot/.test(answer)) text = `${text}\n${await read(await tool('browser_snapshot', {}))}`;
    steps.push({ text, tokens: tokens(text), ms: now() - t0 });
    view = text;
  }
  await page.close();
  return steps;
}

// --- chrome-devtools-mcp
let cdt = null;
async function cdtClient() {
  cdt ??= await devtoolsMcp(port, 'axsnap-bench-flows');
  return cdt;
}
const textOf = (r) => (r.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
async function cdtmcp(flow) {
  const c = await cdtClient();
  const { page, url } = await open(flow);
  const tool = async (name, args) => {
    const r = await c.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${textOf(r).slice(0, 200)}`);
    return textOf(r);
  };
  const list = await tool('list_pages', {});
  const line = list.split('\n').find((l) => l.includes(url));
  if (!line) throw new Error('our tab is not among its pages');
  const pageId = Number(line.match(/^(\d+):/)[1]);
  await tool('select_page', { pageId });
  let view = await tool('take_snapshot', { pageId });
  const uid = (s) => {
    const re = new RegExp(`uid=(\\S+) ${s.role} "${s.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`);
    const m = view.match(re);
    if (!m) throw new Error(`no ${s.role} "${s.name}" in its snapshot`);
    return m[1];
  };
  const steps = [];
  for (const s of flow.steps) {
    const t0 = now();
    let text;
    if (s.do === 'scroll') {
      await tool('evaluate_script', { pageId, function: `() => { window.scrollBy(0, ${Number(s.value)}); }` });
      text = await tool('take_snapshot', { pageId });
    } else if (s.do === 'fill' || s.do === 'select') {
      text = await tool('fill', { pageId, uid: uid(s), value: String(s.value), includeSnapshot: true });
    } else {
      text = await tool('click', { pageId, uid: uid(s), includeSnapshot: true });
    }
    steps.push({ tokens: tokens(text), ms: now() - t0 });
    view = text;
  }
  await page.close();
  return steps;
}

// --- agent-browser
const exec = promisify(execFile);
const session = `axsnap-bench-flows-${process.pid}`;
const ab = async (...args) => (await exec(join(ROOT, 'node_modules/.bin/agent-browser'), ['--session', session, '--cdp', String(port), ...args],
  { timeout: 60000, maxBuffer: 64 << 20 })).stdout;
async function agentBrowser(flow) {
  const { page, url } = await open(flow);
  const list = await ab('tab', 'list');
  const line = list.split('\n').find((l) => l.includes(url));
  const id = line && (line.match(/\[(\w+)\]/) || [])[1];
  if (!id) throw new Error('our tab is not among its tabs');
  await ab('tab', id);
  let view = await ab('snapshot');
  const ref = (s) => {
    const m = view.split('\n').find((l) => l.includes(`${s.role} "${s.name}"`))?.match(/[[ ]ref=(\w+)\]/);
    if (!m) throw new Error(`no ${s.role} "${s.name}" in its snapshot`);
    return `@${m[1]}`;
  };
  const steps = [];
  for (const s of flow.steps) {
    const t0 = now();
    if (s.do === 'scroll') await ab('scroll', Number(s.value) < 0 ? 'up' : 'down', String(Math.abs(Number(s.value))));
    else if (s.do === 'fill') await ab('fill', ref(s), String(s.value));
    else if (s.do === 'select') await ab('select', ref(s), String(s.value));
    else await ab(s.do, ref(s));
    const acted = now() - t0;
    const t1 = now();
    const diff = await ab('diff', 'snapshot');
    const diffMs = now() - t1;
    const t2 = now();
    view = await ab('snapshot');
    steps.push({ tokens: tokens(view), ms: acted + (now() - t2), diffTokens: tokens(diff), diffMs: acted + diffMs });
  }
  await page.close();
  return steps;
}

// --- the run
const TOOLS = [
  ['axsnap full', (f) => axsnap(f, false)],
  ['axsnap diff', (f) => axsnap(f, true)],
  ...(peersOn ? [['chrome-devtools-mcp', cdtmcp], ['Playwright MCP', playwrightMcp], ['Playwright ai', playwright], ['agent-browser', agentBrowser]] : []),
];
const flows = saved ? FLOWS.filter((f) => saved.results[f.name]) : FLOWS.filter((f) => !only || only.includes(f.name));
/** flow → tool → steps */
const results = saved?.results ?? {};
const failures = saved?.failures ?? [];
/** the 1-minute load average after each flow: the machine is shared, and timings follow its load */
const loads = saved?.loads ?? [];
const outDir = join(ROOT, 'bench/out');
mkdirSync(outDir, { recursive: true });
const save = () => writeFileSync(join(outDir, 'flows.json'),
  JSON.stringify({ browser: chromium.browser.version(), viaPackage, loads, failures, results }, null, 1));
for (const flow of saved ? [] : flows) {
  results[flow.name] = {};
  for (const [name, runFlow] of TOOLS) {
    try {
      results[flow.name][name] = await runFlow(flow);
    } catch (e) {
      failures.push(`${flow.name}, ${name}: ${String(e.message).split('\n')[0]}`);
    }
  }
  const r = results[flow.name];
  const line = Object.entries(r).map(([n, st]) => `${n} ${sum(st.map((x) => x.tokens))} tok ${median(st.map((x) => x.ms)).toFixed(0)} ms`).join(' | ');
  loads.push(Number(loadavg()[0].toFixed(1)));
  console.log(`${flow.name.padEnd(11)} ${line} | load ${loads.at(-1)}`);
  save(); // a run cut short keeps the flows it finished (--report makes their report)
}
if (cdt) await cdt.close().catch(() => {});
if (pwm) await pwm.close().catch(() => {});
if (peersOn && !saved) await ab('close').catch(() => {});
const browserVersion = saved?.browser ?? chromium.browser.version();
await chromium?.close();
await server?.close();

// --- the report
const fmt = (x, d = 0) => (Number.isFinite(x) ? x.toFixed(d) : '–');
const columns = [
  ['axsnap full', (st) => st, 'axsnap full (act + snapshot)'],
  ['axsnap diff', (st) => st, 'axsnap diff (act with snapshot)'],
  ['chrome-devtools-mcp', (st) => st, 'chrome-devtools-mcp (action + snapshot)'],
  ['Playwright MCP', (st) => st, 'Playwright MCP (action, its snapshot)'],
  ['Playwright ai', (st) => st, 'Playwright ariaSnapshot ai after the action (in-process, no waiting)'],
  ['agent-browser', (st) => st, 'agent-browser (action + snapshot)'],
  ['agent-browser', (st) => st.map((x) => ({ tokens: x.diffTokens, ms: x.diffMs })), 'agent-browser (action + diff snapshot)'],
];
const rows = [];
for (const flow of flows) {
  const r = results[flow.name];
  const nodes = Math.max(0, ...(r['axsnap full'] || []).map((x) => x.nodes || 0));
  for (const [key, pick, label] of columns) {
    if (!r[key]) continue;
    const st = pick(r[key]);
    rows.push({ flow: flow.name, steps: st.length, nodes, label, tokens: sum(st.map((x) => x.tokens)), ms: median(st.map((x) => x.ms)) });
  }
}
const by = (flow, label) => rows.find((x) => x.flow === flow && x.label === label);
const perFlow = ['| flow | steps | AX nodes (max) | tool | tokens, whole flow | / axsnap full | median ms per step |', '|---|---|---|---|---|---|---|',
  ...rows.map((x) => `| ${x.flow} | ${x.steps} | ${x.nodes} | ${x.label} | ${x.tokens} | ${fmt(x.tokens / by(x.flow, columns[0][2])?.tokens, 3)} | ${fmt(x.ms)} |`)].join('\n');
const overall = columns.map(([, , label]) => {
  const mine = flows.map((f) => by(f.name, label)).filter(Boolean);
  const ratios = mine.map((x) => x.tokens / by(x.flow, columns[0][2])?.tokens).filter(Number.isFinite);
  return { label, flows: mine.length, tokens: sum(mine.map((x) => x.tokens)), ratio: median(ratios), ms: median(mine.map((x) => x.ms)) };
}).filter((o) => o.flows);
const overallTable = ['| tool | flows | tokens, all flows | median over flows of tokens / axsnap full | median over flows of median ms per step |', '|---|---|---|---|---|',
  ...overall.map((o) => `| ${o.label} | ${o.flows} | ${o.tokens} | ${fmt(o.ratio, 3)} | ${fmt(o.ms)} |`)].join('\n');
const diffRow = overall.find((o) => o.label === columns[1][2]);
// The peers' loops as agents run them (MCP servers, CLIs). Playwright's in-process snapshot is no such loop
// (no transport, no waiting): it is reported beside them, and the issue takes it only when Playwright MCP cannot run.
const inProcess = overall.find((o) => o.label === columns.find(([k]) => k === 'Playwright ai')[2]);
const pwmRan = overall.some((o) => o.label === columns.find(([k]) => k === 'Playwright MCP')[2]);
const peers = overall.filter((o) => !o.label.startsWith('axsnap') && (o !== inProcess || !pwmRan));
const mark = (ok) => (ok ? 'met' : '**not met**');
// Per flow: the act-with-diff loop against each peer's loop on that flow, and its tokens against full snapshots.
const verdicts = flows.map((f) => {
  const mine = by(f.name, columns[1][2]), full = by(f.name, columns[0][2]);
  const theirs = peers.map((p) => by(f.name, p.label)).filter(Boolean);
  return { flow: f.name, mine, theirs, ratio: mine && full ? mine.tokens / full.tokens : NaN,
    faster: !!mine && theirs.length > 0 && theirs.every((p) => mine.ms < p.ms), fewer: !!mine && theirs.length > 0 && theirs.every((p) => mine.tokens < p.tokens) };
}).filter((v) => v.mine);
const short = (label) => label.replace(/ \(action \+ snapshot\)| \(action, its snapshot\)/, '').replace(' (action + diff snapshot)', ' diff');
const perFlowTargets = [`| flow | axsnap diff | ${peers.map((p) => short(p.label)).join(' | ')} | faster than every peer | fewer tokens than every peer | tokens diff / full | ≤ 0.5 |`,
  `|---|---|${peers.map(() => '---|').join('')}---|---|---|---|`,
  ...verdicts.map((v) => `| ${v.flow} | ${fmt(v.mine.ms)} ms · ${v.mine.tokens} tok | ${peers.map((p) => { const x = by(v.flow, p.label); return x ? `${fmt(x.ms)} ms · ${x.tokens} tok` : '–'; }).join(' | ')} | ` +
    `${v.faster ? 'yes' : '**no**'} | ${v.fewer ? 'yes' : '**no**'} | ${fmt(v.ratio, 3)} | ${v.ratio <= 0.5 ? 'yes' : '**no**'} |`)].join('\n');
// Where an act-with-diff step's time goes: the wait for the page to settle, the snapshot in the worker (CDP reads, then
// the Wasm core's serialize and diff), and the rest (the action itself and the messages to and from the extension).
const profile = ['| flow | act-with-diff ms | settling | snapshot | of which CDP fetch | of which serialize + diff | action + messaging | whole reads |', '|---|---|---|---|---|---|---|---|',
  ...flows.filter((f) => results[f.name]['axsnap diff']).map((f) => {
    const st = results[f.name]['axsnap diff'];
    const rest = st.map((x) => x.ms - x.settleMs - x.snapMs);
    return `| ${f.name} | ${fmt(median(st.map((x) => x.ms)))} | ${fmt(median(st.map((x) => x.settleMs)))} | ${fmt(median(st.map((x) => x.snapMs)))} | ` +
      `${fmt(median(st.map((x) => x.fetchMs)))} | ${fmt(median(st.map((x) => x.timings?.serializeMs)))} | ${fmt(median(rest))} | ${st.filter((x) => x.fetch && !x.fetch.incremental).length} of ${st.length} |`;
  })].join('\n');
const diffSteps = flows.flatMap((f) => results[f.name]['axsnap diff'] || []);
const fullSteps = flows.flatMap((f) => results[f.name]['axsnap full'] || []);
const pooled = sum(verdicts.map((v) => v.mine.tokens)) / sum(verdicts.map((v) => by(v.flow, columns[0][2])?.tokens ?? NaN));
const worst = verdicts.reduce((w, v) => (!w || v.ratio > w.ratio ? v : w), null);
const bigFull = fullSteps.filter((x) => x.nodes > 5000);
const bigIncr = diffSteps.filter((x) => x.nodes > 5000 && x.fetch?.incremental);
const incrRatio = median(bigIncr.map((x) => x.snapMs)) / median(bigFull.map((x) => x.snapMs));
/** why the act-with-diff snapshots that read the whole tree did so, with how often */
const wholeReads = Object.entries(diffSteps.filter((x) => x.fetch && !x.fetch.incremental)
  .reduce((m, x) => ({ ...m, [x.fetch.reason]: (m[x.fetch.reason] || 0) + 1 }), {})).map(([why, n]) => `${why} (${n})`);
const bigWhole = diffSteps.filter((x) => x.nodes > 5000 && x.fetch && !x.fetch.incremental).length;
const names = (vs) => vs.map((v) => v.flow).join(', ');
const targets = ['| target | measured | |', '|---|---|---|',
  `| tokens with diffs ≤ 0.25 of full snapshots, pooled over the flows | ${fmt(pooled, 3)} (median over flows ${fmt(diffRow?.ratio, 3)}) | ${mark(pooled <= 0.25)} |`,
  `| tokens with diffs ≤ 0.5 of full snapshots on every flow | worst ${worst ? `${worst.flow} ${fmt(worst.ratio, 3)}` : '–'} | ${mark(verdicts.length > 0 && verdicts.every((v) => v.ratio <= 0.5))} |`,
  `| tokens with diffs below every peer's, on every flow | ${verdicts.filter((v) => v.fewer).length} of ${verdicts.length} flows${verdicts.some((v) => !v.fewer) ? ` (not: ${names(verdicts.filter((v) => !v.fewer))})` : ''}; all flows ${diffRow?.tokens} vs ${peers.map((p) => `${short(p.label)} ${p.tokens}`).join(', ')} | ${mark(verdicts.length > 0 && verdicts.every((v) => v.fewer))} |`,
  `| act-with-diff faster than every peer's act-then-snapshot (median ms per step), on every flow | ${verdicts.filter((v) => v.faster).length} of ${verdicts.length} flows${verdicts.some((v) => !v.faster) ? ` (not: ${names(verdicts.filter((v) => !v.faster))})` : ''}; median over flows ${fmt(diffRow?.ms)} vs ${peers.map((p) => `${short(p.label)} ${fmt(p.ms)}`).join(', ')} | ${mark(verdicts.length > 0 && verdicts.every((v) => v.faster))} |`,
  ...(inProcess && pwmRan ? [`| (reference, not a target) act-with-diff against Playwright's in-process snapshot with no waiting | ${fmt(diffRow?.ms)} vs ${fmt(inProcess.ms)} | ${diffRow?.ms < inProcess.ms ? 'faster' : 'slower'} |`] : []),
  `| incremental snapshot ≤ 0.3 of a full one on pages above 5,000 nodes (median snapshot ms in the worker) | ${fmt(median(bigIncr.map((x) => x.snapMs)))} / ${fmt(median(bigFull.map((x) => x.snapMs)))} = ${fmt(incrRatio, 3)} | ${mark(incrRatio <= 0.3)} |`,
].join('\n');
const speed = [
  `- axsnap diff steps answered with the whole page instead: ${diffSteps.filter((x) => x.full).length} of ${diffSteps.length} (a new document, or a diff not much smaller than the page)`,
  `- settling (from the action to the page settled, inside the act-with-diff time): median ${fmt(median(diffSteps.map((x) => x.settleMs)))} ms`,
  `- incremental fetching, act-with-diff snapshots: ${diffSteps.filter((x) => x.fetch?.incremental).length} of ${diffSteps.length} read only what changed; the rest read the whole tree: ${wholeReads.join(', ') || 'none'}`,
  `- on pages above 5,000 AX nodes: ${bigIncr.length} incremental snapshots (median ${fmt(median(bigIncr.map((x) => x.snapMs)))} ms, CDP fetch ${fmt(median(bigIncr.map((x) => x.fetchMs)), 1)} ms), ${bigWhole} read whole; full snapshots (fresh, ${bigFull.length} steps) median ${fmt(median(bigFull.map((x) => x.snapMs)))} ms`,
  `- full snapshots on pages above 5,000 AX nodes (${bigFull.length} steps): median CDP fetch ${fmt(median(bigFull.map((x) => x.fetchMs)), 1)} ms, Wasm serialize ${fmt(median(bigFull.map((x) => x.serializeMs)), 1)} ms, ${fmt(median(bigFull.map((x) => x.nodes / x.serializeMs)), 0)} AX nodes/ms`,
].join('\n');
const load = loads.length ? `load ${fmt(median(loads), 1)} (median over the flows; ${fmt(Math.min(...loads), 1)}–${fmt(Math.max(...loads), 1)})` : `load ${loadavg()[0].toFixed(1)}`;
const machine = `${output('uname', ['-srm']) || 'unknown'}, ${cpus().length} cores, ${load}`;
const report = `### ${new Date().toISOString().slice(0, 10)} · ${browserVersion} · ${machine}${viaPackage ? ' · axsnap through @axsnap/cdp' : ''}\n\n` +
  `Per flow (tokens: o200k_base of what the agent reads after each action, summed over the flow; ms: from sending the action to having that text):\n\n${perFlow}\n\n` +
  `Per flow, axsnap's act-with-diff against each peer's loop (median ms per step · tokens over the flow):\n\n${perFlowTargets}\n\n` +
  `Where an act-with-diff step's time goes (medians over the flow's steps, ms; whole reads: snapshots that read the whole tree):\n\n${profile}\n\n` +
  `Overall:\n\n${overallTable}\n\n${targets}\n\n${speed}\n` + (failures.length ? `- failures: ${failures.join('; ')}\n` : '');
console.log(`\n${report}`);
if (!saved) save();
// BENCHMARKS.md keeps the extension's full run; a run through the package is printed only.
if (!only && !viaPackage && flows.length === FLOWS.length) {
  writeBenchmarkBlock('flows', '## Agent loops: `npm run bench -- --flows`', report);
}
process.exit(0);
