// Incremental fetching (extension/worker/incremental.js) in real Chromium:
// after each kind of change, the snapshot read incrementally is the one a
// whole read (fresh) gives, byte for byte; changes no mutation shows are
// still seen, and those the watcher cannot follow read the whole tree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExtension } from '../harness.mjs';

const ctx = withExtension();

/** [what, the change in the page's own world, how the next snapshot must be read: true incremental, false whole, undefined either,
 *   and how its click facts must be: 'updated' where the page changed, 'read whole' (on a small page, always)] */
const CHANGES = [
  ['text inside a paragraph', () => { document.querySelector('#intro b').textContent = 'heavy'; }, true, 'read whole'],
  ['a text node alone', () => { document.getElementById('intro').firstChild.data = 'Many '; }, true],
  ['a label for a field', () => { document.getElementById('email-label').textContent = 'E-mail address'; }, true],
  ['a word inside a label around a field', () => { document.getElementById('name-word').textContent = 'in full'; }, true],
  ['the element a button is labelled by', () => { document.getElementById('lbl').textContent = 'Send later'; }, true],
  ['a legend', () => { document.getElementById('legend').textContent = 'Your plan'; }, true],
  ['a radio checked by script', () => { document.getElementById('plus').checked = true; }, true],
  ['a select changed by script', () => { document.getElementById('size').value = 'Large'; }, true],
  ['a field filled by script', () => { document.getElementById('email').value = 'ada@example.com'; }, true],
  ['the focus', () => { document.getElementById('email').focus(); }, true],
  ['a list item removed', () => { document.getElementById('three').remove(); }, true],
  ['list items added', () => { document.getElementById('list').insertAdjacentHTML('beforeend', '<li>Four</li><li><a href="#5">Five</a></li>'); }, true],
  ['an item added at the top of a numbered list', () => { document.getElementById('ol').insertAdjacentHTML('afterbegin', '<li>Zeroth</li>'); }, true],
  ['a link between words removed', () => { document.getElementById('beta').remove(); }, true],
  ['a paragraph hidden', () => { document.getElementById('intro').hidden = true; }, true],
  ['a paragraph shown again', () => { document.getElementById('intro').hidden = false; }, true],
  ['details opened', () => { document.getElementById('det').open = true; }, true],
  ['a table row added', () => { document.getElementById('rows').insertAdjacentHTML('beforeend', '<tr><td>b</td><td><button>Edit b</button></td></tr>'); }, true],
  ['a block hidden from the tree', () => { document.getElementById('box').setAttribute('aria-hidden', 'true'); }, true],
  ['several places at once', () => {
    document.getElementById('head').textContent = 'All changed';
    document.getElementById('list').firstElementChild.textContent = 'Uno';
    document.getElementById('name').value = 'Ada';
  }, true],
  ['the URL (history API)', () => { history.pushState({}, '', '#moved'); }, false],
  ['the title', () => { document.title = 'Incremental, renamed'; }, false],
  ['a rule added through the CSSOM', () => { document.styleSheets[0].insertRule('#list { display: none }'); }, false],
  ['a closed shadow root attached', () => { document.getElementById('host').attachShadow({ mode: 'closed' }).innerHTML = '<button>In the shadow</button>'; }, false],
  ['a change in that shadow root', () => { document.getElementById('host').setAttribute('data-x', '1'); }, false],
];

/** On a page of more than 3,000 nodes the click facts are updated where the page changed, or read whole when they must be. */
const CLICK_CHANGES = [
  ['a span given cursor: pointer', () => { document.querySelector('#intro b').style.cursor = 'pointer'; }, true, 'updated'],
  ['a clickable span added', () => { document.getElementById('box').insertAdjacentHTML('beforeend', '<span style="cursor: pointer">Open it</span>'); }, true, 'updated'],
  ['a click listener added with no other change', () => { document.getElementById('legend').addEventListener('click', () => {}); }, true, 'read whole'],
  ['a scrolling block added', () => {
    document.getElementById('box').insertAdjacentHTML('beforeend', `<div id="scroller" style="overflow-y: auto; height: 40px">${'<p>Line</p>'.repeat(30)}</div>`);
  }, true, 'read whole'],
  ['that block scrolled', () => { document.getElementById('scroller').scrollTop = 200; }, true, 'read whole'],
  ['text beside it', () => { document.getElementById('ital').textContent = 'further'; }, true, 'updated'],
  // Its click listener is found with the listeners of the whole page; its box with the change.
  ['a div with a click listener added', () => {
    const div = Object.assign(document.createElement('div'), { textContent: 'Open the drawer' });
    div.addEventListener('click', () => {});
    document.getElementById('filler').prepend(div);
  }, true, 'updated', /clickable A\d+ Open the drawer/],
  // No mutation shows it, and the facts are not read whole: the page's heap does.
  ['a closed shadow root attached', () => { document.getElementById('host').attachShadow({ mode: 'closed' }).innerHTML = '<button>In the shadow</button>'; }, false],
];

/**
 * Snapshots that keep what is near the viewport (the default) also need every element's box: kept from the
 * last look where the change is laid out in the very box it had, read whole where things may have moved.
 */
const BOX_CHANGES = [
  ['a cell changed within its box', () => { document.querySelector('#rows td + td').textContent = '2'; }, true, 'updated'],
  // Wider: what follows it on its line moves, its block does not.
  ['a link\'s words changed', () => { document.getElementById('beta').textContent = 'Beta and more'; }, true, 'updated'],
  ['a paragraph hidden', () => { document.getElementById('intro').hidden = true; }, true, 'read whole'],
  // A fixed or sticky element moves in the document as the window scrolls.
  ['the window scrolled', () => { scrollTo(0, 600); }, true, 'read whole'],
];

/** Makes each change in turn and compares the snapshot read after it with a whole (fresh) read. */
async function replay(url, changes, FULL = { full: true }) {
  const page = await ctx.b.ctx.newPage();
  await page.goto(ctx.server.url(url), { waitUntil: 'load' });
  await page.bringToFront();
  const tabId = await ctx.b.tabId(page);
  const first = await ctx.b.call({ cmd: 'snapshot', tabId, options: FULL });
  assert.equal(first.ok, true, JSON.stringify(first.error));
  assert.equal(first.stats.fetch.incremental, false);
  const calm = await ctx.b.call({ cmd: 'snapshot', tabId, options: FULL });
  assert.equal(calm.stats.fetch.incremental, true, `nothing changed: ${JSON.stringify(calm.stats.fetch)}`);
  assert.equal(calm.text, first.text);
  for (const [what, change, incremental, facts, shown] of changes) {
    await page.evaluate(change);
    const now = await ctx.b.call({ cmd: 'snapshot', tabId, options: FULL });
    assert.equal(now.ok, true, `${what}: ${JSON.stringify(now.error)}`);
    const whole = await ctx.b.call({ cmd: 'snapshot', tabId, options: { ...FULL, fresh: true } });
    assert.equal(whole.stats.fetch.incremental, false);
    assert.equal(now.text, whole.text, `${what}: read ${JSON.stringify(now.stats.fetch)}`);
    if (incremental !== undefined) assert.equal(now.stats.fetch.incremental, incremental, `${what}: ${JSON.stringify(now.stats.fetch)}`);
    if (facts) assert.equal(now.stats.fetch.clickFacts, facts, `${what}: click facts ${JSON.stringify(now.stats.fetch)}`);
    if (shown) assert.match(now.text, shown, what);
  }
  await page.close();
}

test('after each change the incremental snapshot is the whole read\'s, and doubts read the whole tree', { timeout: 120000 }, () => replay('/incremental.html', CHANGES));

test('on a large page the click facts are updated where it changed, and read whole when they cannot be', { timeout: 120000 }, () => replay('/incremental.html?filler=1500', CLICK_CHANGES));

test('on a large page the boxes of a capped snapshot are kept where the change kept its box', { timeout: 60000 }, () => replay('/incremental.html?filler=1500&capped', BOX_CHANGES, {}));
