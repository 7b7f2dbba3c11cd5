// The fidelity check, shared by the benchmark and the test suite: does a full
// snapshot keep every word a person reads on the page and every link
// destination? Pure functions over texts; the callers get the page's
// `document.body.innerText` from Chromium and the snapshot from the extension.

import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from './lib.mjs';

/**
 * The shared corpus (`pages/`, `ax/`): `AXSNAP_CORPUS_PAGES`, else `../shared/corpus` beside the
 * checkout (or beside the worktree folder), else `/work/shared/corpus`; null when absent.
 */
export function corpusDir() {
  const candidates = [process.env.AXSNAP_CORPUS_PAGES, resolve(ROOT, '../shared/corpus'), resolve(ROOT, '../../shared/corpus'), '/work/shared/corpus'];
  return candidates.find((d) => d && existsSync(join(d, 'pages'))) ?? null;
}

/**
 * Runs in the page: `document.body.innerText` without what the page hides
 * from assistive technology (`aria-hidden="true"`). Chrome leaves those
 * subtrees out of the accessibility tree, so no snapshot of it can say
 * their words (a documented exception). Call it after the snapshot: it
 * hides them for a moment to read the rest.
 */
export function textForAssistiveTechnology() {
  const hidden = [...document.querySelectorAll('[aria-hidden="true"]')];
  const saved = hidden.map((e) => e.getAttribute('style'));
  for (const e of hidden) e.style.setProperty('display', 'none', 'important');
  const text = document.body ? document.body.innerText : '';
  hidden.forEach((e, i) => (saved[i] === null ? e.removeAttribute('style') : e.setAttribute('style', saved[i])));
  return text;
}

/** Text recall must reach this over all pages… */
export const TEXT_RECALL_MIN = 0.99;
/** …and this on every page. */
export const TEXT_RECALL_PAGE_MIN = 0.95;

/** Lowercased words: runs of letters and digits (the snapshot's own words are compared the same way). */
export function words(text) {
  return String(text || '').toLowerCase().match(/[\p{L}\p{N}\p{M}]+/gu) || [];
}

/**
 * The words a snapshot gives a reader: its lines without link destinations,
 * the URL reference table, or refs (a URL slug or a ref is not page text).
 */
export function snapshotWords(snapshot) {
  const readable = snapshot
    .split('\n')
    .filter((l) => !/^\[\d+\]: /.test(l))
    .map((l) => l.replace(/\]\([^) ]*\)/g, ']').replace(/\]\[\d+\]/g, ']').replace(/(^|[ |])A\d+(?=$|[ |:])/g, '$1'))
    .join('\n');
  return words(readable);
}

function counts(list) {
  const m = new Map();
  for (const w of list) m.set(w, (m.get(w) || 0) + 1);
  return m;
}

/**
 * innerText without lines that only repeat the line above (a thumbnail
 * link's words, then its title's): the README's exception, said once.
 */
function saidOnce(innerText) {
  let last = null;
  const kept = [];
  for (const line of String(innerText || '').split('\n')) {
    const key = words(line).join(' ');
    if (!key) continue;
    if (key !== last) kept.push(line);
    last = key;
  }
  return kept.join('\n');
}

/**
 * Text recall of one page: the words of its innerText, as a multiset, found
 * in the snapshot. A word the snapshot glues to its neighbour counts when it
 * starts or ends a snapshot word, and a word innerText glues from two boxes
 * counts when the snapshot has its parts.
 * @returns {{words: number, found: number, recall: number, lost: [string, number][]}}
 */
export function textRecall(innerText, snapshot) {
  const want = counts(words(saidOnce(innerText)));
  const have = counts(snapshotWords(snapshot));
  let total = 0;
  let found = 0;
  const lost = [];
  const glued = [...have.keys()].filter((w) => w.length > 3);
  // innerText puts no space between boxes the DOM has none between
  // (`<button>Report</button><button>Save</button>` reads "ReportSave"),
  // where the snapshot prints two words.
  const split = (w, parts = 0) => parts < 4 && [...Array(w.length - 1).keys()].some((i) => {
    const head = w.slice(0, i + 1), tail = w.slice(i + 1);
    return have.has(head) && (have.has(tail) || split(tail, parts + 1));
  });
  for (const [w, n] of want) {
    total += n;
    let got = Math.min(n, have.get(w) || 0);
    if (got < n && (glued.some((g) => g !== w && (g.startsWith(w) || g.endsWith(w))) || split(w))) got = n;
    found += got;
    if (got < n) lost.push([w, n - got]);
  }
  lost.sort((a, b) => b[1] - a[1]);
  return { words: total, found, recall: total ? found / total : 1, lost };
}

/**
 * Sums per-page recalls into the overall figure, the worst pages, and
 * whether the thresholds hold.
 * @param {{page: string, words: number, found: number, recall: number, lost: [string, number][]}[]} pages
 */
export function summarize(pages, min = TEXT_RECALL_MIN, pageMin = TEXT_RECALL_PAGE_MIN) {
  const words = pages.reduce((a, p) => a + p.words, 0);
  const found = pages.reduce((a, p) => a + p.found, 0);
  const overall = words ? found / words : 1;
  const worst = [...pages].sort((a, b) => a.recall - b.recall).slice(0, 5);
  const ok = overall >= min && pages.every((p) => p.recall >= pageMin);
  return { words, found, overall, worst, ok };
}

/** One line per worst page: its recall and the words it lost most. */
export function describeWorst(worst) {
  return worst.map((p) => `${p.page} ${(100 * p.recall).toFixed(2)}% (lost ${p.words - p.found} of ${p.words}: ${p.lost.slice(0, 8).map(([w, n]) => (n > 1 ? `${w}×${n}` : w)).join(', ')})`);
}
