// Lifecycle and action safety, in real Chromium with the real extension:
// focus traps and hover overlays never redirect input, JavaScript dialogs
// and busy pages answer typed errors in bounded time, old refs never act on
// a new document (also after the service worker was stopped), parallel
// first snapshots see every frame, and a detached debugger is re-attached.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExtension, refOf } from '../harness.mjs';

const ctx = withExtension();

/** A new tab on a fixture page; dialogs stay open until the extension answers them. */
async function open(path, host) {
  const page = await ctx.b.ctx.newPage();
  page.on('dialog', () => {}); // a listener stops Playwright from dismissing dialogs itself
  await page.goto(ctx.server.url(path, host), { waitUntil: 'load' });
  return { page, tabId: await ctx.b.tabId(page) };
}

async function snap(tabId, options = { full: true }) {
  const res = await ctx.b.call({ cmd: 'snapshot', tabId, options });
  assert.equal(res.ok, true, JSON.stringify(res.error));
  return res.text;
}

const act = (tabId, ref, action, value, extra = {}) => ctx.b.call({ cmd: 'act', tabId, ref, action, value, ...extra });

/** Answers within `ms`, or fails the test. */
async function within(ms, promise) {
  const t0 = Date.now();
  const res = await promise;
  assert.ok(Date.now() - t0 < ms, `answered after ${Date.now() - t0} ms (limit ${ms})`);
  return res;
}

const stopServiceWorker = async () => {
  const cdp = await ctx.b.ctx.newCDPSession(ctx.b.panel);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach();
};

test('a focus trap on a password field: fill answers focus_moved and types nothing anywhere', { timeout: 90000 }, async () => {
  const { page, tabId } = await open('/traps.html');
  const text = await snap(tabId);
  const res = await act(tabId, refOf(text, 'textbox "Password"'), 'fill', 'hunter2-secret');
  assert.equal(res.ok, false, JSON.stringify(res));
  assert.equal(res.error.code, 'focus_moved', JSON.stringify(res));
  assert.ok(!JSON.stringify(res).includes('hunter2'), 'the value is never echoed');
  assert.equal(await page.inputValue('#comment'), '', 'nothing typed in the public field');
  assert.equal(await page.inputValue('#pw'), '');
  // The same trap one task later.
  const pin = await act(tabId, refOf(text, 'textbox "PIN"'), 'fill', '1234');
  assert.equal(pin.error?.code, 'focus_moved', JSON.stringify(pin));
  assert.equal(await page.inputValue('#notes'), '');
  const typed = await act(tabId, refOf(text, 'textbox "PIN"'), 'type', '1234');
  assert.equal(typed.error?.code, 'focus_moved', JSON.stringify(typed));
  assert.equal(await page.inputValue('#notes'), '');
  const pressed = await act(tabId, refOf(text, 'textbox "PIN"'), 'press', 'x');
  assert.equal(pressed.error?.code, 'focus_moved', JSON.stringify(pressed));
  assert.equal(await page.inputValue('#notes'), '');
  await page.close();
});

test('focus moved away after the first key: type stops there', { timeout: 90000 }, async () => {
  const { page, tabId } = await open('/traps.html');
  const text = await snap(tabId);
  const res = await act(tabId, refOf(text, 'textbox "Code"'), 'type', '123');
  assert.equal(res.error?.code, 'focus_moved', JSON.stringify(res));
  assert.match(res.error.message, /after 1 of 3 characters/);
  assert.equal(await page.inputValue('#code'), '1');
  assert.equal(await page.inputValue('#next'), '', 'the keys did not follow the focus');
  await page.close();
});

test('no false alarms: fields in a closed shadow root, plain fields, and cross-site iframes take input', { timeout: 90000 }, async () => {
  const { page, tabId } = await open('/traps.html');
  const text = await snap(tabId);
  const shadow = await act(tabId, refOf(text, 'textbox "Shadow field"'), 'fill', 'deep');
  assert.equal(shadow.ok, true, JSON.stringify(shadow));
  assert.equal(await page.evaluate(() => window['shadowValue']()), 'deep');
  assert.equal((await act(tabId, refOf(text, 'textbox "Shadow field"'), 'type', 'er')).ok, true);
  assert.equal(await page.evaluate(() => window['shadowValue']()), 'deeper');
  assert.equal((await act(tabId, refOf(text, 'textbox "Plain"'), 'type', 'abc')).ok, true);
  assert.equal((await act(tabId, refOf(text, 'textbox "Plain"'), 'press', 'Backspace')).ok, true);
  assert.equal(await page.inputValue('#plain'), 'ab');
  await page.close();
  const form = await open('/form.html');
  const ftext = await snap(form.tabId);
  assert.equal((await act(form.tabId, refOf(ftext, 'Partner password'), 'fill', 'pw-in-frame')).ok, true);
  const cross = form.page.frames().find((f) => f.url().includes('localhost'));
  assert.equal(await cross.inputValue('#ppw'), 'pw-in-frame');
  assert.equal((await act(form.tabId, refOf(ftext, 'Frame password'), 'type', 'abc')).ok, true);
  await form.page.close();
});

test('an overlay that appears when the pointer moves is not clicked through', { timeout: 90000 }, async () => {
  const { page, tabId } = await open('/traps.html');
  const text = await snap(tabId);
  const res = await act(tabId, refOf(text, 'Buy now'), 'click');
  assert.equal(res.ok, false, 'the overlay covers the button once the pointer is there');
  assert.equal(res.error.code, 'obscured', JSON.stringify(res));
  assert.deepEqual(await page.evaluate(() => window['clicks']), [], 'neither the ad nor the button was clicked');
  await page.close();
});

test('confirm, prompt and alert: reported, answered, and every other request says dialog_open', { timeout: 90000 }, async () => {
  const { page, tabId } = await open('/dialogs.html');
  const text = await snap(tabId);
  const clicked = await within(8000, act(tabId, refOf(text, 'Delete everything'), 'click'));
  assert.equal(clicked.ok, true, JSON.stringify(clicked));
  const blocked = await within(2000, ctx.b.call({ cmd: 'snapshot', tabId }));
  assert.equal(blocked.error?.code, 'dialog_open', JSON.stringify(blocked));
  assert.deepEqual([blocked.error.dialog.type, blocked.error.dialog.message], ['confirm', 'Delete everything?']);
  const other = await within(2000, act(tabId, refOf(text, 'Rename'), 'click'));
  assert.equal(other.error?.code, 'dialog_open');
  const accepted = await act(tabId, undefined, 'dialog', 'accept');
  assert.equal(accepted.ok, true, JSON.stringify(accepted));
  assert.equal(accepted.dialog.type, 'confirm');
  assert.equal(await page.textContent('#out'), 'confirm said true');

  assert.equal((await act(tabId, refOf(text, 'Delete everything'), 'click')).ok, true);
  assert.equal((await act(tabId, undefined, 'dialog', 'dismiss')).ok, true);
  assert.equal(await page.textContent('#out'), 'confirm said false');

  assert.equal((await act(tabId, refOf(text, 'Rename'), 'click')).ok, true);
  const prompt = await ctx.b.call({ cmd: 'snapshot', tabId });
  assert.deepEqual([prompt.error?.code, prompt.error?.dialog?.type, prompt.error?.dialog?.defaultPrompt], ['dialog_open', 'prompt', 'untitled']);
  assert.equal((await act(tabId, undefined, 'dialog', 'accept', { text: 'Quarterly report' })).ok, true);
  assert.equal(await page.textContent('#out'), 'prompt said Quarterly report');

  // A dialog that opens between requests.
  assert.equal((await act(tabId, refOf(text, 'Warn me later'), 'click')).ok, true);
  await new Promise((r) => setTimeout(r, 500));
  const later = await within(2000, ctx.b.call({ cmd: 'snapshot', tabId }));
  assert.deepEqual([later.error?.code, later.error?.dialog?.message], ['dialog_open', 'Later!']);
  assert.equal((await act(tabId, undefined, 'dialog', 'accept')).ok, true);
  assert.equal((await act(tabId, undefined, 'dialog', 'accept')).error?.code, 'no_dialog');
  assert.match(await snap(tabId), /button A\d+ "Delete everything"/, 'the tab works again');
  await page.close();
});

test('a dialog survives a service-worker stop', { timeout: 90000 }, async () => {
  const { page, tabId } = await open('/dialogs.html');
  const text = await snap(tabId);
  assert.equal((await act(tabId, refOf(text, 'Warn me"'), 'click')).ok, true);
  await stopServiceWorker();
  const blocked = await within(3000, ctx.b.call({ cmd: 'snapshot', tabId }));
  assert.deepEqual([blocked.error?.code, blocked.error?.dialog?.message], ['dialog_open', 'Careful!']);
  assert.equal((await act(tabId, undefined, 'dialog', 'accept')).ok, true);
  assert.equal(await page.textContent('#out'), 'alert closed');
  await page.close();
});

test('beforeunload: leaving is held by a dialog until accepted', { timeout: 90000 }, async () => {
  const { page, tabId } = await open('/dialogs.html');
  const text = await snap(tabId);
  assert.equal((await act(tabId, refOf(text, 'Guard this page'), 'click')).ok, true);
  assert.equal((await act(tabId, refOf(text, 'Leave'), 'click')).ok, true);
  await new Promise((r) => setTimeout(r, 300));
  const blocked = await ctx.b.call({ cmd: 'snapshot', tabId });
  assert.equal(blocked.error?.code, 'dialog_open', JSON.stringify(blocked));
  assert.equal(blocked.error.dialog.type, 'beforeunload');
  assert.equal((await act(tabId, undefined, 'dialog', 'accept')).ok, true);
  await page.waitForURL(/demo\.html$/);
  assert.match(await snap(tabId), /^page "axsnap demo/);
  await page.close();
});

test('a page busy in JavaScript answers page_busy within the deadline; other tabs keep working', { timeout: 90000 }, async () => {
  const { page, tabId } = await open('/dialogs.html');
  const text = await snap(tabId);
  const other = await open('/demo.html', 'localhost'); // another site: another renderer
  assert.equal((await act(tabId, refOf(text, 'Spin forever'), 'click')).ok, true);
  await new Promise((r) => setTimeout(r, 200));
  const busy = await within(9000, ctx.b.call({ cmd: 'snapshot', tabId }));
  assert.equal(busy.ok, false);
  assert.match(busy.error.code, /^(page_busy|timeout)$/, JSON.stringify(busy));
  const click = await within(9000, act(tabId, refOf(text, 'Rename'), 'click'));
  assert.match(click.error?.code, /^(page_busy|timeout)$/, JSON.stringify(click));
  assert.equal((await ctx.b.call({ cmd: 'ping' })).ok, true);
  assert.match(await snap(other.tabId), /^page "axsnap demo/);
  await other.page.close();
  await page.close({ runBeforeUnload: false });
});

test('scroll validates and clamps its amount; the tab keeps working', { timeout: 90000 }, async () => {
  const { page, tabId } = await open('/long_frame.html?label=Row');
  for (const value of ['sideways', 'NaN', 'Infinity', '250', null, {}, 1e100, -1e100, 1e6 + 1]) {
    const res = await within(2000, act(tabId, undefined, 'scroll', value));
    assert.equal(res.error?.code, 'bad_request', `${JSON.stringify(value)} → ${JSON.stringify(res)}`);
  }
  const down = await within(8000, act(tabId, undefined, 'scroll', 1e6));
  assert.deepEqual([down.ok, down.deltaY], [true, 100000], JSON.stringify(down));
  const up = await within(8000, act(tabId, undefined, 'scroll', -1e6));
  assert.deepEqual([up.ok, up.deltaY], [true, -100000]);
  assert.equal((await act(tabId, undefined, 'scroll', 250.4)).deltaY, 250);
  const text = await snap(tabId);
  assert.equal((await act(tabId, refOf(text, '[Row 3]'), 'click')).ok, true, 'the tab is not wedged');
  await page.close();
});

test('old refs never act on a new document, even after a service-worker stop', { timeout: 90000 }, async () => {
  const { page, tabId } = await open('/form.html');
  const text = await snap(tabId);
  const name = refOf(text, 'Full name');
  await stopServiceWorker();
  // Another site: a new renderer whose node ids start again from the same numbers.
  await page.goto(ctx.server.url('/form.html', 'localhost'), { waitUntil: 'load' });
  for (const [action, value] of [['fill', 'landed-on-new-page'], ['click', undefined], ['type', 'x'], ['focus', undefined]]) {
    const res = await act(tabId, name, action, value);
    assert.equal(res.ok, false, `${action}: ${JSON.stringify(res)}`);
    assert.equal(res.error.code, 'stale_ref', `${action}: ${JSON.stringify(res)}`);
  }
  assert.equal(await page.inputValue('#name'), '', 'nothing typed into the new page');
  // A reload is a new document too, on the same site.
  const fresh = await snap(tabId);
  await stopServiceWorker();
  await page.reload({ waitUntil: 'load' });
  assert.equal((await act(tabId, refOf(fresh, 'Full name'), 'fill', 'after-reload')).error?.code, 'stale_ref');
  assert.equal(await page.inputValue('#name'), '');
  // And a history-API URL change is not: refs keep working.
  const kept = await snap(tabId);
  await page.evaluate(() => history.pushState({}, '', '?step=2'));
  const same = await act(tabId, refOf(kept, 'Full name'), 'fill', 'same-document');
  assert.equal(same.ok, true, JSON.stringify(same));
  await page.close();
});

test('an element removed after the snapshot is stale_ref for every action', { timeout: 90000 }, async () => {
  const { page, tabId } = await open('/form.html');
  const text = await snap(tabId);
  const refs = { check: refOf(text, 'I agree'), fill: refOf(text, 'Full name'), select: refOf(text, 'combobox "Size"'), click: refOf(text, 'Count clicks') };
  await page.evaluate(() => {
    for (const id of ['terms', 'name', 'size', 'counter']) {
      const el = document.getElementById(id);
      window[`kept_${id}`] = el; // still alive in memory, gone from the page
      el.remove();
    }
  });
  const cases = [['check', refs.check], ['uncheck', refs.check], ['click', refs.check], ['fill', refs.fill, 'x'], ['type', refs.fill, 'x'],
    ['press', refs.fill, 'Enter'], ['focus', refs.fill], ['select', refs.select, 'Large'], ['hover', refs.click], ['scroll', refs.click], ['click', refs.click]];
  for (const [action, ref, value] of cases) {
    const res = await act(tabId, ref, action, value);
    assert.equal(res.error?.code, 'stale_ref', `${action}: ${JSON.stringify(res)}`);
  }
  await page.close();
});

test('two first snapshots in parallel both see every frame, nested cross-site ones too', { timeout: 120000 }, async () => {
  for (let i = 0; i < 6; i++) {
    const { page, tabId } = await open('/frames_many.html');
    const [x, y] = await Promise.all([ctx.b.call({ cmd: 'snapshot', tabId }), ctx.b.call({ cmd: 'snapshot', tabId })]);
    for (const res of [x, y]) {
      assert.equal(res.ok, true, JSON.stringify(res.error));
      assert.equal(res.stats.frames, 6, `round ${i}: ${JSON.stringify(res.stats)}`);
      assert.deepEqual(res.stats.framesFailed, []);
      assert.equal(res.text.match(/button A\d+ "Cross button"/g)?.length, 3, res.text);
      assert.match(res.text, /button A\d+ "Inner button"/, 'the frame inside the nested cross-site frame');
    }
    await page.close();
  }
});

test('after the debugger is detached behind the worker\'s back, requests without tabId attach again', { timeout: 90000 }, async () => {
  const { page, tabId } = await open('/demo.html');
  await page.bringToFront();
  await ctx.b.panel.evaluate((t) => chrome.tabs.update(t, { active: true }), tabId);
  const first = await ctx.b.call({ cmd: 'snapshot' });
  assert.equal(first.ok, true, JSON.stringify(first.error));
  assert.equal(first.tabId, tabId);
  for (let i = 0; i < 3; i++) {
    await ctx.b.panel.evaluate((t) => chrome.debugger.detach({ tabId: t }), tabId);
    const res = await ctx.b.call({ cmd: 'snapshot' });
    assert.equal(res.ok, true, `round ${i}: ${JSON.stringify(res.error)}`);
    // An action that does not navigate: a navigation would make the next round's refs rightly stale.
    const toggle = await ctx.b.call({ cmd: 'act', ref: refOf(res.text, 'Keep me signed in'), action: i % 2 ? 'check' : 'uncheck' });
    assert.equal(toggle.ok, true, JSON.stringify(toggle));
  }
  await page.close();
});
