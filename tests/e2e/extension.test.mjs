// End-to-end: the real extension in Debian's Chromium, real chrome.debugger,
// fixture pages on 127.0.0.1 with a same-site and a cross-site (localhost)
// iframe. Every request goes through the extension's message protocol.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, refOf, ROOT, EXTENSION_ID } from '../harness.mjs';
import { serve } from '../server.mjs';
import { COMMANDS } from '../../protocol/protocol.js';

let b, server, page, tabId;

before(async () => {
  server = await serve({ '/': join(ROOT, 'tests/fixtures') });
  b = await launch();
  page = await b.ctx.newPage();
  await page.goto(server.url('/form.html'), { waitUntil: 'load' });
  tabId = await b.tabId(page);
});

// Each test starts from a fresh copy of the page (a new document).
beforeEach(async () => {
  await page.goto(server.url('/form.html'), { waitUntil: 'load' });
});

after(async () => {
  await b?.close();
  await server?.close();
});

const snap = async (options = { full: true }) => {
  const res = await b.call({ cmd: 'snapshot', tabId, options });
  assert.equal(res.ok, true, JSON.stringify(res.error));
  return res;
};
const act = (ref, action, value) => b.call({ cmd: 'act', tabId, ref, action, value });
const frame = (name) => page.frames().find((f) => f.url().includes(name));

test('snapshot shows the form, the table with link refs and both iframes', async () => {
  const { text, stats } = await snap();
  assert.match(text, /^page "Checkout" http:\/\/127\.0\.0\.1:\d+\/form\.html\n/);
  assert.match(text, /\n form\n  textbox A\d+ "Full name"\n/);
  assert.match(text, /\| A\d+ \[#1\]\(\/orders\/1\) \| Shipped\b/);
  assert.match(text, /\n iframe "Same site"\n  button A\d+ "Inner button"\n/);
  assert.match(text, /\n iframe "Cross site"\n  ## Partner payment\n/);
  assert.match(text, /button A\d+ "Cross button"/);
  assert.match(text, /A\d+ \[Next step\]\(\?step=2\)/, 'the same path with another query as the query alone, tracking parameter gone');
  assert.equal(stats.frames, 3);
  assert.ok(stats.timings.totalMs > 0);
});

test('click by ref changes the page, in the top frame and in both iframes', async () => {
  const { text } = await snap();
  assert.deepEqual(await act(refOf(text, 'Count clicks'), 'click'), { ok: true, action: 'click', ref: refOf(text, 'Count clicks') });
  assert.equal(await page.textContent('#counter'), 'Clicked 1');
  assert.equal((await act(refOf(text, 'Inner button'), 'click')).ok, true);
  assert.equal(await frame('/frame.html').textContent('#inner'), 'Inner clicked');
  assert.equal((await act(refOf(text, 'Cross button'), 'click')).ok, true);
  assert.equal(await frame('localhost').textContent('#cross'), 'Cross clicked');
});

test('fill by ref sets the value and fires input and change; submit by click', async () => {
  const { text } = await snap();
  const res = await act(refOf(text, 'Full name'), 'fill', 'Ada Lovelace');
  assert.equal(res.ok, true, JSON.stringify(res));
  assert.equal(await page.inputValue('#name'), 'Ada Lovelace');
  assert.ok(await page.evaluate(() => window['changes']) >= 1);
  assert.equal((await act(refOf(text, 'Full name'), 'fill', 'Grace')).ok, true);
  assert.equal(await page.inputValue('#name'), 'Grace', 'fill replaces, not appends');
  assert.equal((await act(refOf(text, 'Pay now'), 'click')).ok, true);
  assert.equal(await page.textContent('#result'), 'Paid by Grace');
  const after = await snap();
  assert.match(after.text, /textbox A\d+ "Full name": Grace/);
  assert.match(after.text, /Paid by Grace/);
});

test('type appends and press sends keys', async () => {
  const { text } = await snap();
  await act(refOf(text, 'Full name'), 'fill', 'Ann');
  assert.equal((await act(refOf(text, 'Full name'), 'type', 'ie')).ok, true);
  assert.equal(await page.inputValue('#name'), 'Annie');
  assert.equal((await act(refOf(text, 'Full name'), 'press', 'Backspace')).ok, true);
  assert.equal(await page.inputValue('#name'), 'Anni');
  const bad = await act(refOf(text, 'Full name'), 'press', 'Hyper');
  assert.equal(bad.error.code, 'bad_request');
});

test('select an option and check a box', async () => {
  const { text } = await snap();
  const sel = await act(refOf(text, 'combobox "Size"'), 'select', 'Large');
  assert.deepEqual(sel, { ok: true, action: 'select', ref: refOf(text, 'combobox "Size"'), selected: 'Large' });
  assert.equal(await page.inputValue('#size'), 'l');
  const none = await act(refOf(text, 'combobox "Size"'), 'select', 'Huge');
  assert.equal(none.error.code, 'no_such_option');
  assert.equal((await act(refOf(text, 'I agree'), 'check')).ok, true);
  assert.equal(await page.isChecked('#terms'), true);
  assert.equal((await act(refOf(text, 'I agree'), 'check')).ok, true);
  assert.equal(await page.isChecked('#terms'), true, 'check is idempotent');
  assert.equal((await act(refOf(text, 'I agree'), 'uncheck')).ok, true);
  assert.equal(await page.isChecked('#terms'), false);
  assert.equal((await act(refOf(text, 'Count clicks'), 'check')).error.code, 'not_checkable');
  assert.equal((await act(refOf(text, 'Count clicks'), 'select', 'x')).error.code, 'not_a_select');
});

test('hover, focus and scroll', async () => {
  const { text } = await snap();
  assert.equal((await act(refOf(text, 'Full name'), 'focus')).ok, true);
  assert.equal(await page.evaluate(() => document.activeElement.id), 'name');
  assert.equal((await act(refOf(text, 'Count clicks'), 'hover')).ok, true);
  assert.equal((await b.call({ cmd: 'act', tabId, action: 'scroll', value: 'down' })).ok, true);
  assert.equal((await act(refOf(text, 'Cross button'), 'scroll')).ok, true);
});

test('refs stay the same after a re-snapshot', async () => {
  const a = (await snap()).text;
  const c = (await snap()).text;
  for (const name of ['Full name', 'Pay now', 'Inner button', 'Cross button', '#2', 'Partner card']) {
    assert.equal(refOf(c, name), refOf(a, name), name);
  }
});

test('a removed element\'s ref is stale, never another element', async () => {
  const { text } = await snap();
  const doomed = refOf(text, '"Doomed"');
  assert.equal((await act(refOf(text, 'Remove the doomed'), 'click')).ok, true);
  // Before a new snapshot: the node is detached, the action refuses.
  const early = await act(doomed, 'click');
  assert.equal(early.ok, false);
  assert.equal(early.error.code, 'stale_ref', JSON.stringify(early));
  const after = await snap();
  assert.ok(!after.text.includes('"Doomed"'));
  const res = await b.call({ cmd: 'resolve', tabId, ref: doomed });
  assert.deepEqual(res.error, { code: 'stale_ref', message: `${doomed} is stale: its element is gone; take a new snapshot` });
  assert.equal((await act(doomed, 'click')).error.code, 'stale_ref');
});

test('elements without a box or under another element are refused with a clear error', async () => {
  const { text } = await snap();
  const covered = await act(refOf(text, '"Covered"'), 'click');
  assert.equal(covered.error.code, 'obscured', JSON.stringify(covered));
  const ref = refOf(text, 'Count clicks');
  await page.evaluate(() => { document.getElementById('counter').style.display = 'none'; });
  const hidden = await act(ref, 'click');
  assert.equal(hidden.ok, false);
  assert.match(hidden.error.code, /not_visible|stale_ref/);
  await page.evaluate(() => { document.getElementById('counter').style.display = ''; });
});

test('a click whose element moves away while the button is down says it missed', async () => {
  // The classic first click that does nothing: leaving a field shows a message that pushes the button down.
  await page.evaluate(() => {
    const box = document.createElement('div');
    box.innerHTML = '<input aria-label="Nickname"><div id="shift"></div><button id="shifty">Shifty</button>';
    document.body.prepend(box);
    const shifty = document.getElementById('shifty');
    shifty.addEventListener('click', () => { shifty.textContent = 'Shifty pressed'; });
    box.querySelector('input').addEventListener('blur', () => { document.getElementById('shift').style.height = '300px'; });
    box.querySelector('input').focus();
  });
  const { text } = await snap();
  const res = await act(refOf(text, '"Shifty"'), 'click');
  assert.equal(res.error?.code, 'missed', JSON.stringify(res));
  assert.equal(await page.textContent('#shifty'), 'Shifty');
  // Now in place, the same click lands.
  assert.equal((await act(refOf((await snap()).text, '"Shifty"'), 'click')).ok, true);
  assert.equal(await page.textContent('#shifty'), 'Shifty pressed');
});

test('resolve gives the frame and backend node of a ref', async () => {
  const { text } = await snap();
  const r = await b.call({ cmd: 'resolve', tabId, ref: refOf(text, 'Cross button') });
  assert.equal(r.ok, true);
  assert.equal(r.role, 'button');
  assert.equal(r.name, 'Cross button');
  assert.equal(typeof r.backendNodeId, 'number');
  const link = await b.call({ cmd: 'resolve', tabId, ref: refOf(text, 'Next step') });
  assert.equal(link.url, server.url('/form.html?step=2&utm_source=mail'), 'resolve gives the full URL');
  const inner = await b.call({ cmd: 'resolve', tabId, ref: refOf(text, 'Inner button') });
  const top = await b.call({ cmd: 'resolve', tabId, ref: refOf(text, 'Pay now') });
  assert.equal(new Set([r.frame, inner.frame, top.frame]).size, 3, 'three frames, three keys');
});

test('capped and interactive snapshots', async () => {
  const capped = await b.call({ cmd: 'snapshot', tabId, options: { maxChars: 400 } });
  assert.ok(capped.text.length <= 400, String(capped.text.length));
  assert.match(capped.text, /… cut at 400 chars: \d+ more lines with \d+ refs/);
  const inter = await b.call({ cmd: 'snapshot', tabId, options: { mode: 'interactive', full: true } });
  assert.ok(!inter.text.includes('Shipped'));
  assert.match(inter.text, /button A\d+ "Cross button"/);
  const json = await b.call({ cmd: 'snapshot', tabId, options: { format: 'json', full: true } });
  const rows = JSON.parse(json.text);
  assert.ok(rows.some((r) => r[1] === 'button' && r[2] === 'Pay now' && /^A\d+$/.test(r[4])));
});

test('malformed requests get typed errors and the worker carries on', async () => {
  const cases = [
    ['nonsense', 'bad_request'],
    [{}, 'bad_request'],
    [{ cmd: 'launch-rockets' }, 'unknown_command'],
    [{ cmd: 'act', tabId, action: 'click' }, 'bad_request'],
    [{ cmd: 'act', tabId, ref: 'A1', action: 'teleport' }, 'bad_request'],
    [{ cmd: 'act', tabId, ref: 'A1', action: 'fill', value: 5 }, 'bad_request'],
    [{ cmd: 'snapshot', tabId, options: { maxChars: -1 } }, 'bad_options'],
    [{ cmd: 'snapshot', tabId, options: { colour: 'red' } }, 'bad_options'],
    [{ cmd: 'snapshot', tabId, typo: 1 }, 'bad_request'],
    [{ cmd: 'act', tabId, ref: 'A1', action: 'fill', value: 'x'.repeat(1 << 20) }, 'too_large'],
    [{ cmd: 'act', tabId, action: 'scroll', value: -1e100 }, 'bad_request'],
    [{ cmd: 'snapshot', tabId, options: { mode: 'sideways' } }, 'bad_options'],
    [{ cmd: 'snapshot', tabId: 'seven' }, 'bad_request'],
    [{ cmd: 'resolve', tabId, ref: 'Z9' }, 'bad_ref'],
    [{ cmd: 'resolve', tabId, ref: 'A99999' }, 'unknown_ref'],
    [{ cmd: 'snapshot', tabId: 999999 }, 'no_tab'],
  ];
  for (const [msg, code] of cases) {
    const res = await b.call(msg);
    assert.equal(res.ok, false, JSON.stringify(msg));
    assert.equal(res.error.code, code, `${JSON.stringify(msg)} → ${JSON.stringify(res.error)}`);
    assert.equal(typeof res.error.message, 'string');
  }
  assert.deepEqual(await b.call({ cmd: 'launch', id: 9 }), { ok: false, id: 9, error: { code: 'unknown_command', message: `unknown cmd "launch": use one of ${Object.keys(COMMANDS).join(', ')}` } });
  const ping = await b.call({ cmd: 'ping', id: 'p1' });
  assert.deepEqual([ping.ok, ping.id, ping.protocol], [true, 'p1', 1]);
  // Built in the page: a `__proto__` key survives only JSON, not Playwright's argument passing.
  const proto = await b.panel.evaluate(() => chrome.runtime.sendMessage(JSON.parse('{"cmd":"snapshot","options":{"__proto__":{"mode":"x"}}}')));
  assert.equal(proto.error.code, 'bad_options');
  assert.match(proto.error.message, /^unknown option "__proto__": known are mode, format/);
});

test('secret values never appear in any output, in any frame or shadow root', async () => {
  const canary = 'CANARY-7f3a9-4111111111111111';
  await page.fill('#pw', canary);
  await page.fill('#npw', canary);
  await page.fill('#cc', canary);
  await page.fill('#otp', canary);
  await page.fill('#shadowcc', canary); // Playwright's CSS pierces open shadow roots
  await frame('/frame.html').fill('#fpw', canary);
  const cross = frame('localhost');
  await cross.fill('#ppw', canary);
  await cross.fill('#pcode', canary);
  await cross.fill('#pcc', canary);
  // And one more through the extension's own fill.
  const { text } = await snap();
  const viaExtension = 'CANARY-typed-by-agent';
  assert.equal((await act(refOf(text, 'Partner password'), 'fill', viaExtension)).ok, true);
  assert.equal(await cross.inputValue('#ppw'), viaExtension);
  const outputs = [];
  for (const mode of ['full', 'interactive']) {
    for (const format of ['text', 'json']) {
      for (const extra of [{ full: true }, { maxChars: 300 }, {}]) {
        const res = await b.call({ cmd: 'snapshot', tabId, options: { mode, format, ...extra } });
        assert.equal(res.ok, true);
        outputs.push(JSON.stringify(res));
      }
    }
  }
  for (const o of outputs) {
    assert.ok(!o.includes('CANARY'), o);
    assert.ok(!o.includes('4111'), o);
    assert.ok(!o.includes('•'), o);
    // The cut note counts lines and refs; its numbers are not about the field.
    const textOnly = JSON.parse(o).text.split('\n').filter((l) => !l.startsWith('… cut at')).join('\n');
    // Refs (A29) may contain the digits; a leaked length would stand alone.
    const alone = new RegExp(`(?<![A\\d])${canary.length}(?!\\d)`);
    const m = textOnly.match(alone);
    assert.ok(!m, `length ${canary.length} leaked near ${m && JSON.stringify(textOnly.slice(Math.max(0, m.index - 40), m.index + 10))}`);
  }
  const full = (await snap()).text;
  for (const name of ['Password', 'New password', 'Card number', 'One-time code', 'Shadow card', 'Frame password', 'Partner password', 'Partner code', 'Partner card']) {
    assert.match(full, new RegExp(`textbox A\\d+ "${name}" secret=[a-z-]+ filled`), name);
  }
});

test('a web page can snapshot its own tab, and only its own', async () => {
  const other = await b.ctx.newPage();
  await other.goto(server.url('/demo.html'));
  await b.allowSite(new URL(other.url()).origin);
  const own = await other.evaluate((id) => chrome.runtime.sendMessage(id, { cmd: 'snapshot', options: { maxChars: 2000 } }), EXTENSION_ID);
  assert.equal(own.ok, true, JSON.stringify(own));
  assert.match(own.text, /^page "axsnap demo: a small shop"/);
  const foreign = await other.evaluate(([id, t]) => chrome.runtime.sendMessage(id, { cmd: 'snapshot', tabId: t }), [EXTENSION_ID, tabId]);
  assert.equal(foreign.error.code, 'forbidden');
  await other.close();
});

test('refs survive a service-worker restart', async () => {
  const { text } = await snap();
  const ref = refOf(text, 'Cross button');
  const before = await b.call({ cmd: 'resolve', tabId, ref });
  const cdp = await b.ctx.newCDPSession(b.panel);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await new Promise((r) => setTimeout(r, 300));
  const afterRestart = await b.call({ cmd: 'resolve', tabId, ref });
  assert.deepEqual(afterRestart, before);
  await frame('localhost').evaluate(() => { document.getElementById('cross').textContent = 'Cross button'; });
  const res = await act(ref, 'click');
  assert.equal(res.ok, true, JSON.stringify(res));
  assert.equal(await frame('localhost').textContent('#cross'), 'Cross clicked');
  const again = await snap();
  assert.equal(refOf(again.text, 'Cross clicked'), ref);
});

test('detaching mid-action gives a clean error and the next snapshot works', async () => {
  const { text } = await snap();
  const typing = act(refOf(text, 'Full name'), 'type', 'x'.repeat(3000));
  await new Promise((r) => setTimeout(r, 150));
  await b.panel.evaluate((t) => chrome.debugger.detach({ tabId: t }), tabId);
  const res = await typing;
  assert.equal(res.ok, false, 'typing 3000 keys should outlast the detach');
  assert.equal(res.error.code, 'detached', JSON.stringify(res));
  const next = await snap();
  assert.match(next.text, /button A\d+ "Pay now"/);
  assert.equal(refOf(next.text, 'Pay now'), refOf(text, 'Pay now'), 'same document, same refs');
});

test('closing the tab gives a clean error and other tabs keep working', async () => {
  const other = await b.ctx.newPage();
  await other.goto(server.url('/demo.html'));
  const otherId = await b.tabId(other);
  const first = await b.call({ cmd: 'snapshot', tabId: otherId });
  assert.equal(first.ok, true);
  const signIn = refOf(first.text, 'Sign in"');
  await other.close();
  const gone = await b.call({ cmd: 'snapshot', tabId: otherId });
  assert.equal(gone.error.code, 'no_tab');
  const act2 = await b.call({ cmd: 'act', tabId: otherId, ref: signIn, action: 'click' });
  assert.equal(act2.ok, false);
  assert.match(act2.error.code, /no_tab|unknown_ref|stale_ref/);
  assert.equal((await snap()).ok, true);
});

test('after a navigation old refs are stale, never matched to the new page', async () => {
  const { text } = await snap();
  const pay = refOf(text, 'Pay now');
  await page.goto(server.url('/demo.html'), { waitUntil: 'load' });
  const res = await act(pay, 'click');
  assert.equal(res.ok, false);
  assert.equal(res.error.code, 'stale_ref', JSON.stringify(res));
  const fresh = await snap();
  assert.match(fresh.text, /^page "axsnap demo: a small shop"/);
  assert.ok(!common(fresh.text, text).includes(pay), 'numbers are never reused');
});

/** Refs printed in both texts. */
function common(a, b) {
  const refs = (t) => new Set(t.match(/\bA\d+\b/g));
  const rb = refs(b);
  return [...refs(a)].filter((r) => rb.has(r));
}

test('the side panel snapshots the active tab and acts by ref', async () => {
  const panelPage = await b.ctx.newPage();
  await panelPage.goto(`chrome-extension://${EXTENSION_ID}/extension/panel/sidepanel.html`);
  await page.bringToFront();
  // The panel asks for the active tab of the last focused window: make it the fixture.
  await b.panel.evaluate((t) => chrome.tabs.update(t, { active: true }), tabId);
  await panelPage.click('#developer summary');
  await panelPage.click('#snap');
  await panelPage.waitForFunction(() => document.getElementById('out').textContent.length > 0
    || document.getElementById('status').className === 'error');
  const out = await panelPage.textContent('#out');
  const status = await panelPage.textContent('#status');
  assert.ok(out.startsWith('page "'), `${status}\n${out}`);
  assert.match(status, /\d+ refs, \d+ chars/);
  await panelPage.close();
});

test('a subtree by ref shows the form around a field, and other refs stay valid', async () => {
  const { text } = await snap();
  const sub = await b.call({ cmd: 'snapshot', tabId, options: { root: refOf(text, 'Full name') } });
  assert.equal(sub.ok, true, JSON.stringify(sub));
  assert.match(sub.text, /^form\n textbox A\d+ "Full name"/);
  assert.ok(!sub.text.includes('Orders'));
  assert.equal((await act(refOf(text, 'Count clicks'), 'click')).ok, true);
});

test('card titles, twin links and same-page links, through the extension', async () => {
  await page.goto(server.url('/cards.html'), { waitUntil: 'load' });
  const { text } = await snap();
  assert.match(text, /A\d+ #\[Jump to latest\]/, 'a same-page link is #[name]');
  const twin = text.match(/### A(\d+) A(\d+) \[Burr grinders explained\]\(\/guides\/1\.html\)\n/);
  assert.ok(twin, `thumbnail and title share one line:\n${text}`);
  assert.match(text, /- ### A\d+ \[Cleaning a hand mill\]\(\/guides\/2\.html\)\n/, 'a heading inside a link is said once');
  assert.match(text, /Read A\d+ \[the guide\]\S* and then A\d+ \[the guide\]\S* again/, 'words in a sentence keep their place');
  const [thumb, title] = [`A${twin[1]}`, `A${twin[2]}`];
  for (const ref of [thumb, title]) {
    const r = await b.call({ cmd: 'resolve', tabId, ref });
    assert.equal(r.role, 'link');
    assert.equal(r.url, server.url('/guides/1.html'));
    assert.equal(r.name, ref === thumb ? '' : 'Burr grinders explained', 'each ref keeps its own element');
  }
  const json = JSON.parse((await snap({ full: true, format: 'json' })).text);
  assert.ok(json.some((r) => r[4] === title && r[3]?.also?.includes(thumb)), 'JSON carries the twin ref');
  const click = await act(thumb, 'click');
  assert.equal(click.ok, true, `the thumbnail ref still acts on the thumbnail: ${JSON.stringify(click.error)}`);
  await page.waitForURL(/\/guides\/1\.html$/);
});

test('a tracker link shows its destination; resolve and a click keep the real link', async () => {
  await page.goto(server.url('/redirects.html'), { waitUntil: 'load' });
  const { text } = await snap();
  assert.match(text, /A\d+ \[Demo shop\]\(\/demo\.html\)/, 'a site\'s own redirect path shows where it leads');
  assert.match(text, /A\d+ \[A guide\]\(https:\/\/example\.org\/guide\)/, 'a Google redirect shows its destination');
  assert.match(text, /A\d+ <https:\/\/www\.rfc-editor\.org\/info\/rfc9110>/, 'a link whose words are its URL is an autolink');
  const ref = refOf(text, '[Demo shop]');
  const tracker = `${server.url('/out')}?url=http%3A%2F%2F127.0.0.1%3A${server.port}%2Fdemo.html&pos=1`;
  assert.equal((await b.call({ cmd: 'resolve', tabId, ref })).url, tracker, 'resolve gives the URL the link really has');
  assert.equal((await act(ref, 'click')).ok, true);
  await page.waitForURL((u) => u.pathname === '/out', { timeout: 10000 });
});
