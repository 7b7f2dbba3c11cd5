// The network edge of a guarded action: while a co-pilot's or a desktop
// agent's action runs and the page settles, every document request the tab
// makes (a navigation of its top frame, a form sent anywhere in it) and
// every new window its pages open is held, and one to a site the caller may
// not reach goes on only if the person allows it in the side panel; else it
// fails (net::ERR_ABORTED: the page stays where it was) and the answer lists it in `blocked`.
//
// How:
//   - the tab's frames: CDP Fetch.enable, for resourceType Document at the
//     request stage, on the tab's session and its cross-site frames' sessions;
//     a request is paused until judged (judge.js's judgeRequest);
//   - new windows (window.open, target=_blank): they are other tabs, outside
//     those sessions, and their request starts before any debugger could
//     attach. A declarativeNetRequest session rule blocks, for the length of
//     the guard, top-level requests to sites not allowed that pages of the
//     tab's sites start in other tabs; the tab's Page.windowOpen says which
//     URL it opened, which is then asked about: the new tab is loaded again
//     (by GET) if the person allows it, else closed.
//
// Limits: scripts' fetch(), XHR, beacons, images and WebSockets are not
// document requests and are not held; a frame loading another site's page
// by GET (an embed) is let through; a form sent by POST into a new window
// cannot be sent again once allowed (it is loaded by GET); requests after
// the guard ends (a timer the page set for later) are not held; while the
// guard lasts, a page of the same site in another tab opening another site
// is refused too.

import { send } from './cdp.js';
import { judgeRequest, withPage } from './judge.js';
import { siteOf } from '../../protocol/site.js';

const PATTERNS = [{ urlPattern: '*', resourceType: 'Document', requestStage: 'Request' }];
/** The least time a guard holds when the page's settling is not waited for, so a navigation the action set off a moment later is still held. */
export const HOLD_MS = 400;

/**
 * @typedef {{url: string, site: string, kind: 'form'|'navigation'|'popup', reason: 'declined'|'confirmation_unavailable'}} Blocked
 * @typedef {(ask: import('./judge.js').Ask) => Promise<void>} Asker  resolves when the person allows; throws an AxError otherwise
 */

/** Rule ids of the guards running in this worker. */
let nextRule = 1 + (Date.now() % 100000) * 10;

/** Session rules left by a worker that stopped mid-guard would refuse navigations for ever: gone at start. */
export async function clearEdgeRules() {
  const rules = await chrome.declarativeNetRequest.getSessionRules();
  if (rules.length) await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: rules.map((r) => r.id) });
}

/**
 * Starts guarding the tab. `allowed` grows with every site the person
 * allows (`ask` resolving); `allow()` says it grew otherwise; `stop()` waits
 * until every held request is decided, then lets go, and answers what was blocked.
 * @param {number} tabId
 * @param {{allowed: Set<string>, ask: Asker, sessions: Array<string|undefined>, pageUrl: string, pageSites: string[]}} o
 *   sessions: the tab's own (undefined) and its frames'; pageSites: the sites of the tab's frames (the initiators of its windows)
 */
export async function guardTab(tabId, { allowed, ask, sessions, pageUrl, pageSites }) {
  /** @type {Blocked[]} */
  const blocked = [];
  const pending = new Set();
  let top;
  const rule = nextRule++;

  /** Asks (once per site at a time) and records the outcome: true when the person allowed it. */
  const decide = async (a) => {
    try {
      await ask(a);
      allowed.add(a.site);
      await updateRule();
      return true;
    } catch (e) {
      blocked.push({ url: a.url, site: a.site, kind: a.kind, reason: e.code === 'declined' ? 'declined' : 'confirmation_unavailable' });
      return false;
    }
  };
  const track = (p) => {
    pending.add(p);
    p.finally(() => pending.delete(p));
  };

  const onEvent = (source, method, params) => {
    if (source.tabId !== tabId || !sessions.includes(source.sessionId || undefined)) return;
    if (method === 'Page.windowOpen') {
      popup(params.url);
      return;
    }
    if (method !== 'Fetch.requestPaused') return;
    const sessionId = source.sessionId || undefined;
    const go = () => send(tabId, sessionId, 'Fetch.continueRequest', { requestId: params.requestId }).catch(() => {});
    // Aborted, not BlockedByClient: a navigation that fails so leaves the page where it was instead of showing an error page.
    const fail = () => send(tabId, sessionId, 'Fetch.failRequest', { requestId: params.requestId, errorReason: 'Aborted' }).catch(() => {});
    const a = judgeRequest({ url: params.request.url, method: params.request.method, top: params.frameId === top, pageUrl, allowed });
    if (!a) {
      go();
      return;
    }
    track(decide(a).then((yes) => (yes ? go() : fail())));
  };

  // New windows: the tab says which URL it opens (Page.windowOpen); the new tab is told apart by that URL,
  // as Chrome's openerTabId names the active tab of the window, not always the one that opened it.
  /** URL → the tab created while guarding that first loaded it */
  const created = new Map();
  const fresh = new Set();
  const onCreated = (tab) => {
    if (tab.id !== undefined) fresh.add(tab.id);
  };
  const onUpdated = (id, change) => {
    if (!fresh.has(id) || !change.url || !URL.canParse(change.url)) return;
    fresh.delete(id);
    created.set(new URL(change.url).href, id);
  };
  /** The new tab showing `url` (its update may come a moment after the page asked for it). */
  const tabShowing = async (url) => {
    for (let i = 0; i < 40 && !created.has(url); i++) await new Promise((r) => setTimeout(r, 50));
    return created.get(url);
  };
  const popup = (url) => {
    const a = judgeRequest({ url, top: true, popup: true, pageUrl, allowed });
    if (!a) return;
    // The rule refuses its request; allowed, the new tab loads it again (by GET).
    track(decide(a).then(async (yes) => {
      const id = await tabShowing(a.url);
      if (id !== undefined) await (yes ? chrome.tabs.update(id, { url: a.url }) : chrome.tabs.remove(id)).catch(() => {});
    }));
  };

  const updateRule = async () => {
    const initiators = pageSites.filter(Boolean);
    if (!initiators.length) return;
    const ok = [...withPage(allowed, pageUrl)].filter(Boolean);
    await chrome.declarativeNetRequest.updateSessionRules({
      removeRuleIds: [rule],
      addRules: [{
        id: rule, priority: 1, action: { type: /** @type {any} */ ('block') },
        condition: {
          resourceTypes: [/** @type {any} */ ('main_frame')], initiatorDomains: initiators, excludedTabIds: [tabId],
          // Chrome refuses an empty list.
          ...(ok.length ? { excludedRequestDomains: ok } : {}),
        },
      }],
    }).catch(() => {});
  };

  chrome.debugger.onEvent.addListener(onEvent);
  chrome.tabs.onCreated.addListener(onCreated);
  chrome.tabs.onUpdated.addListener(onUpdated);
  await updateRule();
  top = (await send(tabId, undefined, 'Page.getFrameTree')).frameTree.frame.id;
  await Promise.all(sessions.map((s) => send(tabId, s, 'Fetch.enable', { patterns: PATTERNS }).catch(() => {})));
  const started = Date.now();

  return {
    allow: updateRule,
    /** Waits for the decisions in flight (the person may still be answering). */
    async idle() {
      while (pending.size) await Promise.all([...pending]);
    },
    /**
     * Decides what is held, then lets go; at least HOLD_MS after the start unless the page was seen to
     * settle (`settled`: its wait already looked for a navigation the action set off).
     */
    async stop(settled = false) {
      const wait = settled ? 0 : HOLD_MS - (Date.now() - started);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await this.idle();
      chrome.debugger.onEvent.removeListener(onEvent);
      chrome.tabs.onCreated.removeListener(onCreated);
      chrome.tabs.onUpdated.removeListener(onUpdated);
      await Promise.all(sessions.map((s) => send(tabId, s, 'Fetch.disable').catch(() => {})));
      await chrome.declarativeNetRequest.updateSessionRules({ removeRuleIds: [rule] }).catch(() => {});
      return { blocked };
    },
  };
}

/** The sites of a tab's frames, from their origins. */
export const sitesOfFrames = (frames) => [...new Set(frames.map((f) => siteOf(f.origin || f.url)).filter(Boolean))];
