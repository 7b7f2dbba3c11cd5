// The person's answers to sites, without a browser: what each answer stores,
// what a stored grant allows (policy.js), what ends with a tab, and the
// per-origin rate limit. (The panel's buttons and the worker's use of them
// are tests/e2e/webapps.test.mjs's job.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { code } from './error-code.mjs';
import { grantOf, answered, withoutTab, withPrompt } from '../../extension/worker/grants.js';
import { allowed, checkConsent, commandsFor, mayReachTab, visibleFrames, bridgeServes, bridgeOrigin } from '../../extension/worker/policy.js';
import { patternOf, directlyConnectable, wantedBridges, bridgePlan } from '../../extension/bridge/register.js';
import { RateLimiter } from '../../extension/worker/rate.js';
import { COMMANDS } from '../../protocol/protocol.js';

const APP = 'http://app.test:8080';
const OTHER = 'http://other.test:8080';
const empty = { always: {}, session: {} };
const caller = (grant, o = {}) => ({ kind: 'web', origin: APP, tabId: 5, frameId: 0, url: `${APP}/`, grant, ...o });
const apply = (stores, ...answers) => answers.reduce((s, [origin, a]) => answered(s, origin, a, 1), stores);

test('never asked: consent_required for everything with page data; hello and ping answer', () => {
  const g = grantOf(APP, {}, {});
  assert.deepEqual(g, { access: 'none', tabs: [], shared: [] });
  for (const cmd of ['snapshot', 'act', 'resolve', 'reset', 'tabs']) assert.equal(code(() => checkConsent(caller(g), { cmd })), 'consent_required', cmd);
  for (const cmd of ['hello', 'ping']) assert.equal(code(() => checkConsent(caller(g), { cmd })), 'ok', cmd);
  assert.equal(mayReachTab(caller(g), 5), false, 'not even its own tab');
  assert.deepEqual(commandsFor(caller(g), Object.keys(COMMANDS)), ['hello', 'ping']);
  assert.equal(code(() => checkConsent(caller(undefined), { cmd: 'snapshot' })), 'consent_required', 'no grant read: nothing');
  // Origins are a page's to choose: nothing inherited from Object.prototype counts.
  assert.equal(grantOf('__proto__', {}, {}).access, 'none');
  assert.equal(grantOf('constructor', {}, {}).access, 'none');
});

test('allow once: the tab that asked, until it closes', () => {
  const s = apply(empty, [APP, { kind: 'once', tabId: 5 }]);
  assert.deepEqual(s.always, {});
  const g = grantOf(APP, s.always, s.session);
  assert.deepEqual(g, { access: 'once', tabs: [5], shared: [] });
  assert.equal(allowed(caller(g)), true);
  assert.equal(code(() => checkConsent(caller(g, { tabId: 6 }), { cmd: 'snapshot' })), 'consent_required', 'the same site in another tab asks again');
  assert.equal(grantOf(OTHER, s.always, s.session).access, 'none', 'one origin\'s answer is not another\'s');
  assert.equal(grantOf('http://app.test:8081', s.always, s.session).access, 'none', 'another port is another origin');
  const closed = withoutTab(s.session, 5);
  assert.deepEqual(grantOf(APP, s.always, closed).access, 'none', 'closing the tab ends it');
  assert.deepEqual(closed, {});
  // Allowed once in two tabs: closing one keeps the other.
  const two = apply(s, [APP, { kind: 'once', tabId: 9 }]);
  assert.deepEqual(grantOf(APP, two.always, withoutTab(two.session, 5)).tabs, [9]);
});

test('always: every tab of the site, stored in local storage; deny and revoke win and cut it off', () => {
  const s = apply(empty, [APP, { kind: 'always' }]);
  assert.equal(s.always[APP].access, 'always');
  const g = grantOf(APP, s.always, s.session);
  assert.equal(allowed(caller(g, { tabId: 77 })), true);
  assert.equal(grantOf(APP, s.always, withoutTab(s.session, 5)).access, 'always', 'a closed tab does not end it');
  assert.equal(grantOf(APP, s.always, {}).access, 'always', 'after a restart (session storage gone) it holds');

  const revoked = apply(s, [APP, { kind: 'revoke' }]);
  assert.equal(revoked.always[APP], undefined);
  assert.equal(code(() => checkConsent(caller(grantOf(APP, revoked.always, revoked.session)), { cmd: 'snapshot' })), 'revoked');
  // A stale "always" left in local storage (a write that raced) does not undo a revoke.
  assert.equal(grantOf(APP, s.always, revoked.session).access, 'revoked');
  const denied = apply(empty, [APP, { kind: 'deny' }]);
  assert.equal(code(() => checkConsent(caller(grantOf(APP, denied.always, denied.session)), { cmd: 'act' })), 'denied');
  assert.equal(commandsFor(caller(grantOf(APP, denied.always, denied.session)), Object.keys(COMMANDS)).includes('snapshot'), false);
  const forgotten = apply(revoked, [APP, { kind: 'forget' }]);
  assert.equal(grantOf(APP, forgotten.always, forgotten.session).access, 'none', 'forget: it may ask again');
  assert.equal(withoutTab(denied.session, 5)[APP].access, 'denied', 'a deny outlives the tab');
});

test('shared tabs: reached only while allowed, seen whole; own tab keeps the own-origin frame rule', () => {
  const s = apply(empty, [APP, { kind: 'always' }], [APP, { kind: 'share', tabId: 12 }]);
  const g = grantOf(APP, s.always, s.session);
  assert.deepEqual(g.shared, [12]);
  const c = caller(g);
  assert.equal(mayReachTab(c, 5), true);
  assert.equal(mayReachTab(c, 12), true);
  assert.equal(mayReachTab(c, 13), false);
  const frames = [{ frameId: 'T', origin: OTHER }, { frameId: 'F', parentId: 'T', origin: 'http://x.test' }];
  assert.equal(visibleFrames(c, frames, 12), null, 'a shared tab is seen whole');
  assert.deepEqual([...visibleFrames(c, [{ frameId: 'T', origin: APP }, ...frames.slice(1)], 5)], ['T'], 'its own tab: its own origin only');
  const unshared = apply(s, [APP, { kind: 'unshare', tabId: 12 }]);
  assert.equal(mayReachTab(caller(grantOf(APP, unshared.always, unshared.session)), 12), false);
  const gone = grantOf(APP, s.always, withoutTab(s.session, 12));
  assert.deepEqual(gone.shared, []);
  const revoked = apply(s, [APP, { kind: 'revoke' }]);
  assert.equal(mayReachTab(caller(grantOf(APP, revoked.always, revoked.session)), 12), false, 'revoke ends shares too');
  // A frame of another site inside an allowed page has its own origin, and no grant of its own.
  const framed = caller(grantOf(OTHER, s.always, s.session), { origin: OTHER, frameId: 3 });
  assert.equal(code(() => checkConsent(framed, { cmd: 'snapshot' })), 'consent_required');
});

test('prompts: one per origin, oldest first, in a stable order; a new ask never moves or replaces one waiting', () => {
  let p = [];
  for (let i = 0; i < 30; i++) p = withPrompt(p, { origin: `http://s${i}.test`, tabId: i, url: '', cmd: 'hello', at: i });
  assert.equal(p.length, 20);
  assert.deepEqual(p.map((x) => x.at), Array.from({ length: 20 }, (_, i) => i), 'the oldest stay, in the order they came; the newest wait outside');
  const before = p;
  p = withPrompt(p, { origin: 'http://s5.test', tabId: 1, url: '', cmd: 'snapshot', at: 99 });
  assert.equal(p, before, 'asking again changes nothing: same place, same tab, same words');
  let q = withPrompt([], { origin: APP, tabId: 5, url: '', cmd: 'hello', at: 1 });
  q = withPrompt(q, { origin: OTHER, tabId: 6, url: '', cmd: 'snapshot', at: 2 });
  q = withPrompt(q, { origin: APP, tabId: 7, url: '', cmd: 'snapshot', at: 3 });
  assert.deepEqual(q.map((x) => [x.origin, x.tabId]), [[APP, 5], [OTHER, 6]], 'the first shown stays first; a new ask waits behind it');
});

test('bridges follow the answers: per host while an origin there is answered, never for localhost, persistent only for Always allow', () => {
  const stores = (...answers) => apply(empty, ...answers);
  const wanted = ({ always, session }) => Object.fromEntries([...wantedBridges(always, session)].map(([k, v]) => [k, v.persist]));
  assert.deepEqual(wanted(empty), {});
  assert.deepEqual(wanted(stores([APP, { kind: 'once', tabId: 5 }])), { 'http://app.test/*': false });
  assert.deepEqual(wanted(stores([APP, { kind: 'always' }])), { 'http://app.test/*': true });
  const two = stores([APP, { kind: 'always' }], ['http://app.test:9000', { kind: 'once', tabId: 2 }]);
  assert.deepEqual(wanted(two), { 'http://app.test/*': true }, 'one registration per host');
  assert.deepEqual(wantedBridges(two.always, two.session).get('http://app.test/*').origins, [APP, 'http://app.test:9000'], 'serving both origins');
  assert.deepEqual(wanted(stores([APP, { kind: 'deny' }])), { 'http://app.test/*': false }, 'a denied site hears denied');
  assert.deepEqual(wanted(stores([APP, { kind: 'always' }], [APP, { kind: 'revoke' }])), { 'http://app.test/*': false }, 'a revoked site hears revoked');
  assert.deepEqual(wanted(stores([APP, { kind: 'deny' }], [APP, { kind: 'forget' }])), {}, 'forgotten: no bridge');
  const once = stores([APP, { kind: 'once', tabId: 5 }]);
  assert.deepEqual(wanted({ always: once.always, session: withoutTab(once.session, 5) }), {}, '"Allow once" ended with its tab: no bridge');
  assert.deepEqual(wanted(stores(['http://127.0.0.1:3000', { kind: 'always' }])), {}, 'localhost calls directly');
});

test('a sync of the bridges: registers what is wanted and allowed, drops the rest, injects only where an origin was just answered', () => {
  const HOST = 'http://app.test/*';
  const OLD = 'http://old.test/*';
  const once = apply(empty, [APP, { kind: 'once', tabId: 5 }]);
  const wanted = wantedBridges(once.always, once.session);
  // First sync (or after a worker restart): registered, injected.
  let plan = bridgePlan(wanted, new Map([[OLD, true]]), new Set([HOST]), new Map());
  assert.deepEqual([plan.unregister, plan.register, plan.inject], [[OLD], [{ pattern: HOST, persist: false, replace: false }], [HOST]]);
  // Nothing new: nothing done.
  plan = bridgePlan(wanted, new Map([[HOST, false]]), new Set([HOST]), plan.served);
  assert.deepEqual([plan.unregister, plan.register, plan.inject], [[], [], []]);
  // "Always allow" now: the registration is made again to outlive the browser; no origin is new, no injection.
  const always = apply(once, [APP, { kind: 'always' }]);
  plan = bridgePlan(wantedBridges(always.always, always.session), new Map([[HOST, false]]), new Set([HOST]), plan.served);
  assert.deepEqual([plan.register, plan.inject], [[{ pattern: HOST, persist: true, replace: true }], []]);
  // Another origin on the host answered: its open pages get the bridge; without host access nothing is registered.
  const two = apply(always, ['http://app.test:9000', { kind: 'once', tabId: 2 }]);
  plan = bridgePlan(wantedBridges(two.always, two.session), new Map(), new Set(), plan.served);
  assert.deepEqual([plan.register, plan.inject, [...plan.served.get(HOST)]], [[], [HOST], [APP, 'http://app.test:9000']]);
  // Forgotten: unregistered, and no longer served.
  plan = bridgePlan(new Map(), new Map([[HOST, true]]), new Set([HOST]), plan.served);
  assert.deepEqual([plan.unregister, plan.served.size], [[HOST], 0]);
});

test('the bridge serves only an origin the person answered, while the answer lasts; another port is another origin', () => {
  const g = (stores, origin = APP) => grantOf(origin, stores.always, stores.session);
  const once = apply(empty, [APP, { kind: 'once', tabId: 5 }]);
  assert.equal(bridgeServes(caller(g(once))), true);
  assert.equal(bridgeServes(caller(g(once), { tabId: 6 })), true, 'another tab of the site: served, to ask for that tab');
  assert.equal(bridgeServes(caller(grantOf(APP, once.always, withoutTab(once.session, 5)))), false, '"Allow once" ended: silent');
  assert.equal(bridgeServes(caller(g(once, 'http://app.test:9000'), { origin: 'http://app.test:9000' })), false, 'another port of the host: silent');
  assert.equal(bridgeServes(caller(g(empty))), false, 'never answered: silent, so it cannot ask');
  const always = apply(empty, [APP, { kind: 'always' }]);
  assert.equal(bridgeServes(caller(g(always), { tabId: 9, frameId: 3 })), true);
  assert.equal(bridgeServes(caller(g(apply(empty, [APP, { kind: 'deny' }])))), true, 'denied: it answers denied');
  assert.equal(bridgeServes(caller(g(apply(always, [APP, { kind: 'revoke' }])))), true, 'revoked: it answers revoked');
  assert.equal(bridgeServes(caller(g(apply(always, [APP, { kind: 'forget' }])))), false);
  assert.equal(bridgeOrigin(caller(undefined, { origin: 'null', url: `${APP}/x?sandboxed` })), APP, 'an opaque frame counts as its URL\'s origin (and is refused as opaque)');
  assert.equal(bridgeOrigin(caller(undefined)), APP);
});

test('bridge host patterns; localhost needs no bridge', () => {
  assert.equal(patternOf('http://app.test:8080'), 'http://app.test/*');
  assert.equal(patternOf('https://a.example'), 'https://a.example/*');
  assert.equal(directlyConnectable('http://127.0.0.1:3000'), true);
  assert.equal(directlyConnectable('http://localhost'), true);
  assert.equal(directlyConnectable('https://localhost'), false);
  assert.equal(directlyConnectable('http://app.test'), false);
});

test('rate limit: a burst, then the rate; per origin', () => {
  let now = 0;
  const r = new RateLimiter({ rate: 10, burst: 5, now: () => now });
  for (let i = 0; i < 5; i++) r.take(APP);
  assert.equal(code(() => r.take(APP)), 'rate_limited');
  assert.equal(code(() => r.take(OTHER)), 'ok', 'another origin keeps working');
  now = 100;
  assert.equal(code(() => r.take(APP)), 'ok', 'a tenth of a second later: one more');
  assert.equal(code(() => r.take(APP)), 'rate_limited');
  now = 10_000;
  for (let i = 0; i < 5; i++) r.take(APP);
});

test('rate limit: at most `running` requests of an origin at work at once; a slot frees when its answer is sent', () => {
  const r = new RateLimiter({ rate: 1000, burst: 1000, running: 2, now: () => 0 });
  const first = r.start(APP);
  const second = r.start(APP);
  assert.equal(code(() => r.start(APP)), 'rate_limited');
  assert.equal(code(() => r.start(OTHER)()), 'ok', 'another origin has its own slots');
  first();
  first();
  const third = r.start(APP);
  assert.equal(code(() => r.start(APP)), 'rate_limited', 'freeing twice frees one slot');
  second();
  third();
  assert.equal(r.busy.size, 0, 'nothing kept for an idle origin');
});

test('an opaque origin (a sandboxed frame, data:) is forbidden, never asked about, whatever a grant says', () => {
  for (const origin of ['null', '', 'data://']) {
    const c = caller({ access: 'always', tabs: [], shared: [] }, { origin });
    assert.equal(allowed(c), false, origin);
    assert.equal(code(() => checkConsent(c, { cmd: 'snapshot' })), 'forbidden', origin);
    assert.equal(code(() => checkConsent(c, { cmd: 'ping' })), 'ok', origin);
  }
});
