// Huge generated pages through the extension: 100,000 links (tests/fixtures/huge.html), a table of
// 50,000 rows and a chat log of 20,000 messages, each with a control per item, at 1280x800. Per page and
// mode (default, interactive, full): the median time of `--runs` snapshots (5 unless told) after a first
// one, the answer's characters and refs, and how many of the controls on screen have no ref (the target:
// none). Side by side on the same page of the same browser: Playwright's AI snapshot (`ariaSnapshot`
// with mode ai, what Playwright MCP answers), at most 3 runs and 120 s a call, since it is slow there.
//   npm run bench -- --huge [--runs N] [--pages links,table,chat] [--no-build] [--no-peers]
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';
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
const PAGES = { links: '/huge.html?n=100000', table: '/gen/table.html', chat: '/gen/chat.html' };
const only = arg('--pages')?.split(',');
const names = Object.keys(PAGES).filter((p) => !only || only.includes(p));

if (!process.argv.includes('--no-build')) build({ quiet: true });
const { serve } = await import('../tests/server.mjs');
const { launch } = await import('../tests/harness.mjs');
const dir = await mkdtemp(join(tmpdir(), 'axsnap-huge-'));
for (const [name, body] of Object.entries(GENERATED)) {
  await writeFile(join(dir, `${name}.html`), `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Huge ${name}</title></head><body><h1>Huge ${name}</h1>${body}</body></html>`);
}
const server = await serve({ '/': join(ROOT, 'tests/fixtures'), '/gen/': dir });
const b = await launch();
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const rows = [];
try {
  for (const name of names) {
    const page = await b.ctx.newPage();
    await page.goto(server.url(PAGES[name]), { waitUntil: 'load', timeout: 180000 });
    await page.evaluate(() => document.body.getBoundingClientRect().height);
    const tabId = await b.tabId(page);
    // The controls on screen, by the words they show.
    const inView = await page.evaluate(() => [...document.querySelectorAll('a, button')]
      .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.bottom > 0 && r.top < innerHeight; })
      .map((e) => e.textContent.trim()));
    for (const [mode, options] of [['default', {}], ['interactive', { mode: 'interactive' }], ['full', { mode: 'full' }]]) {
      const times = [];
      let last;
      for (let i = 0; i <= RUNS; i++) {
        const t = Date.now();
        last = await b.call({ cmd: 'snapshot', tabId, options });
        if (i > 0) times.push(Date.now() - t);
      }
      if (!last.ok) { rows.push([name, 'axsnap', mode, `error ${last.error.code}`, '', '', '']); continue; }
      const lines = last.text.split('\n');
      // A line with a ref and the control's words, not followed by a digit ("Link 1" is not "Link 10").
      const missing = inView.filter((n) => !lines.some((l) => new RegExp(`${n}(?!\\d)`).test(l) && /(?:^|\s)A\d+\b/.test(l)));
      const refs = new Set(last.text.match(/\bA\d+\b/g) || []).size;
      rows.push([name, 'axsnap', mode, median(times), last.text.length, refs, `${missing.length} of ${inView.length}`]);
    }
    if (peers) {
      const times = [];
      let text;
      for (let i = 0; i <= PEER_RUNS && times.length < PEER_RUNS; i++) {
        const t = Date.now();
        text = await page.ariaSnapshot({ mode: 'ai', timeout: PEER_TIMEOUT }).catch(() => null);
        if (text === null) break;
        if (i > 0) times.push(Date.now() - t);
      }
      if (text === null) rows.push([name, 'Playwright ariaSnapshot ai', 'ai', `> ${PEER_TIMEOUT / 1000} s`, '', '', '']);
      else {
        const lines = text.split('\n');
        const missing = inView.filter((n) => !lines.some((l) => new RegExp(`${n}(?!\\d)`).test(l) && /\[ref=e\d+\]/.test(l)));
        const refs = new Set(text.match(/\[ref=e\d+\]/g) || []).size;
        rows.push([name, 'Playwright ariaSnapshot ai', 'ai', median(times), text.length, refs, `${missing.length} of ${inView.length}`]);
      }
    }
    await page.close();
  }
} finally {
  await b.close();
  await server.close();
}
console.log(`| page | tool | mode | median ms (axsnap ${RUNS} runs, peer ${PEER_RUNS}) | chars | refs | controls in view without a ref |\n|---|---|---|--:|--:|--:|--:|`);
for (const r of rows) console.log(`| ${r.join(' | ')} |`);
process.exit(0);
