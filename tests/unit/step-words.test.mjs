// Steps in words: what the person reads in the panel instead of refs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { stepWords, askWords } from '../../extension/panel/step-words.js';

const signIn = { A2: { role: 'button', name: 'Sign in' } };

test('actions on an element say what they did to it, by its name', () => {
  assert.equal(stepWords({ name: 'act', input: { action: 'click', ref: 'A2' }, targets: signIn }, true), 'Clicked “Sign in”');
  assert.equal(stepWords({ name: 'act', input: { action: 'click', ref: 'A2' }, targets: signIn }, null), 'Clicking “Sign in”…');
  assert.equal(stepWords({ name: 'act', input: { action: 'click', ref: 'A2' }, targets: signIn }, false), 'Not done: clicking “Sign in”');
  assert.equal(stepWords({ name: 'act', input: { action: 'fill', ref: 'A1', value: 'ada@example.com' }, targets: { A1: { role: 'textbox', name: 'Email' } } }, true), 'Typed “ada@example.com” into “Email”');
  assert.equal(stepWords({ name: 'act', input: { action: 'click', ref: 'A9' }, targets: { A9: { role: 'button', name: '' } } }, true), 'Clicked the button');
  assert.equal(stepWords({ name: 'act', input: { action: 'click', ref: 'A9' } }, true), 'Clicked element A9');
  assert.equal(stepWords({ name: 'act', input: { action: 'scroll', value: 'down' } }, true), 'Scrolled down');
});

test('a secret asked of the person says which, never a value', () => {
  assert.equal(stepWords({ name: 'ask_user', input: { question: 'x', secret_ref: 'A3' }, targets: { A3: { role: 'textbox', name: 'Password', secret: 'current-password' } } }, true), 'Asked you for the password of “Password”');
  assert.equal(stepWords({ name: 'ask_user', input: { question: 'x', secret_ref: 'A4' }, targets: { A4: { role: 'textbox', name: 'Card', secret: 'card-number' } } }, null), 'Asking you for the card number of “Card”…');
});

test('reading, going and waiting', () => {
  assert.equal(stepWords({ name: 'snapshot', input: {} }, true), 'Read the page');
  assert.equal(stepWords({ name: 'snapshot', input: { diff: true } }, true), 'Looked at what changed');
  assert.equal(stepWords({ name: 'navigate', input: { url: 'https://example.com/a' } }, true), 'Went to example.com/a');
  assert.equal(stepWords({ name: 'wait_for', input: { text: 'Price:' } }, true), 'Saw “Price:”');
  assert.equal(stepWords({ name: 'back', input: {} }, true), 'Went back');
  assert.equal(stepWords({ name: 'screenshot', input: {} }, true), 'Took a screenshot of the page');
  assert.equal(stepWords({ name: 'screenshot', input: { ref: 'A2' }, targets: signIn }, null), 'Taking a screenshot of “Sign in”…');
  assert.equal(askWords({ name: 'screenshot', input: { tab: 7 } }), 'Take a screenshot of the page of tab 7');
});

test('a step the person is asked to allow reads as a request, by names, never refs', () => {
  assert.equal(askWords({ name: 'act', input: { action: 'click', ref: 'A2' }, targets: signIn }), 'Click “Sign in”');
  assert.equal(askWords({ name: 'act', input: { action: 'drag', ref: 'A2', to: 'A5' }, targets: { ...signIn, A5: { role: 'listitem', name: 'Done' } } }), 'Drag “Sign in” onto “Done”');
  assert.equal(askWords({ name: 'snapshot', input: { tab: 7 } }), 'Read the page of tab 7');
  assert.equal(askWords({ name: 'navigate', input: { url: 'https://shop.test/pay' } }), 'Go to shop.test/pay');
  assert.equal(askWords({ name: 'tabs', input: { action: 'open', url: 'https://shop.test/' } }), 'Open shop.test/ in a new tab');
});
