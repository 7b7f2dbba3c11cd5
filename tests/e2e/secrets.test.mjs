// End-to-end: secrets in real Chromium with the extension loaded. A secret's
// value, or its length, never reaches any output: text and JSON, full and
// interactive, capped or not, `resolve` answers, and the state the worker
// saves in chrome.storage.session.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { launch, refOf, ROOT } from '../harness.mjs';
import { serve } from '../server.mjs';

let b, server, page, tabId;

before(async () => {
  server = await serve({ '/': join(ROOT, 'tests/fixtures') });
  b = await launch();
  page = await b.ctx.newPage();
  await open('/secrets-names.html');
  tabId = await b.tabId(page);
});

after(async () => {
  await b?.close();
  await server?.close();
});

const open = (path) => page.goto(server.url(path), { waitUntil: 'load' });

const snap = async (options = { full: true }) => {
  const res = await b.call({ cmd: 'snapshot', tabId, options });
  assert.equal(res.ok, true, JSON.stringify(res.error));
  return res;
};

/** Every answer about the page, and the worker's saved state, as strings. */
async function everything() {
  const outputs = [];
  const refs = new Set();
  for (const mode of ['full', 'interactive']) {
    for (const format of ['text', 'json']) {
      for (const extra of [{ full: true }, { maxChars: 400 }]) {
        const res = await snap({ mode, format, ...extra });
        outputs.push(JSON.stringify(res));
        for (const r of res.text.match(/\bA\d+\b/g) || []) refs.add(r);
      }
    }
  }
  for (const ref of refs) outputs.push(JSON.stringify(await b.call({ cmd: 'resolve', tabId, ref })));
  outputs.push(JSON.stringify(await b.panel.evaluate(() => chrome.storage.session.get(null))));
  return outputs;
}

function assertClean(outputs, secrets, maskedLength) {
  for (const o of outputs) {
    for (const s of secrets) assert.ok(!o.includes(s), `${s} leaked in ${o.slice(0, 2000)}`);
    assert.ok(!o.includes('•') && !o.includes('\\u2022'), `bullets leaked in ${o.slice(0, 2000)}`);
    if (maskedLength === undefined || !o.startsWith('{"ok":true,"tabId"')) continue;
    // Refs (A29) may hold the digits; a leaked length would stand alone.
    const text = JSON.parse(o).text.split('\n').filter((l) => !l.startsWith('… cut at')).join('\n');
    const m = text.match(new RegExp(`(?<![A\\d])${maskedLength}(?!\\d)`));
    assert.ok(!m, `length ${maskedLength} leaked near ${m && JSON.stringify(text.slice(Math.max(0, m.index - 40), m.index + 10))}`);
  }
}

/** The line of a field, by its label. */
const line = (text, label) => text.split('\n').find((l) => l.includes(`"${label}`)) || `(no line for ${label})`;

/** The names page with every field filled: selector → value. */
async function fillNames() {
  await open('/secrets-names.html');
  const values = {
    '#otc1': 'CNRYOTCA1', '#otc2': 'CNRYOTCB2', '#c1': '4929', '#c2': '7731', '#c3': '6402', '#c4': '5518',
    '#cbcard': '4111111111111111', '#cvc': '123', '#self': 'CNRYSELF7', '#pw': 'hunter2-CNRY',
  };
  for (const [sel, v] of Object.entries(values)) await page.fill(sel, v);
  await page.evaluate(() => { /** @type {HTMLInputElement} */ (document.getElementById('hidden-code')).value = 'CNRYHIDDEN9'; });
  return (await snap()).text;
}

test('a label holding a second one-time-code field', async () => {
  const text = await fillNames();
  assertClean(await everything(), ['CNRYOTC']);
  assert.match(text, /\n  textbox A\d+ "Code \[secret\]" secret=one-time-code filled\n  textbox A\d+ secret=one-time-code filled\n/);
});

test('a card number split over four fields in one label', async () => {
  const text = await fillNames();
  assertClean(await everything(), ['4929', '7731', '6402', '5518']);
  assert.match(text, /\n  textbox A\d+ "Card number \[secret\] \[secret\] \[secret\]" secret=credit-card filled\n/);
});

test('a checkbox whose label holds a card field, or a short security code', async () => {
  const text = await fillNames();
  assertClean(await everything(), ['4111', 'Use code 123']);
  assert.match(text, /\n  checkbox A\d+ "Pay with card \[secret\]"\n/);
  assert.match(text, /\n  checkbox A\d+ "Use code \[secret\] now"\n/);
  assert.match(text, /Order 123 of 2024/, 'a short value is cut only where Chrome put it');
});

test('aria-labelledby naming the secret field itself', async () => {
  const text = await fillNames();
  assertClean(await everything(), ['CNRYSELF']);
  assert.match(text, /\n  textbox A\d+ "\[secret\]" secret=one-time-code filled\n/);
});

test('a button labelled by a password field says neither its bullets nor their number', async () => {
  const text = await fillNames();
  assertClean(await everything(), ['hunter2'], 'hunter2-CNRY'.length);
  assert.match(text, /\n  button A\d+ "Unlock \[secret\]"/);
});

test('aria-describedby naming a password field', async () => {
  const text = await fillNames();
  assertClean(await everything(), ['hunter2'], 'hunter2-CNRY'.length);
  assert.match(text, /button A\d+ "Help" desc="\[secret\]"/);
});

test('a hidden field a button\'s label points at', async () => {
  const text = await fillNames();
  assertClean(await everything(), ['CNRYHIDDEN']);
  assert.match(text, /\n  button A\d+ "\[secret\]"/);
});

test('a field shown as text by a "show password" button stays secret, also after a worker restart', async () => {
  await open('/secrets-toggle.html');
  for (const id of ['plain', 'ac', 'named', 'labelled']) await page.fill(`#${id}`, `CNRY-${id}-0042`);
  const first = (await snap()).text;
  for (const label of ['Secret phrase', 'Sign-in key', 'Key', 'Password']) assert.match(line(first, label), /secret=[a-z-]+ filled/, label);
  await page.click('#show');
  assert.equal(await page.getAttribute('#plain', 'type'), 'text');
  const shown = (await snap()).text;
  assert.match(line(shown, 'Secret phrase'), /secret=password filled/);
  assert.match(line(shown, 'Sign-in key'), /secret=current-password filled/);
  assertClean(await everything(), ['CNRY']);
  // The memory is in the tab's saved state: a stopped worker forgets nothing.
  const cdp = await b.ctx.newCDPSession(b.panel);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await new Promise((r) => setTimeout(r, 300));
  assert.match(line((await snap()).text, 'Secret phrase'), /secret=password filled/);
  assertClean(await everything(), ['CNRY']);
  await cdp.detach();
});

test('a new document starts with no memory of the last one', async () => {
  await open('/secrets-toggle.html');
  await page.fill('#plain', 'CNRY-first');
  await snap();
  const saved = async () => (await b.panel.evaluate((k) => chrome.storage.session.get(k), `tab:${tabId}`))[`tab:${tabId}`].secrets;
  const before = await saved();
  assert.equal(Object.keys(before).length, 1, JSON.stringify(before));
  const [[frame, { doc, fields }]] = Object.entries(before);
  assert.ok(Object.keys(fields).length >= 4, JSON.stringify(fields));
  await open('/secrets-toggle.html?text');
  await page.fill('#plain', 'visible words');
  const { text } = await snap();
  assert.match(line(text, 'Secret phrase'), /: visible words$/, 'a plain field in the new document is not secret');
  const after = await saved();
  assert.notEqual(after[frame] && after[frame].doc, doc, 'the old document\'s memory is dropped');
});

test('when the first snapshot comes after the switch, autocomplete, name, label and CSS masking tell', async () => {
  await open('/secrets-toggle.html');
  for (const id of ['ac', 'named', 'labelled', 'css', 'css2']) await page.fill(`#${id}`, `CNRY-${id}-0042`);
  await page.fill('#nick', 'Ada');
  await page.click('#show');
  const { text } = await snap();
  assert.match(line(text, 'Sign-in key'), /secret=current-password filled$/);
  assert.match(line(text, 'Key'), /secret=password filled$/);
  assert.match(line(text, 'Password'), /secret=password filled$/);
  assert.match(line(text, 'PIN'), /secret=password filled$/);
  assert.match(line(text, 'Memorable word'), /secret=password filled$/);
  assert.match(line(text, 'Nickname'), /: Ada$/);
  assertClean(await everything(), ['CNRY']);
});

test('card fields are found by any attribute, in any order and spelling, and look-alikes are not', async () => {
  await open('/secrets-cards.html');
  const labels = ['F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9', 'F10', 'F11', 'F12', 'F13', 'Expiry (MM/YY)', 'Card number'];
  const inputs = await page.$$('input, textarea');
  assert.equal(inputs.length, labels.length + 3);
  for (const [i, el] of inputs.entries()) await el.fill(i < labels.length ? `CNRY${String(i).padStart(2, '0')}x` : `visible ${i}`);
  const { text } = await snap();
  for (const label of labels) assert.match(line(text, `${label}"`), / secret=credit-card filled$/, label);
  assert.match(line(text, 'Gift card message'), /: visible 15$/);
  assert.match(line(text, 'Coupon expires'), /: visible 16$/);
  assert.match(line(text, 'Name on card'), /: visible 17$/);
  const interactive = (await snap({ mode: 'interactive', full: true })).text;
  assert.equal(interactive.split('\n').filter((l) => l.includes('secret=credit-card filled')).length, labels.length);
  for (const label of labels) {
    const res = await b.call({ cmd: 'resolve', tabId, ref: refOf(text, `"${label}"`) });
    assert.equal(res.name, label);
  }
  assertClean(await everything(), ['CNRY']);
});

// Echoes of what the person typed (typed.js, crates/axsnap-core/src/secrets/typed.rs).

/** Every answer holds none of `values`, in any case, nor their digits alone. */
function assertNoEcho(outputs, values) {
  for (const o of outputs) {
    const s = (typeof o === 'string' ? o : JSON.stringify(o)).toLowerCase();
    for (const v of values) {
      assert.ok(!s.includes(v.toLowerCase()), `${v} leaked in ${s.slice(Math.max(0, s.indexOf(v.toLowerCase()) - 300), s.indexOf(v.toLowerCase()) + 100)}`);
      const digits = v.replace(/\D/g, '');
      if (digits.length >= 8 && digits.length === v.replace(/[ -]/g, '').length) assert.ok(!s.replace(/[ -]/g, '').includes(digits), `${v}'s digits leaked in ${s.slice(0, 2000)}`);
    }
  }
}

const call = (msg) => b.call({ tabId, ...msg });

/**
 * The person types into a form of secrets-echo.html and presses its button
 * through `act` with a diff; then every way of reading the page.
 */
async function echoFlow({ field, button, value, echo }) {
  await open('/secrets-echo.html');
  const first = (await snap()).text;
  await snap({ diff: true });
  await page.fill(field, value);
  const outputs = [];
  const acted = await call({ cmd: 'act', ref: refOf(first, `button "${button}"`), action: 'click', snapshot: { diff: true } });
  assert.equal(acted.ok, true, JSON.stringify(acted.error));
  outputs.push(acted);
  const waited = await call({ cmd: 'wait_for', text: echo, timeout: 5000 });
  assert.equal(waited.ok, true, JSON.stringify(waited));
  const asked = await call({ cmd: 'wait_for', text: value, timeout: 600 });
  assert.equal(asked.ok, false, 'the value itself is never there to be waited for');
  outputs.push(waited, asked);
  const diff = await snap({ diff: true });
  const full = await snap();
  outputs.push(diff, full, ...(await everything()));
  assertNoEcho(outputs, [value]);
  return { acted, full: full.text };
}

test('a password echoed while it is still in its field, and in the title, a list, a placeholder', async () => {
  const { acted, full } = await echoFlow({ field: '#pwA', button: 'Sign in A', value: 'hunter2-CNRY-a', echo: 'Wrong password' });
  assert.match(acted.text, /Wrong password: \[secret\]/);
  assert.match(full, /Wrong password: \[secret\]/);
  assert.match(full, /^page "Sign in \(\[secret\]\)"/);
  // An error built from the page's words: the options of a <select>.
  const wrong = await call({ cmd: 'act', ref: refOf(full, 'combobox "Recent tries"'), action: 'select', value: 'nothing like it' });
  assert.equal(wrong.error?.code, 'no_such_option');
  assert.match(wrong.error.message, /\[secret\]/);
  const tabs = await call({ cmd: 'tabs' });
  assertNoEcho([wrong, tabs], ['hunter2-CNRY-a']);
});

test('a password echoed after its field was cleared, in another case, in an aria-live region', async () => {
  const { full } = await echoFlow({ field: '#pwB', button: 'Sign in B', value: 'hunter2-CNRY-b', echo: 'Wrong password' });
  assert.match(full, /Wrong password: \[secret\]/);
});

test('a current-password text field cleared after the try', async () => {
  const { full } = await echoFlow({ field: '#pwC', button: 'Sign in C', value: 'open sesame CNRY-c', echo: 'You typed' });
  assert.match(full, /You typed "\[secret\]", which is wrong/);
});

test('a value typed and cleared between two snapshots', async () => {
  await open('/secrets-echo.html');
  const first = (await snap()).text;
  assert.match(line(first, 'Passcode D'), /secret=password$/);
  await page.fill('#pwD', 'CNRY-typed-and-gone');
  await page.fill('#pwD', '');
  await snap();
  await page.click('#showD');
  const outputs = [await snap(), await snap({ diff: true }), ...(await everything())];
  assert.match(outputs[0].text, /Last try: \[secret\]/);
  assertNoEcho(outputs, ['CNRY-typed-and-gone']);
});

test('a card number in a field called "Card", and the page repeating it with dashes', async () => {
  await open('/secrets-echo.html');
  const first = (await snap()).text;
  await page.fill('#card', '5500 0000 0000 0004');
  const acted = await call({ cmd: 'act', ref: refOf(first, 'button "Pay"'), action: 'click', snapshot: { diff: true } });
  const { text } = await snap();
  assert.match(line(text, 'Card"'), /secret=credit-card filled$/);
  assert.match(text, /Charging card \[secret\]/);
  assertNoEcho([acted, text, ...(await everything())], ['5500 0000 0000 0004', '5500-0000-0000-0004']);
});

test('an alert() that echoes the password: the act answer, dialog_open errors, the saved dialog', async () => {
  const keep = () => {}; // a listener stops Playwright from dismissing dialogs itself
  page.on('dialog', keep);
  await open('/secrets-echo.html');
  const first = (await snap()).text;
  await page.fill('#pwF', 'hunter2-CNRY-f');
  const acted = await call({ cmd: 'act', ref: refOf(first, 'button "Sign in F"'), action: 'click', snapshot: { diff: true } });
  assert.equal(acted.dialog?.type, 'alert', JSON.stringify(acted));
  const blocked = await call({ cmd: 'snapshot' });
  assert.equal(blocked.error?.code, 'dialog_open');
  assert.match(blocked.error.message, /Wrong password: \[secret\]/);
  const saved = await b.panel.evaluate(() => chrome.storage.session.get(null));
  assert.ok(JSON.stringify(saved).includes('Wrong password: [secret]'), 'the open dialog is saved as answers say it');
  const answered = await call({ cmd: 'act', action: 'dialog', value: 'accept' });
  page.off('dialog', keep);
  assert.equal(answered.ok, true, JSON.stringify(answered));
  assert.match(answered.dialog.message, /Wrong password: \[secret\]/);
  assertNoEcho([acted, blocked, saved, answered, ...(await everything())], ['hunter2-CNRY-f']);
});

test('a form sent with GET: the next document\'s URL, its text, wait_for url and the tab list', async () => {
  await open('/secrets-echo.html');
  const first = (await snap()).text;
  await page.fill('#pwG', 'CNRYgetpass42');
  const acted = await call({ cmd: 'act', ref: refOf(first, 'button "Send G"'), action: 'click', snapshot: { diff: true } });
  assert.equal(acted.ok, true, JSON.stringify(acted.error));
  await page.waitForURL(/pw=/);
  const { text } = await snap();
  assert.match(text, /^page "Sign in" \S*pw=\[secret\]/);
  assert.match(text, /Sent: \[secret\]/);
  const byUrl = await call({ cmd: 'wait_for', url: 'CNRYgetpass42', timeout: 600 });
  assert.equal(byUrl.ok, false, 'the URL is read as the answers show it');
  const tabs = await call({ cmd: 'tabs' });
  assertNoEcho([acted, text, byUrl, tabs, ...(await everything())], ['CNRYgetpass42']);
});

test('after a worker restart, what was typed in a tab no request has read since is still cut: its title in tabs, its URL in wait_for', async () => {
  await open('/secrets-echo.html');
  const first = (await snap()).text;
  await page.fill('#pwG', 'CNRYrestart77');
  const acted = await call({ cmd: 'act', ref: refOf(first, 'button "Send G"'), action: 'click' });
  assert.equal(acted.ok, true, JSON.stringify(acted.error));
  await page.waitForURL(/pw=/);
  await page.evaluate(() => { document.title = `Sent ${new URLSearchParams(location.search).get('pw')}`; });
  const stopWorker = async () => {
    const cdp = await b.ctx.newCDPSession(b.panel);
    await cdp.send('ServiceWorker.enable');
    await cdp.send('ServiceWorker.stopAllWorkers');
    await cdp.detach();
    await new Promise((r) => setTimeout(r, 300));
  };
  // Each asked first after a restart, before anything reads the tab again.
  await stopWorker();
  const tabs = await b.call({ cmd: 'tabs' });
  assert.equal(tabs.ok, true, JSON.stringify(tabs.error));
  assert.ok(tabs.tabs.some((t) => t.tabId === tabId && t.title === 'Sent [secret]'), JSON.stringify(tabs.tabs.map((t) => t.title)));
  await stopWorker();
  const byUrl = await call({ cmd: 'wait_for', url: 'CNRYrestart77', timeout: 600 });
  assert.equal(byUrl.ok, false, 'the URL is read as the answers show it');
  assertNoEcho([tabs, byUrl], ['CNRYrestart77']);
});

test('a password shown as text, then cleared, and echoed in the page', async () => {
  await open('/secrets-toggle.html');
  await page.fill('#plain', 'hunter2-CNRY-shown');
  await snap();
  await page.click('#show');
  const shown = await snap();
  assert.match(line(shown.text, 'Secret phrase'), /secret=password filled$/);
  await page.evaluate(() => {
    const field = /** @type {HTMLInputElement} */ (document.getElementById('plain'));
    document.querySelector('h1').textContent = `Is ${field.value} right?`;
    field.value = '';
  });
  const { text } = await snap();
  assert.match(text, /Is \[secret\] right\?/);
  assertNoEcho([shown, text, ...(await everything())], ['hunter2-CNRY-shown']);
});
