// The worker's reading of click facts from a DOMSnapshot (pure): which
// elements set cursor:pointer themselves, which listen, which have no box.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickFacts } from '../../extension/worker/clickables.js';

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
    { backendNodeId: 13, pointer: true, listener: false },
    { backendNodeId: 15, pointer: false, listener: true },
  ]);
});

test('an element taking drops is a fact whatever its cursor, marked drop; one without a box is not', () => {
  const facts = clickFacts(snap, [15], [14, 16]);
  assert.deepEqual(facts.get('frame-1'), [
    { backendNodeId: 13, pointer: true, listener: false },
    { backendNodeId: 14, pointer: false, listener: false, drop: true },
    { backendNodeId: 15, pointer: false, listener: true },
  ]);
});

test('positions: counts and indices from aria attributes, positive numbers only', async () => {
  const { readPositions } = await import('../../extension/worker/clickables.js');
  const strs = ['aria-rowcount', '10001', 'aria-rowindex', '7', 'aria-setsize', '-1', 'class', 'x'];
  const doc = { nodes: { backendNodeId: [1, 2, 3, 4], attributes: [[0, 1], [2, 3, 6, 7], [4, 5], []] } };
  assert.deepEqual(readPositions(doc, strs), [{ backendNodeId: 1, count: 10001 }, { backendNodeId: 2, index: 7 }]);
});
