// A very large page's window read and its failures (pure: the read is a stand-in): read once more when a part
// failed, never past one deadline for both tries, and a page that cannot be read answers a typed `timeout`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readWindowWithin } from '../../extension/worker/large.js';
import { AxError } from '../../extension/worker/errors.js';

const dropped = () => new AxError('cdp_error', 'Runtime.getProperties: Internal error');

test('a read that failed in part is read once more, by the same deadline', async () => {
  const deadlines = [];
  const got = await readWindowWithin(async (until) => {
    deadlines.push(until);
    if (deadlines.length === 1) throw dropped();
    return 'window';
  }, { main: true, elements: 200002 });
  assert.equal(got, 'window');
  assert.equal(deadlines.length, 2);
  assert.equal(deadlines[0], deadlines[1], 'the second try has what is left of the first one\'s time, not a time of its own');
});

test('the tab\'s page that fails twice answers a typed timeout; a frame\'s read fails as it failed', async () => {
  await assert.rejects(readWindowWithin(async () => { throw dropped(); }, { main: true, elements: 200002 }),
    (e) => e.code === 'timeout' && /200,002 elements\) and the part of it in view could not be read twice \(Runtime\.getProperties/.test(e.message));
  await assert.rejects(readWindowWithin(async () => { throw dropped(); }, { main: false, elements: 200002 }), (e) => e.code === 'cdp_error');
});

test('a timeout, a busy page or a dialog is answered at once, not read again', async () => {
  for (const code of ['timeout', 'page_busy', 'dialog_open']) {
    let reads = 0;
    await assert.rejects(readWindowWithin(async () => { reads++; throw new AxError(code, 'x'); }, { main: true, elements: 40000 }), (e) => e.code === code);
    assert.equal(reads, 1, code);
  }
});

test('a read that never answers is a typed timeout soon after the deadline, not a wait without end', async () => {
  const t = Date.now();
  await assert.rejects(readWindowWithin(() => new Promise(() => {}), { main: true, elements: 300002, ms: 100 }),
    (e) => e.code === 'timeout' && /within 0\.1 s/.test(e.message));
  const ms = Date.now() - t;
  assert.ok(ms >= 100 && ms < 1500, `${ms} ms`);
});
