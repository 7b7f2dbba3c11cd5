// A large table edited one cell at a time, through the extension: what a look after a one-node change
// costs beside a full read of the same page, side by side in one run. The page: a table of `--rows` rows
// (1,050 unless told, about 18,000 accessibility nodes), each with a quantity and an `Add one to item n`
// button whose click listener adds one to that row's quantity (so the page has thousands of listeners).
// Per round, on a row further down each time: the cell changed by a script, then `snapshot {diff: true}`
// timed, then a full read (`snapshot {fresh: true}`) timed; and the button clicked with act-with-diff
// (`act {snapshot: {diff: true}}`) timed, from the request to the answer (settling included), with its
// snapshot's own time. Medians over `--runs` rounds (9 unless told), and the ratio to the full read.
//   npm run bench -- --edit [--runs N] [--rows N] [--no-build]
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';
import { build } from './build.mjs';

const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const RUNS = Number(arg('--runs') || 9);
const ROWS = Number(arg('--rows') || 1050);

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Stock</title></head><body>
<h1>Stock</h1>
<table><thead><tr><th>Item</th><th>Shelf</th><th>Quantity</th><th>Price</th><th>Change</th></tr></thead><tbody id="rows"></tbody></table>
<script>
  const rows = document.getElementById('rows'), all = document.createDocumentFragment();
  for (let i = 0; i < ${ROWS}; i++) {
    const tr = document.createElement('tr');
    tr.innerHTML = '<td>Item ' + i + '</td><td>Shelf ' + (i % 40) + '</td><td class="qty">' + (i % 17) + '</td><td>$' + ((i * 7919) % 1000) + '</td><td><button>Add one to item ' + i + '</button></td>';
    const qty = tr.querySelector('.qty');
    tr.querySelector('button').addEventListener('click', () => { qty.textContent = String(Number(qty.textContent) + 1); });
    all.append(tr);
  }
  rows.append(all);
</script></body></html>`;

if (!process.argv.includes('--no-build')) build({ quiet: true });
const { serve } = await import('../tests/server.mjs');
const { launch } = await import('../tests/harness.mjs');
const dir = await mkdtemp(join(tmpdir(), 'axsnap-edit-'));
await writeFile(join(dir, 'table.html'), PAGE);
const server = await serve({ '/': dir });
const b = await launch();
const median = (xs) => { const s = [...xs].sort((x, y) => x - y); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const ok = (r, what) => { if (!r.ok) throw new Error(`${what}: ${r.error.code} ${r.error.message}`); return r; };
const times = { full: [], fullWorker: [], diff: [], diffWorker: [], act: [], actSnapshot: [], fullFetch: [], diffFetch: [], fullClicks: [], diffClicks: [], fullSerialize: [], diffSerialize: [] };
/** A snapshot's time as the caller waited for it, and the worker's own parts of it, under `kind` (full, diff). */
const record = (kind, answer, ms) => {
  const t = answer.stats.timings;
  times[kind].push(ms);
  times[`${kind}Worker`].push(t.totalMs);
  times[`${kind}Fetch`].push(t.fetchMs);
  times[`${kind}Clicks`].push(t.clickablesMs);
  times[`${kind}Serialize`].push(t.serializeMs);
};
const reads = { diff: [], act: [] };
let nodes = 0;
try {
  const page = await b.ctx.newPage();
  await page.goto(server.url('/table.html'), { waitUntil: 'load' });
  await page.bringToFront();
  const tabId = await b.tabId(page);
  ok(await b.call({ cmd: 'snapshot', tabId, options: {} }), 'first snapshot');
  for (let i = 0; i < RUNS; i++) {
    const row = Math.floor(((i + 1) * ROWS) / (RUNS + 2));
    await page.evaluate((n) => { const q = document.querySelectorAll('.qty')[n]; q.textContent = String(Number(q.textContent) + 10); }, row);
    let t = performance.now();
    const diff = ok(await b.call({ cmd: 'snapshot', tabId, options: { diff: true } }), 'snapshot diff');
    record('diff', diff, performance.now() - t);
    reads.diff.push(diff.stats.fetch.incremental ? `incremental, click facts ${diff.stats.fetch.clickFacts}` : `whole: ${diff.stats.fetch.reason}`);
    t = performance.now();
    const full = ok(await b.call({ cmd: 'snapshot', tabId, options: { fresh: true } }), 'full read');
    record('full', full, performance.now() - t);
    nodes = full.stats.nodesIn;
    // The button of a row in view of the snapshot just read (a capped snapshot shows the rows near the top).
    const button = full.text.split('\n').find((l) => l.includes(`Add one to item ${i}`) && /\bA\d+\b/.test(l));
    const ref = button && button.match(/\bA\d+\b/)[0];
    if (!ref) throw new Error(`no ref for the button of item ${i}`);
    t = performance.now();
    const act = ok(await b.call({ cmd: 'act', tabId, action: 'click', ref, snapshot: { diff: true } }), 'act with diff');
    times.act.push(performance.now() - t);
    times.actSnapshot.push(act.stats.timings.totalMs);
    reads.act.push(act.stats.fetch.incremental ? `incremental, click facts ${act.stats.fetch.clickFacts}` : `whole: ${act.stats.fetch.reason}`);
  }
} finally {
  await b.close();
  await server.close();
}
const m = Object.fromEntries(Object.entries(times).map(([k, v]) => [k, Math.round(median(v))]));
const count = (xs) => Object.entries(xs.reduce((o, x) => ({ ...o, [x]: (o[x] || 0) + 1 }), {})).map(([k, n]) => `${n}× ${k}`).join('; ');
console.log(`${ROWS} rows, ${nodes} AX nodes, ${RUNS} rounds, load ${loadavg()[0].toFixed(1)}`);
console.log('| look | median ms (request to answer) | in the worker: all; fetch, click facts (after the fetch), serialize | / full read |\n|---|--:|---|--:|');
console.log(`| full read (snapshot {fresh: true}) | ${m.full} | ${m.fullWorker}; ${m.fullFetch}, ${m.fullClicks}, ${m.fullSerialize} | 1 |`);
console.log(`| snapshot {diff: true} after a one-cell change | ${m.diff} | ${m.diffWorker}; ${m.diffFetch}, ${m.diffClicks}, ${m.diffSerialize} | ${(m.diff / m.full).toFixed(3)} |`);
console.log(`| act {snapshot: {diff: true}}, click (settling included) | ${m.act} | its snapshot ${m.actSnapshot} | ${(m.act / m.full).toFixed(3)} (snapshot ${(m.actSnapshot / m.full).toFixed(3)}) |`);
console.log(`- snapshot diff reads: ${count(reads.diff)}\n- act-with-diff reads: ${count(reads.act)}`);
process.exit(0);
