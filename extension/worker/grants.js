// The person's answers to sites that want to use axsnap: one home for
// per-origin grants and the prompts waiting for an answer. The panel writes
// them (the person's clicks), the worker reads them into each web caller
// (router.js) and cuts open ports when they narrow (service_worker.js);
// policy.js decides what they allow.
//
// Shape (the keys are origins, `http://app.test:8080`):
//   chrome.storage.local   `grants`   {[origin]: {access: 'always', at}}
//       outlives the browser; "Always allow".
//   chrome.storage.session `grants`   {[origin]: {access?: 'once'|'denied'|'revoked', tabs: number[], shared: number[], at}}
//       ends with the browser: "Allow once" (for `tabs`, the tabs it was
//       asked from, until they close), "Deny", a revoke, and `shared`: other
//       tabs the person granted the origin from the panel (tab ids do not
//       outlive the browser). `denied` and `revoked` here win over `always`.
//   chrome.storage.session `prompts`  [{origin, tabId, url, cmd, at}]
//       one per origin, oldest ask first, in a stable order: a new ask waits
//       behind the ones there and never moves or replaces them (the person
//       may be about to click one); the panel shows the first.

/** @typedef {{access: 'none'|'once'|'always'|'denied'|'revoked', tabs: number[], shared: number[]}} Grant */
/** @typedef {{origin: string, tabId: number, url: string, cmd: string, at: number}} Prompt */

export const KEY = 'grants';
export const PROMPTS = 'prompts';
/** Waiting prompts kept at most: a flood of origins cannot grow storage without bound. */
const MAX_PROMPTS = 20;

/**
 * The grant an origin holds, from both stores.
 * @param {string} origin
 * @param {Record<string, any>} always  chrome.storage.local `grants`
 * @param {Record<string, any>} session  chrome.storage.session `grants`
 * @returns {Grant}
 */
export function grantOf(origin, always = {}, session = {}) {
  const s = own(session, origin) || {};
  const tabs = Array.isArray(s.tabs) ? s.tabs : [];
  const shared = Array.isArray(s.shared) ? s.shared : [];
  if (s.access === 'denied' || s.access === 'revoked') return { access: s.access, tabs: [], shared: [] };
  if (own(always, origin)?.access === 'always') return { access: 'always', tabs: [], shared };
  if (s.access === 'once' && tabs.length) return { access: 'once', tabs, shared };
  return { access: 'none', tabs: [], shared: [] };
}

/** An origin's record, never one inherited from Object.prototype (an origin is a page's to choose). */
const own = (o, k) => (o && Object.prototype.hasOwnProperty.call(o, k) ? o[k] : undefined);

/**
 * The stores after the person answers a prompt or acts in the list: pure, so
 * the unit tests cover every transition.
 * @param {{always: Record<string, any>, session: Record<string, any>}} stores
 * @param {string} origin
 * @param {{kind: 'once'|'always'|'deny'|'revoke'|'forget'|'share'|'unshare', tabId?: number}} answer
 * @param {number} [now]
 */
export function answered(stores, origin, answer, now = Date.now()) {
  const always = { ...stores.always };
  const session = { ...stores.session };
  const cur = own(session, origin) || { tabs: [], shared: [] };
  const tabs = cur.tabs || [];
  const shared = cur.shared || [];
  const add = (list, id) => (Number.isInteger(id) && !list.includes(id) ? [...list, id] : list);
  switch (answer.kind) {
    case 'once':
      session[origin] = { access: 'once', tabs: add(cur.access === 'once' ? tabs : [], answer.tabId), shared, at: now };
      break;
    case 'always':
      always[origin] = { access: 'always', at: now };
      session[origin] = { tabs: [], shared, at: now };
      break;
    case 'deny':
    case 'revoke':
      delete always[origin];
      session[origin] = { access: answer.kind === 'deny' ? 'denied' : 'revoked', tabs: [], shared: [], at: now };
      break;
    case 'forget':
      delete always[origin];
      delete session[origin];
      break;
    case 'share':
      session[origin] = { ...cur, tabs, shared: add(shared, answer.tabId), at: now };
      break;
    case 'unshare':
      session[origin] = { ...cur, tabs, shared: shared.filter((t) => t !== answer.tabId), at: now };
      break;
    default:
      throw new Error(`unknown answer ${answer.kind}`);
  }
  return { always, session };
}

/** The session grants once a tab is closed: "Allow once" for it ends, and no origin keeps it shared. */
export function withoutTab(session, tabId) {
  const out = {};
  for (const [origin, g] of Object.entries(session || {})) {
    const tabs = (g.tabs || []).filter((t) => t !== tabId);
    const shared = (g.shared || []).filter((t) => t !== tabId);
    if (g.access === 'once' && !tabs.length && !shared.length) continue;
    if (!g.access && !tabs.length && !shared.length) continue;
    out[origin] = { ...g, tabs, shared };
  }
  return out;
}

/**
 * The prompt list with one more ask: one per origin, oldest first, bounded.
 * An origin already waiting keeps its place and its first ask (the tab the
 * person reads about is the tab the answer is for); when the list is full
 * the new ask waits outside it (the page asks again on its next request).
 */
export function withPrompt(prompts, p) {
  const list = prompts || [];
  if (list.some((x) => x.origin === p.origin) || list.length >= MAX_PROMPTS) return list;
  return [...list, p];
}

// ---- storage (chrome.storage; used by the worker and the panel)

/**
 * Every change to the grant stores is a read-modify-write; tabs closing
 * together, or the panel answering while a page asks, would otherwise write
 * back lists read before each other's changes (an ask for a closed tab came
 * back). A Web Lock is shared by the worker and every panel of the extension.
 * @template T @param {() => Promise<T>} change @returns {Promise<T>}
 */
function changing(change) {
  return navigator.locks.request('axsnap-grants', change);
}

/** Both grant stores as they are now. */
export async function readStores() {
  const [l, s] = await Promise.all([chrome.storage.local.get(KEY), chrome.storage.session.get(KEY)]);
  return { always: l[KEY] || {}, session: s[KEY] || {} };
}

/** The grant of one origin, as stored now. */
export async function readGrant(origin) {
  const { always, session } = await readStores();
  return grantOf(origin, always, session);
}

/** The prompts waiting for the person, oldest first. @returns {Promise<Prompt[]>} */
export async function readPrompts() {
  const { [PROMPTS]: prompts } = await chrome.storage.session.get(PROMPTS);
  return Array.isArray(prompts) ? prompts : [];
}

/** Applies the person's answer, and drops the origin's prompt. */
export function answer(origin, a) {
  return changing(async () => {
    const next = answered(await readStores(), origin, a);
    const prompts = await readPrompts();
    await Promise.all([
      chrome.storage.local.set({ [KEY]: next.always }),
      chrome.storage.session.set({ [KEY]: next.session, [PROMPTS]: prompts.filter((p) => p.origin !== origin) }),
    ]);
  });
}

/** Queues a prompt for the panel (one per origin), behind the ones waiting. */
export function ask(p) {
  return changing(async () => {
    const prompts = await readPrompts();
    const next = withPrompt(prompts, p);
    if (next !== prompts) await chrome.storage.session.set({ [PROMPTS]: next });
  });
}

/** A closed tab: its once-grants and shares end, its prompts go. */
export function forgetTabGrants(tabId) {
  return changing(async () => {
    const [{ [KEY]: session = {} }, prompts] = await Promise.all([chrome.storage.session.get(KEY), readPrompts()]);
    await chrome.storage.session.set({ [KEY]: withoutTab(session, tabId), [PROMPTS]: prompts.filter((p) => p.tabId !== tabId) });
  });
}
