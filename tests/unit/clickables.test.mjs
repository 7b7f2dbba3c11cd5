// The worker's reading of click facts from a DOMSnapshot (pure): which
// elements set cursor:pointer themselves, which listen, which have no box;
// and when a snapshot's reads of them are sent (Chrome stubbed).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickFacts, updateBoxes, updateFacts } from '../../extension/worker/clickables.js';

// document > html > body > div.btn(pointer) > span(inherits pointer); body > p(listener); body > div(no box, listener)
const strings = ['frame-1', '#document', 'HTML', 'BODY', 'DIV', 'SPAN', 'P', 'auto', 'pointer'];
const snap = {
  strings,
  documents: [{
    frameId: 0,
    nodes: {
      parentIndex: [-1, 0, 1, 2, 3, 2, 2],
      nodeType: [9, 1, 1, 1, 1, 1, 1],
      nodeName: [1, 2, 3, 4, 5, 6, 4],
      backendNodeId: [10, 11, 12, 13, 14, 15, 16],
    },
    layout: {
      nodeIndex: [1, 2, 3, 4, 5, 6],
      styles: [[7], [7], [8], [8], [7], [7]],
      bounds: [[0, 0, 800, 600], [0, 0, 800, 600], [0, 0, 80, 20], [2, 2, 10, 10], [0, 30, 800, 20], [0, 0, 0, 0]],
    },
  }],
};

test('pointer set on an element itself counts, inherited does not; <body> never; no box, no fact', () => {
  const facts = clickFacts(snap, [12, 15, 16]);
  assert.deepEqual(facts.get('frame-1'), [
    { backendNodeId: 13, pointer: true, listener: false, area: 1600 },
    { backendNodeId: 15, pointer: false, listener: true, area: 16000 },
  ]);
});

test('an element taking drops is a fact whatever its cursor, marked drop; one without a box is not', () => {
  const facts = clickFacts(snap, [15], [14, 16]);
  assert.deepEqual(facts.get('frame-1'), [
    { backendNodeId: 13, pointer: true, listener: false, area: 1600 },
    { backendNodeId: 14, pointer: false, listener: false, area: 100, drop: true },
    { backendNodeId: 15, pointer: false, listener: true, area: 16000 },
  ]);
});

test('positions: counts and indices from aria attributes, positive numbers only', async () => {
  const { readPositions } = await import('../../extension/worker/clickables.js');
  const strs = ['aria-rowcount', '10001', 'aria-rowindex', '7', 'aria-setsize', '-1', 'class', 'x'];
  const doc = { nodes: { backendNodeId: [1, 2, 3, 4], attributes: [[0, 1], [2, 3, 6, 7], [4, 5], []] } };
  assert.deepEqual(readPositions(doc, strs), [{ backendNodeId: 1, count: 10001 }, { backendNodeId: 2, index: 7 }]);
});

/** The facts kept from a look: 13 sets pointer, 15 listens, 20 is a list of 100 rows. */
const kept = () => ({
  key: 'frame-1', document: 'd1', clicks: new Set([15]), drops: new Set(),
  facts: new Map([[13, { backendNodeId: 13, pointer: true, listener: false, area: 1600 }], [15, { backendNodeId: 15, pointer: false, listener: true, area: 16000 }]]),
  positions: new Map([[20, { backendNodeId: 20, count: 100 }]]),
});

test('facts are updated where the page changed: the changed elements anew, the rest as kept, listeners as read now', () => {
  const changed = new Map([
    [13, { code: 4 * 1600 + 1, attributes: [] }], // still there, no longer sets pointer
    [30, { code: 4 * 500 + 2, attributes: ['class', 'card'] }], // new, sets pointer, 500 px²
    [31, { code: 0, attributes: ['aria-posinset', '7'] }], // new, no box: no click fact, but its place in the list
    [32, { code: 4 * 24 + 1, attributes: [] }], // new, listens (below)
  ]);
  const next = updateFacts(kept(), changed, { clicks: [32], drops: [] });
  assert.deepEqual([...next.facts.values()], [
    { backendNodeId: 30, pointer: true, listener: false, area: 500 },
    { backendNodeId: 32, pointer: false, listener: true, area: 24 },
  ]);
  assert.deepEqual([...next.positions.values()], [{ backendNodeId: 20, count: 100 }, { backendNodeId: 31, index: 7 }]);
});

test('boxes are kept where a change was laid out in the box it had, and read whole where others may have moved', () => {
  const kept = new Map([[1, [0, 0, 800, 600]], [2, [10, 20, 100, 30]], [3, [10, 20, 40, 30]], [4, [10, 400, 100, 30]]]);
  const changes = (box, more = {}) => ({
    changed: new Map([[2, { box }], [3, { box: null }], [5, { box: [60, 20, 40, 30] }]]), places: [2], kids: 0, boxesDoubt: null, ...more,
  });
  // A cell's words changed: the cell where it was, a word gone (no box now), another come.
  assert.deepEqual([...updateBoxes(kept, changes([10, 20, 100.01, 30]))], [[1, [0, 0, 800, 600]], [2, [10, 20, 100.01, 30]], [4, [10, 400, 100, 30]], [5, [60, 20, 40, 30]]]);
  // Taller: what is below it moves.
  assert.equal(updateBoxes(kept, changes([10, 20, 100, 48])), null);
  // No box before (shown now), or none now.
  assert.equal(updateBoxes(kept, { ...changes([10, 20, 100, 30]), places: [5] }), null);
  assert.equal(updateBoxes(kept, changes(null)), null);
  // Children came or went in a list, or the watcher saw what moves elements with no mutation.
  assert.equal(updateBoxes(kept, changes([10, 20, 100, 30], { kids: 1 })), null);
  assert.equal(updateBoxes(kept, changes([10, 20, 100, 30], { boxesDoubt: 'web fonts were loading' })), null);
});

test('an element outside the changes that began to listen cannot be updated: the facts are read whole', () => {
  assert.equal(updateFacts(kept(), new Map(), { clicks: [15, 40], drops: [] }), null);
  // One that stopped listening loses the fact it had for it.
  const next = updateFacts(kept(), new Map(), { clicks: [], drops: [] });
  assert.deepEqual([...next.facts.keys()], [13]);
});

test('reads started while the trees are built are taken for the frames they were started for, else read anew', async (t) => {
  const sent = [];
  const pending = [];
  const { useTransport } = await import('../../extension/worker/transport.js');
  useTransport(/** @type {any} */ ({
    send: (/** @type {number} */ tabId, /** @type {string|undefined} */ sessionId, /** @type {string} */ method) => {
      sent.push(`${sessionId || 'tab'} ${method}`);
      // Chrome answers later: the page is still building the trees.
      return new Promise((resolve) => pending.push(() => resolve(method === 'Runtime.evaluate' ? { result: { objectId: 'doc' } }
        : method === 'DOMDebugger.getEventListeners' ? { listeners: [{ type: 'click', backendNodeId: 7 }] } : { documents: [], strings: [] })));
    },
  }));
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { clickReads } = await import('../../extension/worker/clickables.js');
  const reads = clickReads(1);
  reads.start(undefined, ['main', 'same-site']);
  assert.deepEqual(sent, ['tab DOMSnapshot.captureSnapshot', 'tab Runtime.evaluate']);
  // Queued behind the trees, they outlive the quick calls' deadline.
  let settled = false;
  const early = reads.take(undefined, ['main']).finally(() => { settled = true; });
  const flush = () => new Promise((r) => setImmediate(r));
  // Past a quick call's deadline, and past the second a late call gets to show the page still answers.
  for (const ms of [10000, 2000]) {
    t.mock.timers.tick(ms);
    await flush();
  }
  assert.equal(settled, false);
  assert.equal(sent.length, 2, 'taken, not read again');
  reads.take(undefined, ['main', 'late']).catch(() => {});
  reads.take('oopif', ['cross-site']).catch(() => {});
  assert.deepEqual(sent.slice(2), ['tab DOMSnapshot.captureSnapshot', 'tab Runtime.evaluate', 'oopif DOMSnapshot.captureSnapshot', 'oopif Runtime.evaluate']);
  while (pending.length) {
    pending.shift()();
    await flush();
  }
  const [snap, listening] = await early;
  assert.deepEqual(snap, { documents: [], strings: [] });
  assert.deepEqual(listening, { clicks: [7], drops: [] });
});
