// The access policy, exhaustively: who a sender is, which commands, tabs and
// frames each caller reaches, which pages are off limits, which URLs may be
// opened. (That the worker applies it is the end-to-end tests' job.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { code } from './error-code.mjs';
import { callerFrom, checkCommand, mayReachTab, targetTab, visibleFrames, refScope, restrictedReason, navigableUrl, seesTopPage, tabAsSeenBy } from '../../extension/worker/policy.js';
import { COMMANDS, TAB_ACTIONS } from '../../protocol/protocol.js';

const EXT = 'chrome-extension://igfmikjflpmjjplejblhobglmclempkh';
const PAGE = 'http://127.0.0.1:4000';
const panel = { kind: 'panel' };
const web = (o = {}) => ({ kind: 'web', origin: PAGE, tabId: 7, frameId: 0, url: `${PAGE}/app.html`, grant: { access: 'always', tabs: [], shared: [] }, ...o });
const agent = { kind: 'agent', id: 'claude', tabs: [3, 4] };

test('callers come from Chrome\'s sender only', () => {
  assert.deepEqual(callerFrom({ id: 'x', origin: EXT, url: `${EXT}/extension/panel/sidepanel.html`, tab: { id: 3 } }, { external: false, extensionOrigin: EXT }), panel);
  assert.deepEqual(callerFrom({ origin: PAGE, url: `${PAGE}/a`, tab: { id: 9 }, frameId: 0 }, { external: true, extensionOrigin: EXT }),
    { kind: 'web', origin: PAGE, tabId: 9, frameId: 0, url: `${PAGE}/a` });
  // A page claiming to be the extension through onMessageExternal is still a web page.
  assert.equal(callerFrom({ origin: EXT, url: `${EXT}/x`, tab: { id: 1 }, frameId: 0 }, { external: true, extensionOrigin: EXT }).kind, 'web');
  // A content script (onMessage from a page) is the page's origin, not the panel.
  assert.deepEqual(callerFrom({ origin: 'https://a.test', url: 'https://a.test/', tab: { id: 2 }, frameId: 5 }, { external: false, extensionOrigin: EXT }),
    { kind: 'web', origin: 'https://a.test', tabId: 2, frameId: 5, url: 'https://a.test/' });
  // Old Chrome without sender.origin: from the URL; no frame id: not the top frame; no tab: no tab.
  const old = callerFrom({ url: 'http://localhost:81/p?q', tab: undefined }, { external: true, extensionOrigin: EXT });
  assert.deepEqual(old, { kind: 'web', origin: 'http://localhost:81', tabId: undefined, frameId: -1, url: 'http://localhost:81/p?q' });
  assert.equal(callerFrom({}, { external: true, extensionOrigin: EXT }).origin, 'null');
  assert.equal(callerFrom(undefined, { external: false, extensionOrigin: EXT }).kind, 'web');
});

test('commands: the panel and agents use all; a web page snapshots, acts, resolves, resets, lists, waits and watches', () => {
  const requests = [];
  for (const cmd of Object.keys(COMMANDS)) {
    if (cmd === 'tabs') for (const action of Object.keys(TAB_ACTIONS)) requests.push({ cmd, action });
    else requests.push({ cmd });
  }
  const webAllowed = ['hello', 'ping', 'snapshot', 'act', 'resolve', 'reset', 'tabs list', 'wait_for', 'watch', 'unwatch'];
  for (const req of requests) {
    if (req.cmd === 'act') req.ref = 'A1';
    const name = req.action ? `${req.cmd} ${req.action}` : req.cmd;
    assert.equal(code(() => checkCommand(panel, req)), 'ok', name);
    assert.equal(code(() => checkCommand(agent, req)), 'ok', name);
    assert.equal(code(() => checkCommand(web(), req)), webAllowed.includes(name) ? 'ok' : 'forbidden', name);
    assert.equal(code(() => checkCommand(web({ frameId: 3 }), req)), webAllowed.includes(name) ? 'ok' : 'forbidden', name);
  }
  assert.equal(code(() => checkCommand(web(), { cmd: 'tabs' })), 'ok', 'tabs without action lists');
  for (const action of ['press', 'scroll']) {
    assert.equal(code(() => checkCommand(web(), { cmd: 'act', action })), 'forbidden', `${action} without a ref could reach another origin's frame`);
    assert.equal(code(() => checkCommand(web(), { cmd: 'act', action, ref: 'A1' })), 'ok');
    assert.equal(code(() => checkCommand(panel, { cmd: 'act', action })), 'ok');
  }
  assert.equal(code(() => checkCommand(web({ tabId: undefined }), { cmd: 'snapshot' })), 'forbidden', 'no tab, nothing');
  assert.equal(code(() => checkCommand(web({ tabId: undefined }), { cmd: 'ping' })), 'ok');
  for (const origin of ['null', '', 'data://']) {
    assert.equal(code(() => checkCommand(web({ origin }), { cmd: 'snapshot' })), 'forbidden', `opaque ${origin}`);
  }
  assert.equal(code(() => checkCommand({ kind: 'martian' }, { cmd: 'ping' })), 'forbidden');
});

test('an agent closes only the tabs it opened; the ones the person shared stay theirs', () => {
  const a = { ...agent, owned: [3] };
  assert.equal(code(() => checkCommand(a, { cmd: 'tabs', action: 'close', tabId: 3 })), 'ok');
  assert.equal(code(() => checkCommand(a, { cmd: 'tabs', action: 'close', tabId: 4 })), 'forbidden');
  assert.equal(code(() => checkCommand(agent, { cmd: 'tabs', action: 'close', tabId: 3 })), 'forbidden', 'nothing owned, nothing closed');
  assert.equal(code(() => checkCommand(a, { cmd: 'navigate', tabId: 4, url: 'https://example.org/' })), 'ok', 'it works in a shared tab');
  assert.equal(code(() => checkCommand(a, { cmd: 'tabs', action: 'switch', tabId: 4 })), 'ok');
});

test('tabs: the panel reaches all, a web page its own, an agent the ones it was given', () => {
  for (const t of [0, 3, 7, 99]) {
    assert.equal(mayReachTab(panel, t), true);
    assert.equal(mayReachTab(web(), t), t === 7);
    assert.equal(mayReachTab(agent, t), t === 3 || t === 4);
    assert.equal(mayReachTab({ kind: 'martian' }, t), false);
  }
  assert.equal(targetTab(panel, undefined), 'active');
  assert.equal(targetTab(panel, 12), 12);
  assert.equal(targetTab(web(), undefined), 7, 'a web page defaults to its own tab');
  assert.equal(targetTab(web(), 7), 7);
  assert.equal(code(() => targetTab(web(), 8)), 'forbidden');
  assert.equal(code(() => targetTab(web({ tabId: undefined }), undefined)), 'forbidden');
  assert.equal(targetTab(agent, 4), 4);
  assert.equal(code(() => targetTab(agent, 5)), 'forbidden');
  assert.equal(code(() => targetTab(agent, undefined)), 'forbidden', 'an agent names its tab');
});

test('frames: a web page sees its own origin\'s frames; a subframe never sees the top page', () => {
  // top 127.0.0.1 ─┬─ same-origin frame S ── cross-origin grandchild X2
  //                ├─ cross-origin frame X ── same-origin (to top) grandchild S2
  //                └─ sandboxed frame N (opaque)
  const frames = [
    { frameId: 'T', origin: PAGE }, { frameId: 'S', parentId: 'T', origin: PAGE }, { frameId: 'X2', parentId: 'S', origin: 'http://localhost:4000' },
    { frameId: 'X', parentId: 'T', origin: 'http://localhost:4000' }, { frameId: 'S2', parentId: 'X', origin: PAGE },
    { frameId: 'N', parentId: 'T', origin: 'null' },
  ];
  const sorted = (s) => (s === null ? null : [...s].sort());
  assert.equal(visibleFrames(panel, frames), null, 'the panel sees every frame');
  assert.equal(visibleFrames(agent, frames), null);
  assert.deepEqual(sorted(visibleFrames(web(), frames)), ['S', 'S2', 'T'], 'top page: its origin\'s frames, never the cross-origin ones');
  assert.deepEqual(sorted(visibleFrames(web({ frameId: 4 }), frames)), ['S', 'S2'], 'a same-origin subframe: not the top page');
  assert.deepEqual(sorted(visibleFrames(web({ frameId: 2, origin: 'http://localhost:4000' }), frames)), ['X', 'X2'], 'an embedded other site: its own frames only');
  assert.deepEqual(sorted(visibleFrames(web({ frameId: 0, origin: 'http://localhost:4000' }), frames)), [], 'the page changed origin since it asked: nothing');
  assert.deepEqual(sorted(visibleFrames(web({ frameId: 5, origin: 'null' }), frames)), [], 'an opaque origin sees nothing, not even other opaque frames');
  assert.deepEqual(sorted(visibleFrames(web({ frameId: -1 }), frames)), ['S', 'S2'], 'an unknown frame id is not the top');
  assert.deepEqual(sorted(visibleFrames(web(), [{ frameId: 'T', origin: PAGE }, { frameId: 'P', parentId: 'T', origin: 'http://127.0.0.1:4001' }])), ['T'], 'another port is another origin');
  // The person shares a tab with the page's origin, its own tab included: seen whole, other origins' frames too.
  const sharing = (o) => web({ grant: { access: 'always', tabs: [], shared: [7, 9] }, ...o });
  assert.equal(visibleFrames(sharing(), frames, 7), null, 'its own tab, shared: whole');
  assert.equal(visibleFrames(sharing(), frames, 9), null, 'another tab, shared: whole');
  assert.deepEqual(sorted(visibleFrames(web(), frames, 7)), ['S', 'S2', 'T'], 'its own tab, not shared: its own origin only');
  assert.deepEqual(sorted(visibleFrames(sharing({ origin: 'http://localhost:4000', grant: { access: 'always', tabs: [], shared: [] } }), frames, 7)), [], 'another origin\'s grant is not shared');
  assert.equal(mayReachTab(sharing(), 9), true);
  assert.equal(mayReachTab(sharing({ grant: { access: 'denied', tabs: [], shared: [9] } }), 9), false, 'a denied site reaches nothing, shared or not');
});

test('the top page\'s URL and title: only the top frame, the panel, agents, and a tab the person shared with the site', () => {
  const tab = { tabId: 7, windowId: 1, title: 'Your bank', url: 'https://bank.example/account?id=42', active: true };
  assert.equal(seesTopPage(panel, 7), true);
  assert.equal(seesTopPage(agent, 3), true);
  assert.equal(seesTopPage(web(), 7), true);
  assert.equal(seesTopPage(web({ frameId: 3 }), 7), false, 'an embedded frame');
  assert.equal(seesTopPage(web({ frameId: -1 }), 7), false, 'an unknown frame is not the top');
  assert.equal(seesTopPage(web({ frameId: 3, grant: { access: 'always', tabs: [], shared: [7] } }), 7), true, 'its tab, shared whole');
  assert.deepEqual(tabAsSeenBy(web(), tab), tab);
  assert.deepEqual(tabAsSeenBy(web({ frameId: 3, url: `${PAGE}/widget.html` }), tab), { ...tab, title: '', url: `${PAGE}/widget.html` }, 'its own frame\'s URL, no title');
  assert.deepEqual(tabAsSeenBy(panel, tab), tab);
});

test('ref scopes keep callers apart', () => {
  const scopes = [refScope(panel), refScope(agent), refScope({ ...agent, id: 'other' }), refScope(web()), refScope(web({ frameId: 2 })), refScope(web({ origin: 'http://localhost:1' }))];
  assert.equal(new Set(scopes).size, scopes.length);
  assert.equal(refScope(panel), 'panel', 'the panel\'s refs are where they always were');
  assert.equal(refScope(web({ tabId: 8 })), refScope(web()), 'one origin, one scope per tab');
});

test('restricted pages are known from the URL, before attaching', () => {
  const restricted = ['chrome://settings', 'chrome://newtab/', 'devtools://devtools/bundled/inspector.html', 'view-source:http://127.0.0.1:4000/',
    'chrome-extension://abcdefghijklmnopabcdefghijklmnop/page.html', 'chrome-untrusted://print/', 'chrome-search://local-ntp/', 'about:settings',
    'https://chromewebstore.google.com/detail/x', 'https://chrome.google.com/webstore/category', 'chrome-error://chromewebdata/', 'edge://settings'];
  for (const url of restricted) assert.equal(typeof restrictedReason(url, EXT), 'string', url);
  const fine = ['http://127.0.0.1:4000/', 'https://example.com/', 'about:blank', 'about:srcdoc', 'data:text/html,hi', `${EXT}/extension/panel/sidepanel.html`,
    'https://chrome.google.com/search', 'https://chromewebstore.google.com.evil.test/', 'file:///tmp/a.html', undefined, '', 'not a url'];
  for (const url of fine) assert.equal(restrictedReason(url, EXT), null, String(url));
});

test('navigate and open take http and https URLs only', () => {
  assert.equal(navigableUrl('https://example.com'), 'https://example.com/');
  assert.equal(navigableUrl('http://127.0.0.1:4000/a?b#c'), 'http://127.0.0.1:4000/a?b#c');
  for (const url of ['javascript:alert(1)', 'file:///etc/passwd', 'chrome://settings', 'data:text/html,x', 'view-source:https://a.test/', 'about:blank']) {
    assert.equal(code(() => navigableUrl(url)), 'forbidden', url);
  }
  for (const url of ['example.com', '', '//a.test/']) assert.equal(code(() => navigableUrl(url)), 'bad_request', url);
});

test('navigate reads a URL as the snapshot printed it against the tab\'s page', () => {
  const page = 'https://shop.test/a/list?page=1';
  assert.equal(navigableUrl('/docs', page), 'https://shop.test/docs');
  assert.equal(navigableUrl('?page=2', page), 'https://shop.test/a/list?page=2');
  assert.equal(navigableUrl('//other.test/x', page), 'https://other.test/x');
  assert.equal(navigableUrl('https://b.test/', page), 'https://b.test/');
  assert.equal(navigableUrl('#top', page), 'https://shop.test/a/list?page=1#top');
  // Other words are no URL, page or not: reading them as a path would be a guess.
  for (const url of ['not a url', 'example.com', 'b.html']) assert.equal(code(() => navigableUrl(url, page)), 'bad_request', url);
  // A page that is not on the web gives no base, and a relative URL stays an error.
  assert.equal(code(() => navigableUrl('/docs', 'chrome://newtab/')), 'bad_request');
  assert.equal(code(() => navigableUrl('javascript:alert(1)', page)), 'forbidden');
});
