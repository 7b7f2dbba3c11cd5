// The fidelity check on every page of the shared corpus, through the real
// extension in Chromium with JavaScript off: the words of each page's
// document.body.innerText (less what the page hides from assistive
// technology) must be in its full snapshot (≥ 99% over all pages, no page
// under 95%). Link recall and names are checked over the
// saved trees by the core's corpus tests (crates/axsnap-core/tests/fidelity.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { launch } from '../harness.mjs';
import { serve } from '../server.mjs';
import { corpusDir, textForAssistiveTechnology, textRecall, summarize, describeWorst } from '../../scripts/fidelity.mjs';

const dir = corpusDir();
const PAGES = dir && join(dir, 'pages');
const corpus = PAGES ? readdirSync(PAGES).filter((f) => f.endsWith('.html')).sort() : [];

/**
 * Browsers reading pages side by side. Most of a page's time is Chrome
 * handing the accessibility tree to the extension (chrome.debugger is several
 * times slower than a CDP client), one core's work: a second browser uses the
 * second core. Two tabs of one browser do not: same-site tabs share a
 * renderer, and a big page there left the other tab's calls waiting (page_busy).
 */
const BROWSERS = 2;

/** The pages split between the browsers, largest first to whichever has read the fewest bytes. */
function lanes(files, n) {
  const out = Array.from({ length: n }, () => ({ bytes: 0, files: [] }));
  const sized = files.map((f) => ({ f, bytes: statSync(join(PAGES, f)).size })).sort((a, b) => b.bytes - a.bytes);
  for (const { f, bytes } of sized) {
    const lane = out.reduce((a, b) => (b.bytes < a.bytes ? b : a));
    lane.bytes += bytes;
    lane.files.push(f);
  }
  return out.map((l) => l.files);
}

/** One browser's share of the corpus: each page's recall. */
async function readPages(server, files) {
  // Saved pages name hosts that never answer here: fail them at once.
  const b = await launch({ javaScript: false, args: ['--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1'] });
  try {
    const page = await b.ctx.newPage();
    const pages = [];
    for (const file of files) {
      await page.goto(server.url(`/${file}`), { waitUntil: 'domcontentloaded', timeout: 60000 });
      const res = await b.call({ cmd: 'snapshot', tabId: await b.tabId(page), options: { full: true } });
      assert.equal(res.ok, true, `${file}: ${JSON.stringify(res.error)}`);
      const innerText = await page.evaluate(textForAssistiveTechnology);
      pages.push({ page: file.replace(/\.html$/, ''), ...textRecall(innerText, res.text) });
    }
    return pages;
  } finally {
    await b.close();
  }
}

test('every corpus page keeps the words a person reads', { skip: corpus.length ? false : 'shared corpus not found (set AXSNAP_CORPUS_PAGES)' }, async () => {
  const server = await serve({ '/': PAGES });
  try {
    // Every browser finishes (and closes) before a failure is reported.
    const read = await Promise.allSettled(lanes(corpus, BROWSERS).map((files) => readPages(server, files)));
    const failed = read.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const pages = read.flatMap((r) => (r.status === 'fulfilled' ? r.value : []));
    assert.equal(pages.length, corpus.length, 'every page was read');
    const s = summarize(pages);
    const report = `text recall ${(100 * s.overall).toFixed(2)}% of ${s.words} words on ${pages.length} pages; worst:\n  ${describeWorst(s.worst).join('\n  ')}`;
    console.log(report);
    assert.ok(s.ok, report);
  } finally {
    await server.close();
  }
});
