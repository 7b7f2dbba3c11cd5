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

// Fingerprints of typed values: the page's code (typed.js) makes what the core matches.
import { readFileSync } from 'node:fs';
import { initSync } from '../../extension/pkg/axsnap_wasm.js';
import { typedKit, learn, typedFor, scrubAnswer, newMemory, MAX_PRINTS } from '../../extension/worker/typed.js';

/** The key 00..0f of the SipHash paper, as the core's tests read it. */
const SALT = '07060504030201000f0e0d0c0b0a0908';

test('fingerprints are the core\'s, value for value (crates/axsnap-core/src/secrets/typed.rs)', () => {
  const kit = typedKit();
  assert.deepEqual(kit.prints('  Hunter2 ', SALT), ['t7.bc340a75206ba291']);
  assert.deepEqual(kit.prints('5500 0000 0000 0004', SALT), ['t19.e6db2c213f9f25ff', 'd16.0d69de6ea70bfda9']);
  assert.equal(kit.prints('1234', SALT).length, 2);
  assert.deepEqual(kit.prints('abc', SALT), []);
  assert.deepEqual(kit.prints('x'.repeat(257), SALT), []);
  assert.equal(kit.normalise(' A\u200Bb\n\t c '), 'ab c');
  assert.notDeepEqual(kit.prints('hunter2', 'ff'.repeat(16)), kit.prints('hunter2', SALT));
});

test('the memory keeps a document\'s prints and the next one\'s, bounded', () => {
  const m = newMemory();
  assert.match(m.salt, /^[0-9a-f]{32}$/);
  assert.notEqual(newMemory().salt, m.salt);
  assert.equal(typedFor(m), undefined);
  learn(m, 'doc1', ['t7.a']);
  learn(m, undefined, ['t7.a', 't8.b']);
  assert.deepEqual(typedFor(m), { salt: m.salt, prints: ['t7.a', 't8.b'] });
  learn(m, 'doc2', ['t9.c']);
  assert.deepEqual(typedFor(m).prints, ['t9.c', 't7.a', 't8.b'], 'a form sent to a new document: the one before still counts');
  learn(m, 'doc2', []);
  assert.deepEqual(typedFor(m).prints, ['t9.c', 't7.a', 't8.b'], 'the same document keeps them all');
  learn(m, 'doc3', []);
  assert.deepEqual(typedFor(m).prints, ['t9.c'], 'two documents on, the first is forgotten');
  learn(m, 'doc4', []);
  assert.deepEqual(typedFor(m).prints, ['t9.c'], 'a document left with nothing typed (a redirect) keeps the one before');
  learn(m, undefined, Array.from({ length: MAX_PRINTS + 5 }, (_, i) => `t5.${i}`));
  assert.equal(m.prints.length, MAX_PRINTS);
});

test('every string of an answer loses what was typed, by every tab\'s prints', () => {
  initSync({ module: readFileSync(new URL('../../extension/pkg/axsnap_wasm_bg.wasm', import.meta.url)) });
  const kit = typedKit();
  const a = { salt: SALT, doc: 'd', prints: kit.prints('hunter2-CNRY', SALT), before: [] };
  const b = { ...newMemory(), doc: 'd' };
  b.prints = kit.prints('5500 0000 0000 0004', b.salt);
  const answer = { ok: false, error: { code: 'dialog_open', message: 'a alert dialog is open: "Wrong password: Hunter2-cnry"', dialog: { message: 'Card 5500-0000-0000-0004' } }, tabs: [{ title: 'x hunter2-CNRY' }], n: 3 };
  const out = scrubAnswer(answer, [a, b]);
  assert.equal(out.error.message, 'a alert dialog is open: "Wrong password: [secret]"');
  assert.equal(out.error.dialog.message, 'Card [secret]');
  assert.equal(out.tabs[0].title, 'x [secret]');
  assert.equal(out.n, 3);
  assert.equal(scrubAnswer('https://x.test/?pw=hunter2-CNRY', [a]), 'https://x.test/?pw=[secret]');
  assert.equal(scrubAnswer('nothing', []), 'nothing');
});
