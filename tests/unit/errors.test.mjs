// How Chrome's failures become stable error codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AxError, fromChrome, toPayload } from '../../extension/worker/errors.js';

test('CDP errors (JSON strings) map to stable codes', () => {
  const cdp = (message) => new Error(JSON.stringify({ code: -32000, message }));
  assert.equal(fromChrome(cdp('No node with given id found')).code, 'stale_ref');
  assert.equal(fromChrome(cdp('Node with given id does not belong to the document')).code, 'stale_ref');
  assert.equal(fromChrome(cdp('Could not compute box model.')).code, 'not_visible');
  assert.equal(fromChrome(new Error('Debugger is not attached to the tab with id: 7.')).code, 'detached');
  assert.equal(fromChrome(new Error('Another debugger is already attached to the tab with id: 7.')).code, 'debugger_busy');
  assert.equal(fromChrome(new Error('Cannot access a chrome:// URL')).code, 'restricted_page');
  assert.equal(fromChrome(new Error('No tab with given id 9.')).code, 'no_tab');
  const other = fromChrome(cdp('Something new'), 'DOM.focus');
  assert.deepEqual([other.code, other.message], ['cdp_error', 'DOM.focus: Something new']);
});

test('payloads keep codes from the core and wrap anything else', () => {
  assert.deepEqual(toPayload(new AxError('bad_request', 'x')), { code: 'bad_request', message: 'x' });
  const wasm = Object.assign(new Error('A7 is stale'), { code: 'stale_ref' });
  assert.deepEqual(toPayload(wasm), { code: 'stale_ref', message: 'A7 is stale' });
  assert.deepEqual(toPayload('boom'), { code: 'internal', message: 'boom' });
});
