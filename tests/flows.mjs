// Scripted agent flows on the hand-written apps in tests/fixtures/flows/:
// each step names its element by role and accessible name, so every tool
// (axsnap and its peers in the benchmark) finds it in its own view. Shared
// by the flows test (tests/e2e/flows.test.mjs) and `npm run bench -- --flows`.

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

/**
 * What a diff fails to say of the change from `before` to `after` (full
 * text snapshots of one document, in one ref table): every line that is new
 * (as often as it is new) must be in the diff as added or changed, and every
 * line that went must be in it as removed, or changed (the same ref). The
 * diff's two shorthands count: a removed line `(with N lines below)` says
 * the N removed lines under it, and when the diff shows a line gaining the
 * focus, a line that only lost it needs no mention.
 * Returns the lines it hides; none when the diff says everything.
 * @param {string} before @param {string} after @param {string} diff  the diff's text
 */
export function hiddenChanges(before, after, diff) {
  const count = (lines) => lines.reduce((m, l) => m.set(l, (m.get(l) || 0) + 1), new Map());
  const minus = (a, b) => {
    const left = count(b);
    return a.filter((l) => (left.get(l) ? (left.set(l, left.get(l) - 1), false) : true));
  };
  const [old, now] = [inlineLinks(before), inlineLinks(after)];
  const entries = diff.replace(/\n$/, '').split('\n').slice(1).map((l) => ({ mark: l[0], line: l.slice(2) }));
  const depth = (l) => l.length - l.trimStart().length;
  const removed = entries.filter((e) => e.mark === '-').flatMap(({ line }) => {
    const m = line.match(/^(.*) \(with (\d+) lines? below\)$/);
    if (!m) return [line];
    const at = old.indexOf(m[1]);
    const under = at < 0 ? [] : old.slice(at + 1).filter((l, i, rest) => rest.slice(0, i + 1).every((r) => depth(r) > depth(m[1])));
    return [m[1], ...under.slice(0, Number(m[2]))];
  });
  const said = (marks) => entries.filter((e) => marks.includes(e.mark)).map((e) => e.line);
  const refOf = (l) => l.match(/(?:^|\s)(A\d+)\b/)?.[1];
  const changedRefs = new Set(said('~').map(refOf).filter(Boolean));
  // A line of words that only moved in depth is changed, not removed.
  const changedWords = new Set(said('~').filter((l) => !refOf(l)).map((l) => l.trim()));
  const focusMoved = said('+~').some((l) => l.includes(' focused'));
  const lostFocus = new Set(focusMoved ? now.filter((l) => old.some((o) => o !== l && o.replace(' focused', '') === l)) : []);
  const missingAdds = minus(minus(now, old), said('+~')).filter((l) => !lostFocus.has(l));
  const missingRemoves = minus(minus(old, now), removed)
    .filter((l) => !(refOf(l) ? changedRefs.has(refOf(l)) : changedWords.has(l.trim())))
    .filter((l) => !lostFocus.has(l.replace(' focused', '')));
  return [...missingAdds.map((l) => `not said as added: ${l}`), ...missingRemoves.map((l) => `not said as removed: ${l}`)];
}
