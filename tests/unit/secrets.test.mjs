// Pure logic of the worker's field facts: which nodes are read, and the
// memory of secret fields per document. (Which fields are secret is the
// core's decision, tested in Rust; whether it works on real pages is the
// end-to-end tests' job.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { candidates, recall, remember, MEMORY_FIELDS, MEMORY_FRAMES } from '../../extension/worker/secrets.js';

const prop = (name, value) => ({ name, value: { type: 'booleanOrUndefined', value } });
const node = (id, role, extra = {}) => ({ nodeId: String(id), backendDOMNodeId: id, role: { type: 'role', value: role }, properties: [], ...extra });
const relation = (name, ids) => ({ name, value: { type: 'nodeList', relatedNodes: ids.map((backendDOMNodeId) => ({ backendDOMNodeId })) } });

test('text fields of every kind are read, other nodes are not', () => {
  const nodes = [
    node(1, 'RootWebArea'),
    node(2, 'textbox'), node(3, 'searchbox'), node(4, 'combobox'), node(5, 'spinbutton'),
    node(6, 'generic', { properties: [prop('editable', 'plaintext'), prop('focusable', true)] }),
    node(7, 'button'), node(8, 'checkbox'),
    node(9, 'textbox', { ignored: true }),
    { nodeId: '10', role: { type: 'role', value: 'textbox' } },
  ];
  assert.deepEqual(candidates(nodes), { fields: [2, 3, 4, 5, 6], hidden: [] });
});

test('nodes a label or description points at are read when the tree leaves them out', () => {
  const nodes = [
    node(1, 'RootWebArea'),
    node(2, 'button', { properties: [relation('labelledby', [3, 26])] }),
    node(3, 'StaticText'),
    node(4, 'button', { properties: [relation('describedby', [29]), relation('controls', [40])] }),
    node(26, 'none', { ignored: true }),
  ];
  assert.deepEqual(candidates(nodes), { fields: [], hidden: [26, 29] });
});

test('the memory keeps a frame\'s secret fields for its document only', () => {
  const frames = [{ key: 'main', document: 'L1', nodes: [] }, { key: 'pay', document: 'P1', nodes: [] }];
  let memory = remember({}, frames, [
    { frame: 'main', backendNodeId: 10, reason: 'password' },
    { frame: 'pay', backendNodeId: 5, reason: 'credit-card' },
  ]);
  assert.deepEqual(recall(memory, frames[0]), { 10: 'password' });
  // Next snapshot: the field is type=text now, the core found nothing; the memory holds.
  memory = remember(memory, frames, []);
  assert.deepEqual(recall(memory, frames[0]), { 10: 'password' });
  // A new document in the main frame: its memory is gone, the iframe's stays.
  const next = [{ key: 'main', document: 'L2', nodes: [] }, frames[1]];
  assert.deepEqual(recall(memory, next[0]), {});
  memory = remember(memory, next, [{ frame: 'main', backendNodeId: 10, reason: 'one-time-code' }]);
  assert.deepEqual(memory, { main: { doc: 'L2', fields: { 10: 'one-time-code' } }, pay: { doc: 'P1', fields: { 5: 'credit-card' } } });
  // Survives storage as plain JSON (chrome.storage.session).
  assert.deepEqual(JSON.parse(JSON.stringify(memory)), memory);
});

test('a frame not read this time keeps its memory; the memory is bounded', () => {
  const a = { key: 'a', document: 'A', nodes: [] };
  let memory = remember({}, [a], [{ frame: 'a', backendNodeId: 1, reason: 'password' }]);
  memory = remember(memory, [{ key: 'b', document: 'B', nodes: [] }], []);
  assert.deepEqual(recall(memory, a), { 1: 'password' });
  const many = Array.from({ length: MEMORY_FIELDS + 10 }, (_, i) => ({ frame: 'a', backendNodeId: i, reason: 'password' }));
  assert.equal(Object.keys(recall(remember({}, [a], many), a)).length, MEMORY_FIELDS);
  const frames = Array.from({ length: MEMORY_FRAMES + 10 }, (_, i) => ({ key: `f${i}`, document: 'x', nodes: [] }));
  let wide = {};
  for (const f of frames) wide = remember(wide, [f], [{ frame: f.key, backendNodeId: 1, reason: 'password' }]);
  assert.ok(Object.keys(wide).length <= MEMORY_FRAMES + 1);
});

test('the memory holds node ids and reasons only', () => {
  const memory = remember({}, [{ key: 'main', document: 'L', nodes: [] }], [{ frame: 'main', backendNodeId: 7, reason: 'password', value: 'hunter2' }]);
  assert.ok(!JSON.stringify(memory).includes('hunter2'));
});
