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
