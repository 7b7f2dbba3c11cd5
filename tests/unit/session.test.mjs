// The per-tab record: what is saved, what is left out when a tab would take
// more than its share of storage, and what a lost table answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TabSession, TAB_RECORD_LIMIT } from '../../extension/worker/session.js';

/** A ref table whose export is `size` characters. */
const table = (size) => ({ exportRefs: () => 'r'.repeat(size), reset() {}, free() {} });

test('a restored session keeps what was saved, and a record from another version is ignored', () => {
  const saved = { v: 2, attached: true, oopifs: [['S1', { targetId: 'T', url: 'u' }]], frameSessions: { F: 'S1' }, scopes: { panel: '[]' }, lost: ['web x'] };
  const s = new TabSession(4, saved);
  assert.deepEqual([s.attached, s.live, [...s.oopifs.keys()], s.frameSessions, s.announce], [true, false, ['S1'], { F: 'S1' }, false]);
  assert.deepEqual(s.savedRefs, { panel: '[]' });
  assert.equal(new TabSession(4, { v: 2, attached: true }).announce, true, 'attached without a list of frame sessions: announce them again');
  const old = new TabSession(4, { refs: '[]', frameSessions: { F: null } });
  assert.deepEqual([old.attached, old.frameSessions, old.savedRefs], [false, {}, {}]);
});

test('a tab over its storage share keeps its largest tables in memory only, marked lost', () => {
  const s = new TabSession(1);
  s.scopes.set('panel', /** @type {any} */ (table(TAB_RECORD_LIMIT - 1000)));
  s.scopes.set('web http://a', /** @type {any} */ (table(5000)));
  s.scopes.set('web http://b', /** @type {any} */ (table(100)));
  const r = s.record();
  assert.deepEqual(Object.keys(r.scopes).sort(), ['web http://a', 'web http://b']);
  assert.deepEqual(r.lost, ['panel']);
  assert.ok(JSON.stringify(r).length <= TAB_RECORD_LIMIT);
  const small = new TabSession(2);
  small.scopes.set('panel', /** @type {any} */ (table(10)));
  assert.deepEqual(small.record().lost, []);
});

test('a lost table answers storage_full until a snapshot starts it afresh', () => {
  const s = new TabSession(3, { v: 2, lost: ['panel'] });
  s.scopes.set('panel', /** @type {any} */ (table(1)));
  assert.throws(() => s.refs('panel'), { code: 'storage_full', message: /take a new snapshot/ });
  assert.equal(s.refs('panel', { snapshot: true }), s.scopes.get('panel'));
  assert.doesNotThrow(() => s.refs('panel'));
});

test('exports are cached until a snapshot changes the table', () => {
  const s = new TabSession(5);
  let exports = 0;
  s.scopes.set('panel', /** @type {any} */ ({ exportRefs: () => { exports++; return '[]'; } }));
  s.record();
  s.record();
  assert.equal(exports, 1, 'a frame event saves without exporting again');
  s.refs('panel', { snapshot: true });
  s.record();
  assert.equal(exports, 2);
});
