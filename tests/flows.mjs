// Scripted agent flows on the hand-written apps in tests/fixtures/flows/:
// each step names its element by role and accessible name, so every tool
// (axsnap and its peers in the benchmark) finds it in its own view. Shared
// by the flows test (tests/e2e/flows.test.mjs), the package's test
// (tests/e2e/cdp.test.mjs) and `npm run bench -- --flows`.

import assert from 'node:assert/strict';

/**
 * @typedef {{do: 'click'|'fill'|'select'|'check'|'uncheck'|'scroll', role?: string, name?: string, value?: string|number}} Step
 * @typedef {{name: string, page: string, big?: boolean, steps: Step[]}} Flow  big: a page of thousands of nodes
 */

const click = (role, name) => ({ do: /** @type {const} */ ('click'), role, name });
const fill = (role, name, value) => ({ do: /** @type {const} */ ('fill'), role, name, value });
const select = (name, value) => ({ do: /** @type {const} */ ('select'), role: 'combobox', name, value });
const check = (role, name) => ({ do: /** @type {const} */ ('check'), role, name });
const scroll = (value) => ({ do: /** @type {const} */ ('scroll'), value });

/** @type {Flow[]} */
export const FLOWS = [
  {
    name: 'login', page: '/flows/login.html', steps: [
      click('button', 'Sign in'),
      fill('textbox', 'Email', 'ada@'),
      click('button', 'Sign in'),
      fill('textbox', 'Email', 'bob@example.com'),
      fill('textbox', 'Password', 'short'),
      click('button', 'Sign in'),
      fill('textbox', 'Password', 'correct horse battery'),
      check('checkbox', 'Keep me signed in'),
      click('button', 'Sign in'),
      fill('textbox', 'Email', 'ada@example.com'),
      click('button', 'Sign in'),
    ],
  },
  {
    name: 'search', page: '/flows/search.html', big: true, steps: [
      fill('searchbox', 'Search parts', 'brass'),
      click('button', 'Search'),
      select('Category', 'Bolts'),
      check('checkbox', 'In stock only'),
      click('button', 'Next'),
      click('button', 'Next'),
      click('button', 'Previous'),
      select('Sort', 'Price'),
      fill('searchbox', 'Search parts', 'steel'),
      click('button', 'Search'),
    ],
  },
  {
    name: 'wizard', page: '/flows/wizard.html', steps: [
      click('button', 'Next'),
      fill('textbox', 'Full name', 'Ada Lovelace'),
      fill('textbox', 'Email', 'ada@example.com'),
      click('button', 'Next'),
      check('radio', 'Plus'),
      click('button', 'Next'),
      fill('textbox', 'Street', '12 Analytical Row'),
      fill('textbox', 'City', 'Lyon'),
      select('Country', 'Spain'),
      click('button', 'Next'),
      click('button', 'Open the account'),
      check('checkbox', 'I accept the terms'),
      click('button', 'Open the account'),
    ],
  },
  {
    name: 'todo', page: '/flows/todo.html', steps: [
      fill('textbox', 'New todo', 'Buy bread'),
      click('button', 'Add'),
      check('checkbox', 'Buy milk'),
      click('button', 'Edit Call the bank'),
      fill('textbox', 'Edit Call the bank', 'Call the bank at 9'),
      click('button', 'Save'),
      click('button', 'Delete Water the plants'),
      click('button', 'Active'),
      click('button', 'All'),
      click('button', 'Clear done'),
    ],
  },
  {
    name: 'modal-menu', page: '/flows/modal.html', steps: [
      click('button', 'Account'),
      click('menuitem', 'Settings'),
      click('button', 'New project'),
      click('button', 'Create'),
      fill('textbox', 'Name', 'Apollo'),
      select('Visibility', 'Team'),
      click('button', 'Create'),
      click('button', 'Account'),
      click('menuitem', 'Profile'),
    ],
  },
  {
    name: 'feed', page: '/flows/feed.html', big: true, steps: [
      click('button', 'Like post 1'),
      scroll(100000),
      scroll(100000),
      scroll(100000),
      click('button', 'Like post 850'),
      click('button', 'Like post 2'),
      scroll(-3000),
      click('button', 'Liked post 1'),
    ],
  },
  {
    // The list is written again whole on every change: every row is a new element, twins included.
    name: 'todo-rerender', page: '/flows/todo-rerender.html', steps: [
      fill('textbox', 'Item', 'Apples'),
      click('button', 'Add'),
      check('checkbox', 'Eggs'),
      click('button', 'Delete'),
      click('button', 'Delete'),
      click('button', 'Clear completed'),
      fill('textbox', 'Item', 'Pears'),
      click('button', 'Add'),
    ],
  },
  {
    // A small page: each step changes a line or two of about twenty.
    name: 'settings', page: '/flows/settings.html', steps: [
      select('Language', 'French'),
      click('switch', 'Dark mode'),
      click('tab', 'Privacy'),
      check('checkbox', 'Share usage data'),
      select('Keep history', '90 days'),
      click('button', 'Delete account'),
      click('button', 'Cancel'),
      click('tab', 'Notifications'),
      click('switch', 'Email'),
      click('switch', 'Push'),
      click('tab', 'General'),
      select('Language', 'Spanish'),
    ],
  },
  {
    name: 'paging', page: '/flows/paging.html', steps: [
      click('button', 'Next'),
      click('button', 'Next'),
      click('button', 'Previous'),
      fill('searchbox', 'Search recipes', 'soup'),
      click('button', 'Search'),
      click('button', 'Next'),
      fill('searchbox', 'Search recipes', 'pie'),
      click('button', 'Search'),
      click('button', 'Next'),
    ],
  },
];

/** The axsnap line naming a step's element, as a needle for refOf: `button "Save"`, `[Docs]`. */
export const axsnapNeedle = (s) => (s.role === 'link' ? `[${s.name}]` : `${s.role} "${s.name}"`);

/**
 * A full text snapshot with its Markdown reference links written inline
 * (`[Docs][3]` → `[Docs](/docs)`, the `[3]: /docs` lines gone): lines as a
 * diff prints them.
 */
export function inlineLinks(text) {
  const lines = text.replace(/\n$/, '').split('\n');
  const defs = new Map();
  while (lines.length && /^\[\d+\]: /.test(lines.at(-1))) {
    const m = lines.pop().match(/^\[(\d+)\]: (.*)$/);
    defs.set(m[1], m[2]);
  }
  return lines.map((l) => l.replace(/\]\[(\d+)\]/g, (all, n) => (defs.has(n) ? `](${defs.get(n)})` : all)));
}

const FOCUSED = ' focused';
const SELECTED = ' selected';
const firstRef = (line) => line.split(/[ \u00a0]/).find((w) => /^A\d+$/.test(w));
const count = (s, word) => s.split(word).length - 1;

/**
 * The previous full snapshot `before` changed as the diff `diff` says (the
 * core's `diff::patch`, the definition of a diff's text): the lines of the
 * new full snapshot, or null when the diff does not fit `before`. After the
 * summary line, each line is a mark, a space and a line as the full snapshot
 * prints it: `  ` unchanged and `- ` removed (with the N lines below it when
 * it ends `(with N lines below)`) are the first such line from the cursor on,
 * `~ ` changed is the first with the same first ref (without one: the same
 * words), `+ ` added goes at the cursor, `@ ` (where in words) changes nothing. When the diff shows a line that
 * gained the focus, each old line kept without being printed loses it; one
 * that gained the selection: each such line among its siblings (its depth,
 * up to a line less deep) loses that.
 * @param {string} before  full text snapshot @param {string} diff  the diff's text
 * @returns {string[]|null}
 */
export function patch(before, diff) {
  const old = inlineLinks(before);
  const [head, ...entries] = diff.replace(/\n$/, '').split('\n');
  if (head === 'no change since the previous snapshot') return old;
  /** @type {{line: string, kept: boolean}[]} */
  const out = [];
  let cursor = 0;
  let focusMoved = false;
  /** where in `out` a line gained the selection */
  const selected = [];
  const find = (hit) => { for (let x = cursor; x < old.length; x++) if (hit(old[x])) return x; return -1; };
  const keepTo = (at) => { out.push(...old.slice(cursor, at).map((line) => ({ line, kept: true }))); };
  for (const entry of entries) {
    const [mark, line] = [entry[0], entry.slice(2)];
    if (mark === ' ' || mark === '-') {
      const m = mark === '-' && line.match(/^(.*) \(with (\d+) lines? below\)$/);
      const [text, below] = m ? [m[1], Number(m[2])] : [line, 0];
      const at = find((l) => l === text);
      if (at < 0) return null;
      keepTo(at);
      if (mark === ' ') out.push({ line, kept: false });
      cursor = at + 1 + below;
      if (cursor > old.length) return null;
    } else if (mark === '~') {
      const ref = firstRef(line);
      const at = ref ? find((l) => firstRef(l) === ref) : find((l) => l.trimStart() === line.trimStart());
      if (at < 0) return null;
      keepTo(at);
      focusMoved ||= count(line, FOCUSED) > count(old[at], FOCUSED);
      if (count(line, SELECTED) > count(old[at], SELECTED)) selected.push(out.length);
      out.push({ line, kept: false });
      cursor = at + 1;
    } else if (mark === '@') {
      // Where the next added line goes, in words: for the reader only.
    } else if (mark === '+') {
      focusMoved ||= line.includes(FOCUSED);
      if (line.includes(SELECTED)) selected.push(out.length);
      out.push({ line, kept: false });
    } else return null;
  }
  keepTo(old.length);
  const depth = (l) => l.length - l.replace(/^ +/, '').length;
  const unselect = new Set();
  for (const i of selected) {
    const d = depth(out[i].line);
    let first = i;
    while (first > 0 && depth(out[first - 1].line) >= d) first--;
    for (let x = first; x < out.length && (x <= i || depth(out[x].line) >= d); x++) if (out[x].kept && depth(out[x].line) === d) unselect.add(x);
  }
  return out.map(({ line, kept }, x) => {
    const l = unselect.has(x) ? line.replace(SELECTED, '') : line;
    return kept && focusMoved ? l.replace(FOCUSED, '') : l;
  });
}

const FULL = { full: true };
const FRESH = { full: true, fresh: true };
const MODAL = /^\s*(dialog|alertdialog) .* modal\b/m;

/**
 * Something that takes snapshots and acts on one page: the extension through
 * its messages, or @axsnap/cdp. Each answers the protocol's result or throws.
 * @typedef {{snapshot: (options: object) => Promise<any>, act: (req: {action: string, ref?: string, value?: any, snapshot: object}) => Promise<any>}} Driver
 */

/**
 * Replays the steps of a flow on its page through `driver`: each act settles
 * and answers with a diff, and no diff hides a change (the snapshot it
 * compares with and the diff alone give the full snapshot taken after the
 * step); the tree read incrementally gives, after every step, the very
 * snapshot a whole read gives. Answers how each look was read, what each step answered, and counts.
 * @param {Step[]} steps @param {Driver} driver @param {(text: string, needle: string) => string} refOf
 */
export async function replayFlow(steps, driver, refOf) {
  let before = await driver.snapshot(FULL);
  let diffs = 0;
  /** while a modal dialog is open: the view before it opened */
  let behind = null;
  let closings = 0;
  /** how each look after a step was read: reasons of the whole reads */
  const reads = [];
  /** what each step answered */
  const texts = [];
  for (const [i, step] of steps.entries()) {
    const what = `step ${i + 1} (${step.do} ${step.name ?? step.value})`;
    const ref = step.role ? refOf(before.text, axsnapNeedle(step)) : undefined;
    const value = step.do === 'click' || step.do === 'check' ? undefined : step.value;
    const done = await driver.act({ action: step.do, ref, value, snapshot: { ...FULL, diff: true } });
    assert.ok(done.diff, what);
    texts.push(done.text);
    const after = await driver.snapshot(FULL);
    const whole = await driver.snapshot(FRESH);
    assert.equal(whole.stats.fetch.incremental, false, `${what}: fresh reads the whole tree`);
    assert.equal(after.text, whole.text, `${what}: read ${after.stats.fetch.incremental ? 'incrementally' : `whole (${after.stats.fetch.reason})`}, it is the page`);
    reads.push(done.stats?.fetch?.incremental ? 'incremental' : done.stats?.fetch?.reason, after.stats.fetch.incremental ? 'incremental' : after.stats.fetch.reason);
    // A modal dialog closed: the diff compares with the page before it opened, which the agent read.
    const base = done.diff.closed ? behind : before;
    if (done.diff.closed) assert.ok(behind && MODAL.test(before.text) && !MODAL.test(after.text), `${what}: a modal dialog closed`);
    if (done.diff.full) {
      assert.equal(done.text, after.text, `${what}: the whole page (${done.diff.reason}) is the page`);
    } else {
      diffs++;
      // The contract: the snapshot the diff compares with and the diff alone give the page, line by line, refs included.
      assert.deepEqual(patch(base.text, done.text), inlineLinks(after.text), `${what}: the diff\n${done.text}`);
    }
    if (done.diff.closed && !done.diff.full) closings++;
    if (MODAL.test(after.text)) behind ??= before;
    else behind = null;
    before = after;
  }
  return { reads, diffs, closings, texts, last: before };
}
