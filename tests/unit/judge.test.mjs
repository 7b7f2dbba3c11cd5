// What an action does, judged from the DOM's facts (extension/worker/judge.js):
// forms sent, links followed and windows opened to sites not allowed are asked
// about, whatever the control's words; the network edge's rule for document requests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { judgeAct, judgeRequest, judgeUrl, opensWindow, askLine } from '../../extension/worker/judge.js';

const PAGE = 'https://shop.test/checkout';
const allowed = ['shop.test'];
const form = (url, method = 'post', target = '') => ({ url, method, target });

test('a click that submits a form to another site is asked about, by the action URL and method', () => {
  const facts = { submit: form('https://evil.test/collect'), form: { ...form('https://evil.test/collect'), secret: false } };
  assert.deepEqual(judgeAct({ action: 'click', facts, pageUrl: PAGE, allowed }),
    { kind: 'form', url: 'https://evil.test/collect', site: 'evil.test', method: 'post' });
  // The same for a drag that starts on it and a check of it (both end in a press and release).
  assert.equal(judgeAct({ action: 'drag', facts, pageUrl: PAGE, allowed })?.kind, 'form');
  // Submitting to the page's own site, or to an allowed one, is not.
  assert.equal(judgeAct({ action: 'click', facts: { submit: form('https://www.shop.test/x') }, pageUrl: PAGE, allowed: [] }), null);
  assert.equal(judgeAct({ action: 'click', facts, pageUrl: PAGE, allowed: ['shop.test', 'evil.test'] }), null);
  // A dialog form closes a dialog: nothing is sent.
  assert.equal(judgeAct({ action: 'click', facts: { submit: form('https://evil.test/', 'dialog') }, pageUrl: PAGE, allowed }), null);
});

test('sites are registrable domains: another user\'s github.io page is another site', () => {
  const facts = { submit: form('https://attacker.github.io/x') };
  assert.equal(judgeAct({ action: 'click', facts, pageUrl: 'https://victim.github.io/', allowed: [] })?.site, 'attacker.github.io');
  assert.equal(judgeAct({ action: 'click', facts: { submit: form('https://a.victim.github.io/x') }, pageUrl: 'https://victim.github.io/', allowed: [] }), null);
});

test('Enter in a field submits what implicit submission sends; on a button or a link it activates them', () => {
  const enter = { enter: form('https://evil.test/search', 'get'), form: { ...form('https://evil.test/search', 'get'), secret: false } };
  assert.deepEqual(judgeAct({ action: 'press', value: 'Enter', facts: enter, pageUrl: PAGE, allowed }),
    { kind: 'form', url: 'https://evil.test/search', site: 'evil.test', method: 'get' });
  assert.equal(judgeAct({ action: 'type', value: 'hello\n', facts: enter, pageUrl: PAGE, allowed })?.kind, 'form');
  assert.equal(judgeAct({ action: 'type', value: 'hello', facts: enter, pageUrl: PAGE, allowed }), null);
  assert.equal(judgeAct({ action: 'press', value: 'Tab', facts: enter, pageUrl: PAGE, allowed }), null);
  assert.equal(judgeAct({ action: 'fill', value: 'x', facts: enter, pageUrl: PAGE, allowed }), null);
  const link = { link: { url: 'https://evil.test/', target: '' } };
  assert.equal(judgeAct({ action: 'press', value: 'Enter', facts: link, pageUrl: PAGE, allowed })?.kind, 'navigation');
  assert.equal(judgeAct({ action: 'press', value: 'Space', facts: link, pageUrl: PAGE, allowed }), null, 'Space does not follow a link');
  assert.equal(judgeAct({ action: 'press', value: 'Space', facts: { submit: form('https://evil.test/') }, pageUrl: PAGE, allowed })?.kind, 'form');
});

test('links are followed, and targets that open a window are popups', () => {
  assert.deepEqual(judgeAct({ action: 'click', facts: { link: { url: 'https://evil.test/a?b=1', target: '' } }, pageUrl: PAGE, allowed }),
    { kind: 'navigation', url: 'https://evil.test/a?b=1', site: 'evil.test', method: 'get' });
  assert.equal(judgeAct({ action: 'click', facts: { link: { url: 'https://evil.test/', target: '_blank' } }, pageUrl: PAGE, allowed })?.kind, 'popup');
  assert.equal(judgeAct({ action: 'click', facts: { submit: form('https://evil.test/', 'post', 'other') }, pageUrl: PAGE, allowed })?.kind, 'popup');
  assert.equal(judgeAct({ action: 'click', facts: { link: { url: 'https://evil.test/', target: '_top' } }, pageUrl: PAGE, allowed })?.kind, 'navigation');
  for (const t of ['', '_self', '_parent', '_top', '_TOP']) assert.equal(opensWindow(t), false, t);
  for (const t of ['_blank', 'results']) assert.equal(opensWindow(t), true, t);
  // Schemes that reach no site: nothing to ask.
  for (const url of ['javascript:void(0)', 'mailto:a@evil.test', 'about:blank', 'not a url']) {
    assert.equal(judgeAct({ action: 'click', facts: { link: { url, target: '' } }, pageUrl: PAGE, allowed }), null, url);
  }
  assert.equal(judgeAct({ action: 'click', facts: null, pageUrl: PAGE, allowed }), null);
  assert.equal(judgeAct({ action: 'hover', facts: { link: { url: 'https://evil.test/', target: '' } }, pageUrl: PAGE, allowed }), null);
});

test('the network edge: top-level navigations, forms sent into frames and new windows to other sites are asked about', () => {
  assert.equal(judgeRequest({ url: 'https://evil.test/', method: 'GET', top: true, pageUrl: PAGE, allowed })?.kind, 'navigation');
  assert.equal(judgeRequest({ url: 'https://evil.test/', method: 'POST', top: true, pageUrl: PAGE, allowed })?.kind, 'form');
  assert.equal(judgeRequest({ url: 'https://evil.test/', method: 'POST', top: false, pageUrl: PAGE, allowed })?.kind, 'form');
  // An embed loading in a frame by GET is let through.
  assert.equal(judgeRequest({ url: 'https://video.test/embed', method: 'GET', top: false, pageUrl: PAGE, allowed }), null);
  assert.equal(judgeRequest({ url: 'https://evil.test/', top: true, popup: true, pageUrl: PAGE, allowed })?.kind, 'popup');
  assert.equal(judgeRequest({ url: 'https://shop.test/next', method: 'POST', top: true, pageUrl: PAGE, allowed: [] }), null);
});

test('a URL to judge and the line the person reads', () => {
  const a = judgeUrl('https://evil.test/x', ['shop.test'], 'navigation');
  assert.deepEqual(a, { kind: 'navigation', url: 'https://evil.test/x', site: 'evil.test', method: 'get' });
  assert.equal(askLine(a, 'The co-pilot'), 'The co-pilot wants to go to evil.test: https://evil.test/x');
  assert.equal(askLine({ ...a, kind: 'form', method: 'post' }, 'An agent'), 'An agent wants to send a form (POST) to evil.test: https://evil.test/x');
});
