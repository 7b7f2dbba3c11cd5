// A fleet from one Node process: N Chromiums (each its own process, reached
// over connectOverCDP as a remote fleet's are) × M pages each, every page on
// a corpus page and attached with @axsnap/cdp, all snapshotting in a loop at
// once for S seconds. Reports snapshots per second, memory (this Node
// process, and every Chromium process), and where a snapshot's time goes
// (the pipeline's stage timings, medians over every snapshot).
//
//   npm run bench -- --fleet [--browsers N] [--tabs M] [--seconds S] [--fresh]
//   (default 4 × 8 for 20 s; --fresh reads every tree whole instead of only what changed)
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { setup } from './setup.mjs';
import { build } from './build.mjs';
import { corpusDir } from './fidelity.mjs';

const QUICK = ['form-github-login', 'news-cnn', 'docs-py-json', 'github-issue-56', 'table-steel-datasheet', 'forum-reddit-thread', 'shop-songkick-tickets', 'wiki-mozilla'];
const argv = process.argv.slice(2);
const flag = (name, d) => { const i = argv.indexOf(name); return i < 0 ? d : Number(argv[i + 1]); };
const N = flag('--browsers', 4);
const M = flag('--tabs', 8);
const SECONDS = flag('--seconds', 20);
const fresh = argv.includes('--fresh');

setup();
build({ quiet: true });
const { chromium } = await import('playwright-core');
const { serve } = await import('../tests/server.mjs');
const { spawnChromium } = await import('../tests/harness.mjs');
const { attach } = await import('../packages/cdp/src/index.js');

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : NaN; };
const pagesDir = join(corpusDir(), 'pages');
const available = new Set(readdirSync(pagesDir).map((f) => f.replace(/\.html$/, '')));
const pages = QUICK.filter((p) => available.has(p));

/** A process's proportional set size in bytes (shared pages split among their sharers), else its RSS. */
function pss(pid, rssBytes) {
  try {
    const m = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+) kB/m);
    return m ? Number(m[1]) * 1024 : rssBytes;
  } catch {
    return rssBytes;
  }
}

/** Memory in MB of a process and all its descendants (Linux /proc), shared pages counted once. */
function treeRssMb(root) {
  const children = new Map();
  const rss = new Map();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      rss.set(Number(pid), Number(fields[21]) * 4096);
      if (!children.has(ppid)) children.set(ppid, []);
      children.get(ppid).push(Number(pid));
    } catch { /* gone meanwhile */ }
  }
  let total = 0;
  const stack = [root];
  while (stack.length) {
    const pid = stack.pop();
    total += pss(pid, rss.get(pid) || 0);
    stack.push(...(children.get(pid) || []));
  }
  return total / 1e6;
}

const server = await serve({ '/': pagesDir });
console.log(`starting ${N} Chromiums × ${M} pages…`);
const remotes = await Promise.all(Array.from({ length: N }, () => spawnChromium()));
const browsers = await Promise.all(remotes.map((r) => chromium.connectOverCDP(r.endpoint)));
// The browsers open their pages side by side, each one page after the other.
const tabs = (await Promise.all(browsers.map(async (br, bi) => {
  const ctx = br.contexts()[0];
  const mine = [];
  for (let t = 0; t < M; t++) {
    const page = await ctx.newPage();
    await page.setViewportSize({ width: 1280, height: 800 });
    const name = pages[(bi * M + t) % pages.length];
    await page.goto(server.url(`/${name}.html`), { waitUntil: 'domcontentloaded', timeout: 60000 });
    // A saved page can name hosts that never answer here: its load event gets a bounded grace.
    await page.waitForLoadState('load', { timeout: 5000 }).catch(() => {});
    mine.push({ name, ax: await attach(page) });
  }
  return mine;
}))).flat();
const memBefore = { node: process.memoryUsage().rss / 1e6, chromium: remotes.reduce((n, r) => n + treeRssMb(r.pid), 0) };

const timings = { attachMs: [], fetchMs: [], secretsMs: [], clickablesMs: [], serializeMs: [], totalMs: [], wallMs: [] };
let done = 0;
let failed = 0;
let peakNode = 0;
const until = Date.now() + SECONDS * 1000;
const t0 = performance.now();
await Promise.all(tabs.map(async ({ ax }) => {
  while (Date.now() < until) {
    const t = performance.now();
    try {
      const s = await ax.snapshot({ full: true, ...(fresh ? { fresh: true } : {}) });
      for (const k of Object.keys(timings)) if (k !== 'wallMs') timings[k].push(s.stats.timings[k]);
      timings.wallMs.push(performance.now() - t);
      done++;
    } catch {
      failed++;
    }
    peakNode = Math.max(peakNode, process.memoryUsage().rss / 1e6);
  }
}));
const elapsed = (performance.now() - t0) / 1000;
const memAfter = { node: process.memoryUsage().rss / 1e6, chromium: remotes.reduce((n, r) => n + treeRssMb(r.pid), 0) };

for (const { ax } of tabs) await ax.detach().catch(() => {});
await Promise.all(browsers.map((b) => b.close().catch(() => {})));
await Promise.all(remotes.map((r) => r.close()));
await server.close();

const f = (x) => x.toFixed(1);
console.log(`\n${N} browsers × ${M} pages = ${tabs.length} pages, ${SECONDS} s, ${fresh ? 'every tree read whole' : 'trees read incrementally where they can be'}`);
console.log(`snapshots: ${done} (${failed} failed), ${f(done / elapsed)} per second`);
console.log(`memory: this Node process (RSS) ${f(memBefore.node)} MB before, ${f(peakNode)} MB at peak; Chromiums (PSS, every process) ${f(memBefore.chromium)} MB before, ${f(memAfter.chromium)} MB after`);
console.log('\nwhere a snapshot\'s time goes (medians over every snapshot, ms):');
console.log('| stage | median ms |\n|-|-|');
for (const [k, v] of Object.entries(timings)) console.log(`| ${k === 'wallMs' ? 'wall (request to answer, in Node)' : k} | ${f(median(v))} |`);
process.exit(0);
