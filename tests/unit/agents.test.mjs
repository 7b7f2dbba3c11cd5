// The desktop-agents parts that need no browser: reading the setting, the
// panel's step lines and the bounded wait.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readSetting, DEFAULT_URL } from '../../extension/worker/agent_setting.js';
import { stepLine } from '../../extension/worker/steps.js';
import { waitFor } from '../../extension/worker/wait.js';

test('the setting: a ws:// URL on this computer, the default port when none is given', () => {
  assert.deepEqual(readSetting({ enabled: true, token: ' t0ken ' }), { ok: true, enabled: true, url: 'ws://127.0.0.1', token: 't0ken', port: 17373, own: false });
  assert.equal(DEFAULT_URL, 'ws://127.0.0.1:17373');
  assert.deepEqual(readSetting({ url: 'ws://localhost:9000' }), { ok: true, enabled: false, url: 'ws://localhost', token: '', port: 9000, own: false });
  assert.equal(readSetting({ url: 'ws://[::1]:9000', enabled: 'yes' }).enabled, false, 'only true turns it on');
  assert.equal(readSetting(undefined).ok, true);
  for (const url of ['ws://example.com:17373', 'wss://127.0.0.1:17373', 'http://127.0.0.1:17373', 'ws://127.0.0.2:1', 'ws://192.168.1.5:17373']) {
    const s = readSetting({ url, enabled: true, token: 'x' });
    assert.equal(s.ok, false, url);
    assert.match(/** @type {any} */ (s).why, /only to ws:\/\/ on this computer/);
  }
  assert.match(/** @type {any} */ (readSetting({ url: 'not a url' })).why, /is not a URL/);
});

test('step lines say what an agent did in a few words, never what it typed', () => {
  assert.equal(stepLine({ cmd: 'act', action: 'click', ref: 'A12' }, 'Sign in'), 'click A12 "Sign in"');
  assert.equal(stepLine({ cmd: 'act', action: 'fill', ref: 'A3', value: 'secret words' }, 'Email'), 'fill A3 "Email"');
  assert.equal(stepLine({ cmd: 'act', action: 'press', value: 'Enter' }), 'press Enter');
  assert.equal(stepLine({ cmd: 'act', action: 'drag', ref: 'A5', to: 'A9' }, 'Write report'), 'drag A5 "Write report" onto A9');
  assert.equal(stepLine({ cmd: 'act', action: 'click', ref: 'A1' }, 'x'.repeat(80)), `click A1 "${'x'.repeat(60)}"`);
  assert.equal(stepLine({ cmd: 'tabs', action: 'close', tabId: 4 }), 'tabs close 4');
  assert.equal(stepLine({ cmd: 'snapshot', options: { mode: 'interactive' } }), 'snapshot (interactive)');
  assert.equal(stepLine({ cmd: 'navigate', url: 'https://example.org/' }), 'navigate https://example.org/');
  assert.equal(stepLine({ cmd: 'tabs', action: 'open', url: 'https://example.org/' }), 'tabs open https://example.org/');
  assert.equal(stepLine({ cmd: 'tabs' }), 'tabs list');
  assert.equal(stepLine({ cmd: 'wait_for', text: 'Saved', url: '/done' }), 'wait for "Saved", URL /done');
  assert.equal(stepLine({ cmd: 'wait_for', refGone: 'A4' }), 'wait for A4 to go');
  assert.equal(stepLine(null), 'malformed request');
});

const pages = (...texts) => {
  let i = 0;
  let looks = 0;
  return { text: async () => texts[Math.min(i++, texts.length - 1)], url: async () => 'https://example.org/cart', gone: async () => ++looks > 2 };
};

test('wait_for: done as soon as the page shows it, bounded when it never does', async () => {
  assert.ok((await waitFor({ text: 'Saved' }, pages('page "a"', 'page "a"\n Saved'))).waitedMs < 2000);
  assert.ok((await waitFor({ textGone: 'Loading' }, pages(' Loading', ' Done'))).waitedMs >= 0);
  assert.ok((await waitFor({ url: '/cart' }, pages(''))).waitedMs < 100);
  await assert.rejects(waitFor({ text: 'never', timeout: 400 }, pages('page')), { code: 'timeout', message: /after 0\.4 s the text "never" has not appeared/ });
  assert.ok((await waitFor({ refGone: 'A4' }, pages(''))).waitedMs >= 400, 'polled until the element went');
  await assert.rejects(waitFor({ refGone: 'A4', url: '/elsewhere', timeout: 300 }, pages('')), { code: 'timeout', message: /the URL does not contain "\/elsewhere"/ });
  await assert.rejects(waitFor({}, pages('')), { code: 'bad_request' });
  const stop = new AbortController();
  setTimeout(() => stop.abort(new Error('went away')), 100);
  await assert.rejects(waitFor({ text: 'never', timeout: 5000 }, pages('page'), stop.signal), /went away/);
});
