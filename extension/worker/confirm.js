// The person's "Allow once" or "Deny" for one consequential step a
// co-pilot task or a desktop agent is about to take (leaving the allowed
// sites: a form sent to another site, a navigation, a new window), asked in
// the side panel. The worker writes the question, the panel (panel/confirm.js)
// shows it and writes the answer; both through chrome.storage.session, like
// the sites' consent prompts (grants.js).
//
//   chrome.storage.session `confirms`          [{id, tabId, who, kind, url, site, method, line, at, until}]
//       written by the worker only; the panel lists them
//   chrome.storage.session `confirm-answer:<id>`  'allow' | 'deny'
//       written by the panel; the worker removes it once read
//
// No answer within the deadline, or no side panel open to ask in, is a
// refusal: `confirmation_unavailable`. "Deny" is `declined`.

import { AxError } from '../../protocol/errors.js';
import { askLine } from './judge.js';

export const CONFIRMS = 'confirms';
export const ANSWER = 'confirm-answer:';
/** How long the person has to answer. */
export const CONFIRM_MS = 60000;
/** Waiting questions kept at most. */
const MAX_CONFIRMS = 20;
/** An extension API call this often keeps the worker alive while it waits for the person. */
const KEEPALIVE_MS = 20000;

/**
 * @typedef {{id: string, tabId: number, who: string, kind: string, url: string, site: string, method: string,
 *   line: string, at: number, until: number}} Confirm
 */

/** The list with one question more, bounded (the oldest go). */
export function withConfirm(list, c) {
  return [...(list || []), c].slice(-MAX_CONFIRMS);
}

/** Is a side panel (or the panel page in a tab) open to ask in? */
async function panelOpen() {
  const page = new URL(chrome.runtime.getURL('extension/panel/sidepanel.html')).pathname;
  const contexts = await chrome.runtime.getContexts({ contextTypes: [chrome.runtime.ContextType.SIDE_PANEL, chrome.runtime.ContextType.TAB] });
  return contexts.some((c) => c.documentUrl && new URL(c.documentUrl).pathname === page);
}

/** One write of the list at a time. */
let queue = Promise.resolve();
const serial = (fn) => (queue = queue.then(fn, fn));

async function readConfirmsNow() {
  const { [CONFIRMS]: list } = await chrome.storage.session.get(CONFIRMS);
  return Array.isArray(list) ? list : [];
}

/**
 * Asks the person and waits: resolves when they allow it; throws `declined`
 * when they deny it, `confirmation_unavailable` when no panel is open or
 * nobody answered in time (or `signal` aborted), `no_tab` when the tab closed meanwhile.
 * @param {import('./judge.js').Ask & {tabId: number, who: string}} ask
 * @param {{ms?: number, signal?: AbortSignal, onTabClosed?: (tabId: number, then: () => void) => () => void}} [o]
 *   onTabClosed: calls `then` when the tab closes (the tab's session tells), answers how to stop listening
 */
export async function confirm(ask, o = {}) {
  const ms = o.ms ?? CONFIRM_MS;
  if (!(await panelOpen())) {
    throw new AxError('confirmation_unavailable', `${askLine(ask, 'this step')}: only the person can allow that, in the axsnap side panel, and no side panel is open. Nothing was sent. Ask the person to open the panel, then try again`);
  }
  const id = `${Date.now().toString(36)}-${crypto.getRandomValues(new Uint32Array(1))[0].toString(36)}`;
  const key = ANSWER + id;
  const now = Date.now();
  /** @type {Confirm} */
  const c = { id, tabId: ask.tabId, who: ask.who, kind: ask.kind, url: ask.url, site: ask.site, method: ask.method, line: askLine(ask, ask.who), at: now, until: now + ms };
  let onChange;
  let timer;
  let alive;
  let offTab = () => {};
  const answered = new Promise((resolve) => {
    onChange = (changes, area) => {
      if (area === 'session' && changes[key]?.newValue) resolve(changes[key].newValue);
    };
    chrome.storage.onChanged.addListener(onChange);
    timer = setTimeout(() => resolve('timeout'), ms);
    o.signal?.addEventListener('abort', () => resolve('aborted'), { once: true });
    // A question about a tab that closed has nothing left to allow: it ends at once, never left waiting.
    offTab = o.onTabClosed?.(ask.tabId, () => resolve('closed')) ?? offTab;
  });
  alive = setInterval(() => chrome.runtime.getPlatformInfo().catch(() => {}), KEEPALIVE_MS);
  try {
    await serial(async () => chrome.storage.session.set({ [CONFIRMS]: withConfirm(await readConfirmsNow(), c) }));
    const answer = await answered;
    if (answer === 'allow') return;
    if (answer === 'deny') throw new AxError('declined', `the person declined: ${askLine(ask, 'this step')}. Nothing was sent; do not try another way to do it`);
    if (answer === 'closed') throw new AxError('no_tab', `${askLine(ask, 'this step')}: tab ${ask.tabId} was closed while the person was asked. Nothing was sent`);
    throw new AxError('confirmation_unavailable', `${askLine(ask, 'this step')}: nobody answered in the side panel ${answer === 'timeout' ? `within ${ms / 1000} s` : 'before the request ended'}. Nothing was sent`);
  } finally {
    clearTimeout(timer);
    clearInterval(alive);
    offTab();
    chrome.storage.onChanged.removeListener(onChange);
    await serial(async () => {
      await chrome.storage.session.set({ [CONFIRMS]: (await readConfirmsNow()).filter((x) => x.id !== id) });
      await chrome.storage.session.remove(key);
    }).catch(() => {});
  }
}

// ---- the panel's side

/** The questions waiting for the person, oldest first. @returns {Promise<Confirm[]>} */
export async function readConfirms() {
  const list = await readConfirmsNow();
  return list.filter((c) => c.until > Date.now());
}

/** The person's answer to one question. */
export function answerConfirm(id, answer) {
  return chrome.storage.session.set({ [ANSWER + id]: answer === 'allow' ? 'allow' : 'deny' });
}
