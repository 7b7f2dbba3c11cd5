// The splice of incremental fetching (extension/worker/incremental.js): fresh
// nodes replace the kept ones of the same id, what the root no longer reaches
// goes, and a tree that is not whole is refused (the worker then reads it all).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { keep, splice, asFull } from '../../extension/worker/incremental.js';

const node = (nodeId, parentId, childIds = [], extra = {}) => ({ nodeId, ignored: false, role: { type: 'role', value: 'generic' }, ...(parentId ? { parentId } : {}), childIds, backendDOMNodeId: Number(nodeId), ...extra });
const page = () => keep('F', 'D', 't', [node('1', undefined, ['2', '3']), node('2', '1', ['4']), node('3', '1'), node('4', '2')]);
const ids = (r) => r.nodes.map((n) => n.nodeId);

test('a changed node replaces the kept one; the rest stays in its order', () => {
  const r = splice(page(), [node('4', '2', [], { name: { type: 'computedString', value: 'new' } })]);
  assert.deepEqual(ids(r), ['1', '2', '3', '4']);
  assert.equal(r.map.get('4').name.value, 'new');
});

test('a removed subtree goes, an added one comes after its sibling', () => {
  const r = splice(page(), [node('1', undefined, ['3', '5']), node('5', '1', ['6']), node('6', '5')]);
  assert.deepEqual(ids(r), ['1', '3', '5', '6']);
});

test('a child the updates do not hold, a child claimed by another parent, or no root: not whole', () => {
  assert.equal(splice(page(), [node('3', '1', ['9'])]), null);
  assert.equal(splice(page(), [node('3', '1', ['4'])]), null);
  const k = page();
  k.nodes.delete('1');
  assert.equal(splice(k, []), null);
});

test('an ignored node is said as getFullAXTree says it', () => {
  const n = asFull(node('7', '1', ['8'], { ignored: true, ignoredReasons: [], role: { type: 'role', value: 'rowgroup' }, name: { type: 'computedString', value: '' } }));
  assert.deepEqual(Object.keys(n), ['nodeId', 'ignored', 'ignoredReasons', 'role', 'chromeRole', 'parentId', 'childIds', 'backendDOMNodeId']);
  assert.equal(n.role.value, 'none');
});
