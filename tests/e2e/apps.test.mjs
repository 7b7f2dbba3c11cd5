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
import { coverage } from '../apps/coverage.mjs';

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
const act = async (ref, action, value) => {
  const res = await b.call({ cmd: 'act', tabId, ref, action, value });
  assert.equal(res.ok, true, `${action} ${ref}: ${JSON.stringify(res.error)}`);
  return res;
};
/** The first ref at or after the line holding `needle` (a field printed below its label). */
function refFrom(text, needle) {
  const lines = text.split('\n');
  const at = lines.findIndex((l) => l.includes(needle));
  assert.ok(at >= 0, `no line with ${needle} in:\n${text}`);
  for (const l of lines.slice(at)) {
    const m = l.match(/ (A\d+)\b/);
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
  for (const ref of refsIn(text)) {
    const r = await b.call({ cmd: 'resolve', tabId, ref });
    assert.equal(r.ok, true, JSON.stringify(r));
    nodes.push(r.backendNodeId);
  }
  const c = await coverage(page, nodes);
  assert.deepEqual(c.missing, [], `${app}: marked elements without a ref\n${text}`);
  if (extras) assert.ok(c.marked.length > 0, `${app}: nothing marked shown`);
  if (extras) assert.ok(c.extra <= Math.floor(c.refs * 0.05), `${app}: ${c.extra} of ${c.refs} refs are outside every marked element\n${text}`);
  return { text, stats, c };
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
  ({ text } = await snapUntil((t) => /option "Berlin" A\d+/.test(t), 'the loaded options have refs'));
  await act(refOf(text, 'option "Berlin"'), 'click');
  ({ text } = await snap());
  await act(refOf(text, '"BOOK NOW"'), 'click');
  ({ text } = await snap());
  assert.match(text, /dialog "Confirm booking" A\d+.*\n(.*\n)* *double in Berlin/);
  assert.match(text, /\n *## Confirm booking\n/, 'the dialog\'s heading is a plain Markdown heading');
  await act(refOf(text, 'button "CONFIRM"'), 'click');
  await page.waitForFunction(() => document.querySelector('[role=status]').textContent === 'Booked: double in Berlin');
});

test('antd: pick a date in the calendar, sort the table, export from a dropdown, fill and submit the form', async () => {
  await open('antd');
  let { text } = await snap();
  await act(refOf(text, 'textbox "Delivery date"'), 'click');
  const day = /\| 15 (A\d+)/;
  ({ text } = await snapUntil((t) => day.test(t), 'the calendar\'s days have refs'));
  await check('antd');
  await act(text.match(day)[1], 'click');
  assert.match(await page.inputValue('input[placeholder="Delivery date"]'), /^\d{4}-\d\d-15$/);
  ({ text } = await snap());
  await act(refOf(text, 'Total A'), 'click');
  ({ text } = await snap());
  assert.match(text, /\| Gus \| 15\b[^\n]*\n[^\n]*\| Bo \| 35\b/, `sorted by total:\n${text}`);
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
  assert.match(text, /combobox "Product" A\d+ [^\n]*: De\n/);
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
  assert.match(text, /button "Bold" A\d+ pressed/);
  assert.match(text, /textbox "Note" A\d+.*: Meeting notes and decisions/);
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
    const rows = [...text.matchAll(/button "Open Order \d+" (A\d+)/g)];
    await act(rows.at(-1)[1], 'scroll', 300); // less than the grid's 400 px: no row is skipped
    await page.waitForTimeout(100);
    ({ text } = await snap());
  }
  await act(refOf(text, 'Open Order 05000'), 'click');
  assert.equal(await page.textContent('#status'), 'Opened Order 05000');
});
