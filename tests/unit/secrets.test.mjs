// Pure logic of the extension's secret scan: which DOM attributes make a
// field secret. (Whether it works on real pages is the end-to-end tests' job.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reasonFor } from '../../extension/worker/secrets.js';

test('password inputs and password autocomplete tokens', () => {
  assert.equal(reasonFor('password', '', ''), 'password');
  assert.equal(reasonFor('PASSWORD', '', ''), 'password');
  assert.equal(reasonFor('password', 'new-password', ''), 'new-password');
  assert.equal(reasonFor('text', 'section-login current-password', ''), 'current-password');
});

test('card data and one-time codes, whatever the input type', () => {
  assert.equal(reasonFor('text', 'cc-number', ''), 'credit-card');
  assert.equal(reasonFor('tel', 'billing cc-csc', ''), 'credit-card');
  assert.equal(reasonFor('text', 'cc-exp-month', ''), 'credit-card');
  assert.equal(reasonFor('text', 'one-time-code', ''), 'one-time-code');
  assert.equal(reasonFor('text', '', 'cvv'), 'credit-card');
  assert.equal(reasonFor('text', '', 'card-number'), 'credit-card');
});

test('ordinary fields are not secret', () => {
  assert.equal(reasonFor('text', 'cc-name', ''), null);
  assert.equal(reasonFor('email', 'email', 'email'), null);
  assert.equal(reasonFor('search', '', 'q'), null);
  assert.equal(reasonFor('text', '', 'discovery'), null);
});
