// Subscriptions (extension/worker/watch.js) over stand-in looks: what is
// pushed, what passes, what ends one, and the cap per port. The real thing,
// over real ports, is in tests/e2e/client.test.mjs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Watches, MAX_WATCHES } from '../../extension/worker/watch.js';

const wait = (ms) => new Promise((r) => setTimeout(r, ms));
const snap = (text, diff) => ({ ok: true, tabId: 1, text, stats: {}, ...(diff ? { diff } : {}) });
const fail = (code) => ({ ok: false, error: { code, message: code } });

/** Looks answered in turn from `answers` (the last one again once they run out); `done` once all were given twice over the last. */
function scripted(answers) {
  let i = 0;
  let finish;
  const look = async () => {
    if (i === answers.length) finish();
    return answers[Math.min(i++, answers.length - 1)];
  };
  look.done = new Promise((r) => { finish = r; }).then(() => wait(5));
  return look;
}

test('whole snapshots: pushed when the text changes, not when it stays; a passing failure skips a look', async () => {
  const events = [];
  const w = new Watches((e) => events.push(e));
  const look = scripted([snap('a'), snap('b'), fail('page_busy'), snap('b'), snap('c')]);
  const id = w.start({ tabId: 1, interval: 2, diffs: false, first: 'a', look });
  await look.done;
  w.stop(id);
  assert.deepEqual(events.map((e) => [e.event, e.watch, e.text]), [['change', id, 'b'], ['change', id, 'c']]);
});

test('diffs: pushed unless empty; a full snapshot (new document) always', async () => {
  const events = [];
  const w = new Watches((e) => events.push(e));
  const none = { full: false, added: 0, removed: 0, changed: 0 };
  const look = scripted([snap('no change', none), snap('+ x', { ...none, added: 1 }), snap('page 2', { full: true, reason: 'new document' }), snap('no change', none)]);
  const id = w.start({ tabId: 1, interval: 2, diffs: true, first: 'page', look });
  await look.done;
  w.stop(id);
  assert.deepEqual(events.map((e) => e.text), ['+ x', 'page 2']);
  assert.deepEqual(events[1].diff, { full: true, reason: 'new document' });
});

test('a failure for good ends it with its code; a closed tab with no_tab; unwatch and the port closing end it quietly', async () => {
  const events = [];
  const w = new Watches((e) => events.push(e));
  let revoked;
  const ended = new Promise((r) => { revoked = r; });
  w.start({ tabId: 1, interval: 2, diffs: false, first: 'a', look: async () => { setTimeout(revoked, 5); return fail('revoked'); } });
  const onTab = w.start({ tabId: 9, interval: 1000, diffs: false, first: 'a', look: scripted([snap('a')]) });
  const quietLook = scripted([snap('a')]);
  const quiet = w.start({ tabId: 2, interval: 2, diffs: false, first: 'a', look: quietLook });
  await Promise.all([ended, quietLook.done]);
  w.byId.get(onTab)?.closed(); // what the tab's session does when the tab closes
  w.stop(quiet);
  const before = events.length;
  w.stopAll();
  await wait(20);
  const ends = events.filter((e) => e.event === 'ended').map((e) => [e.watch, e.error.code]);
  assert.equal(ends.length, 2);
  assert.equal(ends[0][1], 'revoked');
  assert.deepEqual(ends[1], [onTab, 'no_tab']);
  assert.equal(events.length, before, 'nothing after the port closed');
  assert.equal(w.byId.size, 0);
  assert.equal(w.stop(onTab), false, 'an ended subscription is gone');
});

test(`at most ${MAX_WATCHES} per port`, () => {
  const w = new Watches(() => {});
  for (let i = 0; i < MAX_WATCHES; i++) w.start({ tabId: 1, interval: 60000, diffs: false, first: '', look: scripted([snap('')]) });
  assert.throws(() => w.start({ tabId: 1, interval: 60000, diffs: false, first: '', look: scripted([snap('')]) }), { code: 'rate_limited' });
  w.stopAll();
});
