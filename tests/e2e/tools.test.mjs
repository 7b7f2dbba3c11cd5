// The everyday tools through the router, as any caller sends them:
// screenshots of the viewport and of one element by ref, with the secret
// fields painted over (the picture shows no more than the text view).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExtension, refOf } from '../harness.mjs';

const ctx = withExtension();
const MASK = [0x6b, 0x6b, 0x6b];

async function open() {
  const page = await ctx.b.ctx.newPage();
  await page.goto(`${ctx.server.url('/tools.html')}?t=${Date.now()}`, { waitUntil: 'load' });
  return { page, tabId: await ctx.b.tabId(page) };
}

async function call(msg) {
  const res = await ctx.b.call(msg);
  assert.equal(res.ok, true, JSON.stringify(res.error));
  return res;
}

/**
 * Decodes a PNG in the extension's page and says, of each rectangle (image
 * pixels), what share of its pixels are the mask's grey and which colour is
 * most common.
 */
const inspect = (data, rects) => ctx.b.panel.evaluate(async ([d, rs]) => {
  const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${d}`)).blob());
  const c = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
  c.drawImage(bitmap, 0, 0);
  return rs.map(([x, y, w, h]) => {
    const px = c.getImageData(x, y, w, h).data;
    const counts = new Map();
    for (let i = 0; i < px.length; i += 4) {
      const k = `${px[i]},${px[i + 1]},${px[i + 2]}`;
      counts.set(k, (counts.get(k) || 0) + 1);
    }
    const [top] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    return { top: top[0].split(',').map(Number), share: top[1] / (w * h) };
  });
}, [data, rects]);

/** An element's box in the viewport, as the page measures it. */
const boxOf = (page, sel) => page.$eval(sel, (e) => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height].map(Math.round); });

test('a screenshot of the viewport is a PNG with every secret field painted over, and nothing else', async () => {
  const { page, tabId } = await open();
  const shot = await call({ cmd: 'screenshot', tabId });
  assert.equal(shot.mimeType, 'image/png');
  assert.deepEqual([shot.width, shot.height], [1280, 800]);
  assert.equal(shot.masked, 2, 'the password and the card number');
  assert.equal(shot.clipped, false);
  const inside = ([x, y, w, h]) => [x + 2, y + 2, w - 4, h - 4];
  const [password, card, name] = await inspect(shot.data, [
    inside(await boxOf(page, '#password')), inside(await boxOf(page, '#card')), inside(await boxOf(page, '#name')),
  ]);
  assert.deepEqual(password, { top: MASK, share: 1 }, 'not a dot of the password shows, nor how many');
  assert.deepEqual(card, { top: MASK, share: 1 });
  assert.deepEqual(name.top, [255, 255, 255], 'an ordinary field shows as it is');
  await page.close();
});

test('a screenshot of one element by ref scrolls it into view and shows only it', async () => {
  const { page, tabId } = await open();
  const snap = await call({ cmd: 'snapshot', tabId });
  const badge = refOf(snap.text, 'button "Badge"');
  const shot = await call({ cmd: 'screenshot', tabId, ref: badge });
  assert.equal(shot.ref, badge);
  assert.deepEqual([shot.width, shot.height, shot.masked, shot.clipped], [200, 100, 0, false]);
  const [all] = await inspect(shot.data, [[0, 0, 200, 100]]);
  assert.deepEqual(all, { top: [200, 30, 30], share: 1 });
  // The caller's refs are untouched: the screenshot's own look kept to a table of its own.
  assert.equal((await call({ cmd: 'snapshot', tabId, options: { diff: true } })).diff.full, false);
  await page.close();
});

test('screenshot refusals are typed: a hidden element, a ref never issued, a word that is no ref', async () => {
  const { page, tabId } = await open();
  await page.evaluate(() => { document.getElementById('gone').style.display = 'inline'; });
  const snap = await call({ cmd: 'snapshot', tabId });
  const hidden = refOf(snap.text, 'button "Hidden"');
  await page.evaluate(() => { document.getElementById('gone').style.display = 'none'; });
  assert.equal((await ctx.b.call({ cmd: 'screenshot', tabId, ref: hidden })).error.code, 'not_visible');
  assert.equal((await ctx.b.call({ cmd: 'screenshot', tabId, ref: 'A999' })).error.code, 'unknown_ref');
  assert.equal((await ctx.b.call({ cmd: 'screenshot', tabId, ref: 'nope' })).error.code, 'bad_ref');
  await page.close();
});

const b64 = (text) => Buffer.from(text).toString('base64');

test('upload puts files into a file input by ref, and the page reads them as if the person had picked them', async () => {
  const { page, tabId } = await open();
  const snap = await call({ cmd: 'snapshot', tabId });
  const attach = refOf(snap.text, '"Attachment"');
  const files = [{ name: 'notes.txt', mimeType: 'text/plain', data: b64('héllo, wörld') }, { name: 'data.bin', data: b64('\u0000\u0001') }];
  const done = await call({ cmd: 'upload', tabId, ref: attach, files });
  assert.deepEqual([done.files, done.bytes], [['notes.txt', 'data.bin'], 16]);
  await page.waitForFunction(() => document.getElementById('chosen').textContent !== 'nothing chosen');
  assert.equal(await page.textContent('#chosen'), 'notes.txt (text/plain, 14 bytes): héllo, wörld; data.bin (no type, 2 bytes): \u0000\u0001');
  // Refusals, with nothing put in the input: one file only, not a file input, no base64, a folder in the name, over 10 MB.
  const photo = refOf(snap.text, '"Photo"');
  const name = refOf(snap.text, 'textbox "Name"');
  const refused = async (msg) => (await ctx.b.call({ cmd: 'upload', tabId, ...msg })).error.code;
  assert.equal(await refused({ ref: photo, files }), 'not_a_file_input');
  assert.equal(await refused({ ref: name, files: files.slice(0, 1) }), 'not_a_file_input');
  assert.equal(await refused({ ref: photo, files: [{ name: 'a.txt', data: 'not base64!' }] }), 'bad_request');
  assert.equal(await refused({ ref: photo, files: [{ name: '../a.txt', data: b64('a') }] }), 'bad_request');
  assert.equal(await refused({ ref: photo, files: [{ name: 'big.bin', data: 'A'.repeat(14 * 1024 * 1024) }] }), 'too_large');
  assert.equal(await page.$eval('#photo', (e) => e.files.length), 0);
  await page.close();
});
