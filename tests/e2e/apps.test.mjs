// Real web apps, end to end: fixture apps built from component libraries
// (tests/apps, bundled by esbuild at test time) and a hand-written "div
// soup", with JavaScript on. Every element an app's author marks
// interactive must be reachable by ref, with few refs beyond them, and
// each app's task is done through the extension alone: refs found by name
// in the snapshot text, actions by ref.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launch, refOf } from '../harness.mjs';
import { serveApps, appNames } from '../apps/build.mjs';
import { coverage, marksOf } from '../apps/coverage.mjs';

let b, server, page, tabId;

before(async () => {
  server = await serveApps();
  b = await launch();
  page = await b.ctx.newPage();
});

after(async () => {
  await b?.close();
  await server?.close();
});

async function open(app) {
  await page.goto(server.app(app), { waitUntil: 'load' });
  await page.waitForFunction(() => document.body.innerText.trim().length > 0);
  tabId = await b.tabId(page);
}

const snap = async (options = { full: true }) => {
  const res = await b.call({ cmd: 'snapshot', tabId, options });
  assert.equal(res.ok, true, JSON.stringify(res.error));
  return res;
};
const act = async (ref, action, value, extra = {}) => {
  const res = await b.call({ cmd: 'act', tabId, ref, action, value, ...extra });
  assert.equal(res.ok, true, `${action} ${ref}: ${JSON.stringify(res.error)}`);
  return res;
};
/** The first ref at or after the line holding `needle` (a field printed below its label). */
function refFrom(text, needle) {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes(needle));
  assert.ok(at >= 0, `no line with ${needle} in:\n${text}`);
  for (const l of lines.slice(at)) {
    const m = l.match(/(?:^|\s)(A\d+)\b/);
    if (m) return m[1];
  }
  throw new Error(`no ref after ${needle}`);
}
/**
 * Snapshots until `ready` holds for the text, at most 3 s, as an agent
 * looks again while a popup opens or closes with an animation.
 */
async function snapUntil(ready, what) {
  let res;
  for (let i = 0; i < 30; i++) {
    res = await snap();
    if (ready(res.text)) return res;
    await page.waitForTimeout(100);
  }
  assert.fail(`not after 3 s: ${what}\n${res.text}`);
}
const snapWithout = (gone) => snapUntil((t) => !gone.test(t), `${gone} gone`);
const refsIn = (text) => [...new Set(text.match(/\bA\d+\b/g) || [])];

/**
 * Refs of the snapshot against the marked elements now shown. Extras are
 * counted on an app's first view only (`extras`): an open popup shows a
 * library's own controls (a calendar's days, a menu's frame) no mark names.
 */
async function check(app, { extras = false } = {}) {
  const { text, stats } = await snap();
  const nodes = [];
  const hinted = hintedLines(text);
  for (const ref of refsIn(text)) {
    const r = await b.call({ cmd: 'resolve', tabId, ref });
    assert.equal(r.ok, true, JSON.stringify(r));
    nodes.push(r.backendNodeId);
    const line = hinted.get(ref);
    if (line) assert.deepEqual({ role: r.role, name: r.name }, line, `${app}: ${ref} resolves to what its line shows`);
  }
  const c = await coverage(page, nodes);
  assert.deepEqual(c.missing, [], `${app}: marked elements without a ref\n${text}`);
  if (extras) assert.ok(c.marked.length > 0, `${app}: nothing marked shown`);
  if (extras) assert.ok(c.extra <= Math.floor(c.refs * 0.05), `${app}: ${c.extra} of ${c.refs} refs are outside every marked element\n${text}`);
  return { text, stats, c };
}

/**
 * Lines of a hint role and words (`clickable A7 Delete card`, `droptarget
 * A9 Archive`, a description aside): ref → the role and name they show.
 * Words quoting a picture's name (`clickable A3 img "Bin"`) name it otherwise.
 */
function hintedLines(text) {
  const out = new Map();
  for (const m of text.matchAll(/^ *(clickable|droptarget) (A\d+)(?: desc="(?:[^"\\]|\\.)*")?(?: (.*))?$/gm)) {
    // A line of no words (a card whose content starts below) is named by the lines below.
    if (m[3] && !/"/.test(m[3])) out.set(m[2], { role: m[1], name: m[3] });
  }
  return out;
}

for (const app of appNames()) {
  test(`${app}: every marked interactive element has a ref, at most 5% extra`, async () => {
    await open(app);
    await check(app, { extras: true });
  });
}

test('divsoup: move a card, sort by a menu of divs, type a title and save it', async () => {
  await open('divsoup');
  let { text } = await snap();
  assert.match(text, /clickable A\d+ \+ ?New card/);
  await act(refOf(text, '→ Doing'), 'click');
  assert.equal(await page.textContent('#status'), 'Moved Write report to Doing');
  ({ text } = await snap());
  await act(refOf(text, 'Sort'), 'click');
  ({ text } = await check('divsoup'));
  await act(refOf(text, 'By name'), 'click');
  assert.equal(await page.textContent('#status'), 'Sorted by name');
  ({ text } = await snap());
  await act(refOf(text, 'New card'), 'click');
  await act(refFrom(text, 'New card title:'), 'type', 'Plan trip');
  ({ text } = await snap());
  await act(refOf(text, 'Save card'), 'click');
  assert.equal(await page.textContent('#status'), 'Saved Plan trip');
});

/** The ref of a board column's heading (`clickable A18 Done`): arrows name columns too. */
const columnRef = (text, col) => {
  const m = text.match(new RegExp(`clickable (A\\d+) ${col}\n`));
  assert.ok(m, `no column ${col} in:\n${text}`);
  return m[1];
};
const board = () => page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-col]')]
  .map((c) => [c.dataset.col, [...c.querySelectorAll('[data-card]')].map((k) => k.dataset.card)])));
const priorities = () => page.evaluate(() => [...document.querySelectorAll('.prio-item')].map((i) => i.textContent));

test('divsoup: drag a card onto another column (HTML5 drag and drop), reorder a list by a pointer drag, and the page still takes clicks', async () => {
  await open('divsoup');
  let { text } = await snap();
  await page.evaluate(() => { window.clicks = 0; document.addEventListener('click', () => window.clicks++, true); });
  let res = await act(refOf(text, 'Call Ana'), 'drag', undefined, { to: columnRef(text, 'Done') });
  assert.equal(res.dragged, 'html5', 'the page started an HTML5 drag: carried over with drag events');
  assert.equal(await page.evaluate(() => window.clicks), 0, 'a drop is no click: the button never came up as one');
  assert.equal(res.to, columnRef(text, 'Done'));
  assert.equal(await page.textContent('#status'), 'Moved Call Ana to Done');
  assert.deepEqual(await board(), { Todo: ['Write report'], Doing: ['Fix login bug'], Done: ['Ship v1', 'Call Ana'] });
  // Onto a card of another column: the drop reaches the column around it.
  ({ text } = await snap());
  res = await act(refOf(text, 'Ship v1'), 'drag', undefined, { to: refOf(text, 'Fix login bug') });
  assert.equal(await page.textContent('#status'), 'Moved Ship v1 to Doing');
  ({ text } = await snap());
  res = await act(refOf(text, 'button "Water plants"'), 'drag', undefined, { to: refOf(text, 'button "Email Ana"'), snapshot: { diff: true } });
  assert.equal(res.dragged, 'mouse', 'no HTML5 drag: press, moves and release');
  assert.equal(await page.textContent('#status'), 'Moved Water plants to position 1');
  assert.deepEqual(await priorities(), ['Water plants', 'Email Ana', 'Book flights', 'Pay rent']);
  assert.match(res.text, /Moved Water plants to position 1/, 'the answer says what the drag changed');
  // Downwards, a short way: one slot.
  ({ text } = await snap());
  await act(refOf(text, 'button "Email Ana"'), 'drag', undefined, { to: refOf(text, 'button "Book flights"') });
  assert.deepEqual(await priorities(), ['Water plants', 'Book flights', 'Email Ana', 'Pay rent']);
  // Neither drag left the page holding its input.
  ({ text } = await snap());
  await act(refOf(text, '→ Doing'), 'click');
  assert.equal(await page.textContent('#status'), 'Moved Write report to Doing');
  ({ text } = await snap());
  await act(refOf(text, 'Write report'), 'drag', undefined, { to: columnRef(text, 'Todo') });
  assert.equal(await page.textContent('#status'), 'Moved Write report to Todo', 'a second HTML5 drag works too');
});

test('divsoup: drag a card into an empty column that only takes drops, found by name as a droptarget', async () => {
  await open('divsoup');
  let { text } = await snap();
  const archive = text.match(/droptarget (A\d+) Archive\n/)?.[1];
  assert.ok(archive, `no droptarget Archive in:\n${text}`);
  const r = await b.call({ cmd: 'resolve', tabId, ref: archive });
  assert.deepEqual([r.role, r.name], ['droptarget', 'Archive']);
  const res = await act(refOf(text, 'Call Ana'), 'drag', undefined, { to: archive });
  assert.equal(res.dragged, 'html5');
  assert.equal(await page.textContent('#status'), 'Archived Call Ana');
  assert.deepEqual(await board(), { Todo: ['Write report'], Doing: ['Fix login bug'], Done: ['Ship v1'] });
  assert.equal(await page.textContent('#archive .archived'), 'Call Ana');
  // It holds a card now, words only: still the place to drop onto, with the same ref.
  ({ text } = await check('divsoup'));
  assert.match(text, new RegExp(`droptarget ${archive} Archive\n +Call Ana\n`));
  await act(refOf(text, 'Ship v1'), 'drag', undefined, { to: archive });
  assert.equal(await page.textContent('#status'), 'Archived Ship v1');
});

test('divsoup in a cross-site frame: both kinds of drag work there (Chrome hands an HTML5 drag over through the tab)', async () => {
  await open('divsoup');
  await page.evaluate((src) => {
    document.body.innerHTML = `<iframe src="${src}" style="width: 1200px; height: 700px; margin: 40px 0 0 30px"></iframe>`;
  }, server.app('divsoup', 'localhost'));
  const frame = await (await page.waitForSelector('iframe')).contentFrame();
  await frame.waitForSelector('[data-card]');
  let { text } = await snapUntil((t) => t.includes('Call Ana'), 'the frame is read');
  const res = await act(refOf(text, 'Call Ana'), 'drag', undefined, { to: columnRef(text, 'Done') });
  assert.equal(res.dragged, 'html5');
  assert.equal(await frame.textContent('#status'), 'Moved Call Ana to Done');
  ({ text } = await snap());
  await act(refOf(text, 'button "Pay rent"'), 'drag', undefined, { to: refOf(text, 'button "Book flights"') });
  assert.equal(await frame.textContent('#status'), 'Moved Pay rent to position 2');
});

test('divsoup: a drag onto a stale, covered or hidden element is refused with its code, and nothing moves', async () => {
  await open('divsoup');
  const { text } = await snap();
  const card = refOf(text, 'Write report');
  const doing = columnRef(text, 'Doing');
  const drag = (to, extra = {}) => b.call({ cmd: 'act', tabId, ref: card, action: 'drag', to, ...extra });
  const before = await board();

  let res = await b.call({ cmd: 'act', tabId, ref: card, action: 'drag' });
  assert.equal(res.error?.code, 'bad_request');
  assert.match(res.error.message, /act drag needs to/);
  res = await drag(doing, { value: 'A1' });
  assert.equal(res.error?.code, 'bad_request', 'a drag takes its target in `to`, not `value`');

  // A veil over the column's heading: a person could not drop there either.
  await page.evaluate(() => {
    const r = document.querySelector('[data-act="col-Doing"]').getBoundingClientRect();
    const veil = Object.assign(document.createElement('div'), { id: 'veil' });
    Object.assign(veil.style, { position: 'fixed', left: `${r.left - 4}px`, top: `${r.top - 4}px`, width: `${r.width + 8}px`, height: `${r.height + 8}px`, background: '#fffc' });
    document.body.append(veil);
  });
  res = await drag(doing);
  assert.equal(res.error?.code, 'obscured', JSON.stringify(res));
  assert.match(res.error.message, new RegExp(`^${doing}, where it would be dropped, is covered`));
  await page.evaluate(() => document.getElementById('veil').remove());

  await page.evaluate(() => { document.querySelector('[data-act="col-Doing"]').style.display = 'none'; });
  res = await drag(doing);
  assert.equal(res.error?.code, 'not_visible', JSON.stringify(res));
  await page.evaluate(() => { document.querySelector('[data-act="col-Doing"]').style.display = ''; });

  // The drop target is removed after the snapshot that named it.
  const ship = refOf(text, 'Ship v1');
  await page.evaluate(() => document.querySelector('[data-card="Ship v1"]').remove());
  res = await drag(ship);
  assert.equal(res.error?.code, 'stale_ref', JSON.stringify(res));
  assert.match(res.error.message, new RegExp(`^${ship} is stale`));

  assert.equal(await page.textContent('#status'), 'Ready.', 'no drag happened');
  assert.deepEqual(await board(), { ...before, Done: [] });
  // And the same refs still drag once nothing is in the way.
  res = await drag(doing);
  assert.equal(res.ok, true, JSON.stringify(res));
  assert.equal(await page.textContent('#status'), 'Moved Write report to Doing');
});

test('listings: a favourite heart and a "…" menu inside clickable cards have refs of their own, a heart listening through the app\'s root too; a card\'s text has none', async () => {
  await open('listings');
  const { text } = await check('listings', { extras: true });
  const refs = refsIn(text);
  const nodes = [];
  for (const ref of refs) nodes.push((await b.call({ cmd: 'resolve', tabId, ref })).backendNodeId);
  const marks = await marksOf(page, nodes);
  assert.deepEqual(marks, ['open-lisbon', 'save-lisbon', 'open-tahoe', 'menu-tahoe', 'open-porto', 'open-kyoto', 'save-kyoto'],
    `one ref each, the Porto card's inherited-pointer text part of it:\n${text}`);
  const heart = refs[1];
  assert.match(text, new RegExp(`clickable ${heart} ♡\n`));
  await page.evaluate(() => { window.heard = []; });
  await act(heart, 'click');
  assert.equal(await page.textContent('#status'), 'Saved Flat in Lisbon');
  assert.deepEqual(await page.evaluate(() => window.heard), ['heart'], 'the heart\'s handler took the click, not the card\'s');
  const { text: after } = await snap();
  assert.match(after, new RegExp(`clickable ${heart} ♥`), 'the heart keeps its ref');
  await act(after.match(/clickable (A\d+) …/)[1], 'click');
  assert.equal(await page.textContent('#status'), 'Menu of Cabin in Tahoe');
  await act(refOf(after, 'Studio in Porto'), 'click');
  assert.equal(await page.textContent('#status'), 'Opened Studio in Porto');
  // Its own pointer (under a carousel's grab) is all that tells the Kyoto heart: the app's root hears the click.
  await page.evaluate(() => { window.heard = []; });
  await act(refs[6], 'click');
  assert.equal(await page.textContent('#status'), 'Saved House in Kyoto');
  assert.deepEqual(await page.evaluate(() => window.heard), ['root: heart']);
});

test('mui: choose an account menu item, a room, a city from options loaded as you type, book and confirm', async () => {
  await open('mui');
  let { text } = await snap();
  await act(refOf(text, '"ACCOUNT"'), 'click');
  ({ text } = await snap());
  await act(refOf(text, 'My bookings'), 'click');
  assert.equal(await page.textContent('[role=status]'), 'My bookings opened');
  ({ text } = await snapWithout(/menuitem/));
  // The menu's invisible backdrop stays until its fade-out ends (a sighted
  // user's click there would close it too, not reach the field).
  await page.waitForSelector('.MuiPopover-root', { state: 'detached' });
  await act(refOf(text, 'combobox "Room"'), 'click');
  ({ text } = await check('mui'));
  assert.doesNotMatch(text, /clickable/, 'the page behind the open menu is hidden from a sighted user too');
  await act(refOf(text, 'option "Double"'), 'click');
  ({ text } = await snapWithout(/listbox/));
  await act(refOf(text, 'combobox "City"'), 'type', 'Ber');
  // The options load as you type: look again until they are there, as an agent would.
  ({ text } = await snapUntil((t) => /option A\d+ "Berlin"/.test(t), 'the loaded options have refs'));
  await act(refOf(text, 'option "Berlin"'), 'click');
  ({ text } = await snap());
  await act(refOf(text, '"BOOK NOW"'), 'click');
  ({ text } = await snap());
  assert.match(text, /dialog A\d+ "Confirm booking".*\n(.*\n)* *double in Berlin/);
  assert.match(text, /\n *## Confirm booking\n/, 'the dialog\'s heading is a plain Markdown heading');
  await act(refOf(text, 'button "CONFIRM"'), 'click');
  await page.waitForFunction(() => document.querySelector('[role=status]').textContent === 'Booked: double in Berlin');
});

test('antd: pick a date in the calendar, sort the table, export from a dropdown, fill and submit the form', async () => {
  await open('antd');
  let { text } = await snap();
  await act(refOf(text, 'textbox "Delivery date"'), 'click');
  const day = /\| (A\d+) 15\b/;
  ({ text } = await snapUntil((t) => day.test(t), 'the calendar\'s days have refs'));
  await check('antd');
  await act(text.match(day)[1], 'click');
  assert.match(await page.inputValue('input[placeholder="Delivery date"]'), /^\d{4}-\d\d-15$/);
  ({ text } = await snap());
  await act(refOf(text, 'Total'), 'click');
  ({ text } = await snap());
  assert.match(text, /\| Gus \| ?15\b[^\n]*\n[^\n]*\| Bo \| ?35\b/, `sorted by total:\n${text}`);
  await act(refOf(text, 'button "Export"'), 'click');
  ({ text } = await check('antd'));
  await act(refOf(text, 'Export as PDF'), 'click');
  await page.waitForFunction(() => document.getElementById('status').textContent === 'Exported pdf');
  ({ text } = await snap());
  await act(refOf(text, 'textbox "* Customer"'), 'fill', 'Ana');
  await act(refOf(text, 'combobox "Product"'), 'type', 'De');
  // The matching items drop down as they are found: look again until they are there.
  ({ text } = await snapUntil((t) => /clickable (A\d+) Desk/.test(t), 'the matching products have refs'));
  // Its input says autocomplete="new-password" only to keep saved logins away: a combobox, not a secret.
  assert.match(text, /combobox A\d+ "Product" [^\n]*: De\n/);
  assert.doesNotMatch(text, /secret=/);
  // The listbox Chrome reads is antd's hidden copy for screen readers (its
  // options have no box); what a sighted user clicks is the drawn item.
  await act(text.match(/clickable (A\d+) Desk/)[1], 'click');
  ({ text } = await snapWithout(/listbox/));
  await act(refOf(text, 'radio "Express"'), 'click');
  await act(refOf(text, 'button "Create order"'), 'click');
  await page.waitForFunction(() => document.getElementById('status').textContent.startsWith('Created order for Ana (Desk) on '));
});

test('radix: open a menu, a submenu, and choose an item', async () => {
  await open('radix');
  let { text } = await snap();
  await act(refOf(text, 'button "File"'), 'click');
  ({ text } = await check('radix'));
  await act(refOf(text, 'menuitemcheckbox "Show ruler"'), 'click');
  ({ text } = await snap());
  await act(refOf(text, 'button "File"'), 'click');
  ({ text } = await snap());
  await act(refOf(text, 'menuitem "Share"'), 'click');
  ({ text } = await check('radix'));
  await act(refOf(text, 'menuitem "Copy link"'), 'click');
  assert.equal(await page.textContent('#status'), 'Link copied; ruler off; zoom 100%');
});

test('shoelace: controls inside shadow roots: fill, choose an option, check, pick a radio, save, open and close a dialog', async () => {
  await open('shoelace');
  let { text } = await snap();
  await act(refOf(text, 'textbox "Email"'), 'fill', 'ana@example.com');
  await act(refOf(text, 'combobox "How often"'), 'click');
  ({ text } = await check('shoelace'));
  await act(refOf(text, 'option "Monthly"'), 'click');
  ({ text } = await snapWithout(/listbox/));
  await act(refOf(text, 'checkbox "Partner offers"'), 'click');
  await act(refOf(text, 'radio "Plain text"'), 'click');
  await act(refOf(text, 'button "Save"'), 'click');
  assert.equal(await page.textContent('#status'), 'Saved: ana@example.com, monthly, text');
  await act(refOf(text, 'button "Preview"'), 'click');
  await page.waitForTimeout(300);
  ({ text } = await check('shoelace'));
  await act(refOf(text, 'button "Close"'), 'click');
});

test('tiptap: type formatted text into a rich-text editor', async () => {
  await open('tiptap');
  let { text } = await snap();
  const note = refOf(text, 'textbox "Note"');
  await act(note, 'click');
  await act(note, 'press', 'End');
  await act(note, 'type', ' and ');
  await act(refOf(text, 'button "Bold"'), 'click');
  await act(note, 'type', 'decisions');
  ({ text } = await snap());
  assert.match(text, /button A\d+ "Bold" pressed/);
  assert.match(text, /textbox A\d+ "Note".*: Meeting notes and decisions/);
  await act(refOf(text, 'button "Save note"'), 'click');
  assert.equal(await page.textContent('#status'), 'Saved: <p>Meeting notes and <strong>decisions</strong></p>');
});

test('virtual: a grid of 10,000 rows says which it shows; scrolling by ref brings the next rows, refs of rows still shown stay', async () => {
  await open('virtual');
  let { text } = await snap();
  assert.match(text, /\n *rows 1–\d+ of 10,001; scroll for more\n/, text);
  const tenth = refOf(text, 'Open Order 00010');
  await act(tenth, 'scroll', 320);
  await page.waitForTimeout(200);
  ({ text } = await snap());
  assert.equal(refOf(text, 'Open Order 00010'), tenth, 'a row still in the DOM keeps its ref');
  const shown = text.match(/rows 1, (\d+)–(\d+) of 10,001; scroll for more/);
  assert.ok(shown && Number(shown[1]) > 2, `the next rows came:\n${text}`);
  assert.ok(text.includes(`Open Order ${String(Number(shown[2]) - 1).padStart(5, '0')}`));
});

test('virtual: sort and filter the grid, scroll to row 5,000 and open it', async () => {
  await open('virtual');
  let { text } = await snap();
  await act(refOf(text, 'button "Name"'), 'click');
  await act(refOf(text, 'button "Name"'), 'click');
  ({ text } = await snap());
  assert.match(text, /Order 10000/, 'sorted by name, descending');
  await act(refOf(text, 'textbox "Filter"'), 'fill', '50');
  ({ text } = await snap());
  const count = text.match(/rows 1–\d+ of ([\d,]+); scroll for more/);
  assert.ok(count, `the filtered grid still holds more than it shows:\n${text}`);
  for (let i = 0; i < 40 && !text.includes('Open Order 05000'); i++) {
    const rows = [...text.matchAll(/button (A\d+) "Open Order \d+"/g)];
    await act(rows.at(-1)[1], 'scroll', 300); // less than the grid's 400 px: no row is skipped
    await page.waitForTimeout(100);
    ({ text } = await snap());
  }
  await act(refOf(text, 'Open Order 05000'), 'click');
  assert.equal(await page.textContent('#status'), 'Opened Order 05000');
});
