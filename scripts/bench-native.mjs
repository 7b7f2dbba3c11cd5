// The native measure: the CLI's full-mode text over the corpus's saved
// accessibility trees (`ax/*.json.gz`), counted with o200k_base against
// chrome-devtools-mcp's tokens per page (`peer-baselines.csv`). No Chromium:
// a change to the core is measured in seconds. It reads the trees the
// extension reads, less the click and list facts of a live page, so it
// tracks the full benchmark closely (BENCHMARKS.md, "Measured natively").
//
//   npm run bench -- --native [--pages name,name] [--top N] [--save FILE] [--compare FILE] [--no-build] [--corpus DIR]
//
// --save writes each page's tokens as JSON; --compare reads such a file and
// lists the pages whose tokens changed, so a rule's effect is seen page by page.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT, run } from './lib.mjs';
import { corpusDir } from './fidelity.mjs';

function parseArgs(argv) {
  const o = { pages: null, top: 10, save: null, compare: null, build: true, corpus: corpusDir() };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--native') continue;
    else if (a === '--pages') o.pages = argv[++i].split(',');
    else if (a === '--top') o.top = Number(argv[++i]);
    else if (a === '--save') o.save = resolve(argv[++i]);
    else if (a === '--compare') o.compare = resolve(argv[++i]);
    else if (a === '--no-build') o.build = false;
    else if (a === '--corpus') o.corpus = resolve(argv[++i]);
    else { console.error(`unknown argument ${a}`); process.exit(2); }
  }
  return o;
}

const args = parseArgs(process.argv.slice(2));
if (!args.corpus || !existsSync(join(args.corpus, 'ax'))) {
  console.error('corpus not found (use --corpus DIR, holding ax/ and peer-baselines.csv)');
  process.exit(2);
}
if (args.build) run('cargo', ['build', '--release', '--quiet', '-p', 'axsnap-cli']);
const cli = join(ROOT, 'target/release/axsnap');

const { get_encoding: getEncoding } = await import('tiktoken');
const enc = getEncoding('o200k_base');
const tokens = (s) => enc.encode(s).length;
const median = (a) => { const s = [...a].sort((x, y) => x - y); return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };

// chrome-devtools-mcp's tokens per page, from the baselines' header row.
const [header, ...rows] = readFileSync(join(args.corpus, 'peer-baselines.csv'), 'utf8').trim().split('\n').map((l) => l.split(','));
const col = (name) => header.indexOf(name);
const peer = new Map(rows.map((r) => [r[col('page')], Number(r[col('cdtmcp_tokens')])]));

let pages = readdirSync(join(args.corpus, 'ax')).filter((f) => f.endsWith('.json.gz')).map((f) => f.replace(/\.json\.gz$/, '')).sort();
if (args.pages) pages = pages.filter((p) => args.pages.some((q) => p.includes(q)));
pages = pages.filter((p) => peer.has(p));

const results = pages.map((page) => {
  const text = execFileSync(cli, [join(args.corpus, 'ax', `${page}.json.gz`)], { encoding: 'utf8', maxBuffer: 256 << 20 });
  const t = tokens(text);
  return { page, tokens: t, peer: peer.get(page), ratio: t / peer.get(page) };
});
enc.free();

const sumOf = (k) => results.reduce((s, r) => s + r[k], 0);
const f4 = (x) => x.toFixed(4);
console.log(`${results.length} pages, axsnap full (native CLI) / chrome-devtools-mcp, o200k_base tokens`);
console.log(`sum ratio    ${f4(sumOf('tokens') / sumOf('peer'))}  (${sumOf('tokens')} / ${sumOf('peer')})`);
console.log(`median page  ${f4(median(results.map((r) => r.ratio)))}`);
console.log(`\nhighest ratios:`);
for (const r of [...results].sort((a, b) => b.ratio - a.ratio).slice(0, args.top)) {
  console.log(`  ${f4(r.ratio)}  ${r.page.padEnd(32)} ${String(r.tokens).padStart(7)} / ${r.peer}`);
}

if (args.compare) {
  const before = new Map(JSON.parse(readFileSync(args.compare, 'utf8')).map((r) => [r.page, r]));
  const changed = results.filter((r) => before.has(r.page) && before.get(r.page).tokens !== r.tokens);
  const was = results.filter((r) => before.has(r.page));
  console.log(`\nagainst ${args.compare}: sum ${f4(was.reduce((s, r) => s + before.get(r.page).tokens, 0) / was.reduce((s, r) => s + r.peer, 0))} -> ${f4(was.reduce((s, r) => s + r.tokens, 0) / was.reduce((s, r) => s + r.peer, 0))}, median ${f4(median(was.map((r) => before.get(r.page).ratio)))} -> ${f4(median(was.map((r) => r.ratio)))}; ${changed.length} pages changed`);
  for (const r of changed.sort((a, b) => (a.tokens - before.get(a.page).tokens) - (b.tokens - before.get(b.page).tokens))) {
    const b = before.get(r.page);
    console.log(`  ${String(r.tokens - b.tokens).padStart(7)}  ${f4(b.ratio)} -> ${f4(r.ratio)}  ${r.page}`);
  }
}
if (args.save) writeFileSync(args.save, JSON.stringify(results, null, 1) + '\n');
process.exit(0);
