// The serializer's speed: the built Wasm core (extension/pkg) in Node on the
// corpus trees (`ax/*.json.gz`), each handed over as the JS object
// chrome.debugger gives, `full: true`, a fresh Snapshotter per run. Prints
// AX nodes per ms for every page above 5,000 nodes (best of N runs), their
// median, and the .wasm size. Builds first unless --no-build.
//
//   npm run bench -- --serializer [--runs N] [--pages name,name] [--no-build]
//   npm run bench -- --serializer --save DIR    write every page's text (full and default) to DIR
//   npm run bench -- --serializer --check DIR   compare every page's text with DIR; exit 1 on a difference
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { loadavg } from 'node:os';
import { build, wasmSize, WASM, PKG } from './build.mjs';
import { ROOT } from './lib.mjs';
import { corpusDir } from './fidelity.mjs';

const LARGE = 5000;

function parseArgs(argv) {
  const o = { runs: 5, pages: null, build: true, save: null, check: null, corpus: corpusDir() || resolve(ROOT, '../shared/corpus') };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--serializer') continue;
    else if (a === '--runs') o.runs = Number(argv[++i]);
    else if (a === '--pages') o.pages = argv[++i].split(',');
    else if (a === '--no-build') o.build = false;
    else if (a === '--save') o.save = resolve(argv[++i]);
    else if (a === '--check') o.check = resolve(argv[++i]);
    else if (a === '--corpus') o.corpus = resolve(argv[++i]);
    else { console.error(`unknown argument ${a}`); process.exit(2); }
  }
  return o;
}

const args = parseArgs(process.argv.slice(2));
if (args.build || !existsSync(WASM)) build({ quiet: true });
const { default: init, Snapshotter } = await import(join(PKG, 'axsnap_wasm.js'));
await init({ module_or_path: readFileSync(WASM) });

const dir = join(args.corpus, 'ax');
let pages = readdirSync(dir).filter((f) => f.endsWith('.json.gz')).map((f) => f.replace(/\.json\.gz$/, '')).sort();
if (args.pages) pages = pages.filter((p) => args.pages.some((q) => p.includes(q)));
const load = (page) => JSON.parse(gunzipSync(readFileSync(join(dir, `${page}.json.gz`))).toString('utf8'));
const countNodes = (input) => (input.frames ? input.frames.reduce((n, f) => n + f.nodes.length, 0) : (input.nodes || input.result.nodes).length);

if (args.save || args.check) {
  // Both modes, so that a change of speed is seen to change no text.
  if (args.save) mkdirSync(args.save, { recursive: true });
  let differ = 0;
  for (const page of pages) {
    for (const [mode, opts] of [['full', { full: true }], ['default', undefined]]) {
      const text = new Snapshotter().snapshot(load(page), undefined, opts).text;
      const file = `${page}.${mode}.txt`;
      if (args.save) writeFileSync(join(args.save, file), text);
      if (args.check && readFileSync(join(args.check, file), 'utf8') !== text) {
        differ++;
        console.log(`differs: ${file}`);
      }
    }
  }
  console.log(args.check ? `${pages.length} pages, ${differ} texts differ` : `${pages.length} pages saved to ${args.save}`);
  process.exit(differ ? 1 : 0);
}

const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const rates = [];
console.log(`load ${loadavg().map((l) => l.toFixed(1)).join(' ')}; best of ${args.runs}`);
for (const page of pages) {
  const input = load(page);
  const nodes = countNodes(input);
  if (nodes < LARGE) continue;
  let best = Infinity;
  for (let r = 0; r < args.runs; r++) {
    const s = new Snapshotter();
    const t = performance.now();
    s.snapshot(input, undefined, { full: true });
    best = Math.min(best, performance.now() - t);
    s.free();
  }
  const rate = nodes / best;
  rates.push(rate);
  console.log(`${page.padEnd(32)} ${String(nodes).padStart(6)} nodes ${best.toFixed(1).padStart(7)} ms ${rate.toFixed(0).padStart(5)} nodes/ms`);
}
const size = wasmSize();
console.log(`median over ${rates.length} pages above ${LARGE} nodes: ${median(rates).toFixed(0)} nodes/ms`);
console.log(`wasm: ${size.raw} bytes raw, ${size.gzip} bytes gzip; load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
process.exit(0);
