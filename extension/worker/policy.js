// Who may do what. Pure decisions over a caller, built only from what Chrome
// says about the sender, and facts about tabs and frames; no chrome.* calls,
// so every rule is unit-tested in Node (tests/unit/policy.test.mjs).
//
// Callers:
//   {kind:'panel'}                                  the extension's own pages (side panel)
//   {kind:'web', origin, tabId, frameId, url, grant} a web page (externally_connectable on localhost,
//                                                   the bridge content script elsewhere); `grant`
//                                                   is the person's answer for its origin (grants.js)
//   {kind:'agent', id, tabs, owned}                 a desktop agent (MCP): reaches the tabs it opened
//                                                   (`owned`) and the ones the person shares (both in
//                                                   `tabs`), and closes only its own
// A web caller reaches nothing until the person allowed its origin (once for
// the tab it asked from, or always); then its own tab, and the tabs the person
// shared with it from the panel.

import { AxError } from '../../protocol/errors.js';
import { pageUrl } from '../../protocol/protocol.js';

/**
 * @typedef {{kind: 'panel'}
 *   | {kind: 'web', origin: string, tabId?: number, frameId: number, url?: string, grant?: import('./grants.js').Grant}
 *   | {kind: 'agent', id: string, name?: string, tabs: number[], owned?: number[], signal?: AbortSignal, own?: boolean}} Caller
 * @typedef {{frameId: string, parentId?: string, origin?: string}} FrameFact
 */

/**
 * The caller of a message, from Chrome's `sender` only: nothing the message
 * says about itself counts.
 * @param {chrome.runtime.MessageSender} sender
 * @param {{external: boolean, extensionOrigin: string}} how  onMessageExternal or onMessage; our own origin
 * @returns {Caller}
 */
export function callerFrom(sender, { external, extensionOrigin }) {
  const s = sender || {};
  const origin = s.origin || originOf(s.url);
  if (!external && origin === extensionOrigin) return { kind: 'panel' };
  return {
    kind: 'web',
    origin,
    tabId: s.tab && Number.isInteger(s.tab.id) && s.tab.id >= 0 ? s.tab.id : undefined,
    // Unknown counts as not the top frame: the narrower reach.
    frameId: Number.isInteger(s.frameId) ? s.frameId : -1,
    url: s.url,
  };
}

/** A URL's origin; for schemes URL calls opaque but Chrome does not (chrome-extension:), scheme and host. */
function originOf(url) {
  try {
    const u = new URL(url);
    return u.origin !== 'null' ? u.origin : u.host ? `${u.protocol}//${u.host}` : 'null';
  } catch {
    return 'null';
  }
}

/** An opaque origin (sandboxed frame, data: URL) matches nothing, not even itself. */
const opaque = (origin) => !origin || origin === 'null' || origin.endsWith('://');

/** What a web page may ask once its origin is allowed. */
const WEB_COMMANDS = new Set(['hello', 'ping', 'snapshot', 'act', 'resolve', 'reset', 'tabs', 'wait_for', 'watch', 'unwatch']);
/** What any page may ask before the person answered: nothing of a page in them. */
const OPEN_COMMANDS = new Set(['hello', 'ping']);

/** Has the person allowed this web caller's origin, for the tab it is in? */
export function allowed(caller) {
  if (caller.kind !== 'web') return true;
  const g = caller.grant;
  if (!g || opaque(caller.origin)) return false;
  return g.access === 'always' || (g.access === 'once' && caller.tabId !== undefined && g.tabs.includes(caller.tabId));
}

/**
 * Refuses a web caller whose origin the person has not allowed (for this tab):
 * `consent_required` (the router queues the prompt), `denied` or `revoked`.
 * @param {Caller} caller
 * @param {{cmd: string}} req
 */
export function checkConsent(caller, req) {
  if (caller.kind !== 'web' || OPEN_COMMANDS.has(req.cmd) || allowed(caller)) return;
  if (opaque(caller.origin)) {
    throw new AxError('forbidden', 'a sandboxed frame or another page without an origin of its own (data:, about:) can never be allowed: only a site can');
  }
  const access = caller.grant?.access;
  if (access === 'denied') throw new AxError('denied', `the person denied ${caller.origin} access to axsnap`);
  if (access === 'revoked') throw new AxError('revoked', `the person revoked ${caller.origin}'s access to axsnap`);
  throw new AxError('consent_required', `${caller.origin} is not allowed yet${access === 'once' ? ' in this tab' : ''}: the axsnap side panel asks the person now`);
}

/** The commands a caller may use now (for `hello`). */
export function commandsFor(caller, all) {
  if (caller.kind !== 'web') return all;
  return all.filter((c) => (allowed(caller) ? WEB_COMMANDS : OPEN_COMMANDS).has(c));
}

/**
 * Refuses a command the caller may not use at all.
 * @param {Caller} caller
 * @param {{cmd: string, action?: string, ref?: string, tabId?: number}} req  a validated request
 */
export function checkCommand(caller, req) {
  if (caller.kind === 'agent' && req.cmd === 'tabs' && req.action === 'close' && req.tabId !== undefined && !(caller.owned || []).includes(req.tabId)) {
    // A tab the person shared stays theirs: an agent may work in it, not close it.
    throw new AxError('forbidden', `tab ${req.tabId} is not one you opened: only the person closes a tab they shared`);
  }
  if (caller.kind === 'panel' || caller.kind === 'agent') return;
  if (caller.kind !== 'web') throw new AxError('forbidden', 'unknown caller');
  const tabsChange = req.cmd === 'tabs' && (req.action ?? 'list') !== 'list';
  if (!WEB_COMMANDS.has(req.cmd) || tabsChange) {
    throw new AxError('forbidden', `a web page may not use ${req.cmd}${tabsChange ? ` ${req.action}` : ''}: it may snapshot, act, resolve and wait in its own tab`);
  }
  if (req.cmd === 'act' && req.ref === undefined) {
    // Keys and wheel events without a ref go wherever the focus or the pointer is, maybe another origin's frame.
    throw new AxError('forbidden', `a web page must name one of its own refs to ${req.action}`);
  }
  if (req.cmd !== 'ping' && caller.tabId === undefined) throw new AxError('forbidden', 'a web request must come from a page in a tab');
  if (req.cmd !== 'ping' && opaque(caller.origin)) throw new AxError('forbidden', 'a page with an opaque origin (sandboxed, data:) reaches nothing');
}

/** May the caller reach this tab? */
export function mayReachTab(caller, tabId) {
  if (caller.kind === 'panel') return true;
  if (caller.kind === 'web') return allowed(caller) && (tabId === caller.tabId || sharedTab(caller, tabId));
  if (caller.kind === 'agent') return caller.tabs.includes(tabId);
  return false;
}

/**
 * A tab the person shared with a web caller's origin from the panel: another
 * tab, or its own, which it then sees whole (other origins' frames included).
 */
export function sharedTab(caller, tabId) {
  return caller.kind === 'web' && Boolean(caller.grant?.shared.includes(tabId));
}

/**
 * Does the caller see its tab's top page (its URL and title)? A web page
 * that is not the top frame does not, unless the person shared that tab
 * with its site: an embedded widget learns nothing of the page around it.
 */
export function seesTopPage(caller, tabId) {
  return caller.kind !== 'web' || caller.frameId === 0 || sharedTab(caller, tabId);
}

/**
 * A tab as this caller may know it: a page that does not see the top page is
 * told its own frame's URL (Chrome's, from the sender) and no title.
 * @template {{tabId: number, url: string, title: string}} T
 * @param {Caller} caller
 * @param {T} tab
 * @returns {T}
 */
export function tabAsSeenBy(caller, tab) {
  if (seesTopPage(caller, tab.tabId)) return tab;
  return { ...tab, title: '', url: caller.kind === 'web' ? caller.url || '' : '' };
}

/**
 * May the bridge serve this page (a port of the bridge content script)? The
 * bridge is registered per host (match patterns carry no port), so the
 * worker decides per origin: an origin the person answered gets answers
 * (allowed: its own tab, or asking for another tab; denied or revoked: so it
 * hears so), while the answer lasts ("Allow once" until its tabs close). Any
 * other origin on the host gets a bridge that stays silent, and so cannot
 * ask. A frame with an opaque origin counts as the origin its URL names (it
 * is refused as opaque, with a typed answer).
 * @param {Caller} caller  with the grant of bridgeOrigin(caller)
 */
export function bridgeServes(caller) {
  return caller.kind === 'web' && Boolean(caller.grant) && caller.grant?.access !== 'none';
}

/** The origin whose grant decides whether the bridge serves a page: its own, or for an opaque one its URL's. */
export function bridgeOrigin(caller) {
  if (caller.kind !== 'web') return 'null';
  return opaque(caller.origin) ? originOf(caller.url) : caller.origin;
}

/**
 * The tab a request is about: its `tabId`, else the caller's own tab, else
 * (`'active'`) the active tab of the last focused window.
 * @returns {number|'active'}
 */
export function targetTab(caller, tabId) {
  const chosen = tabId ?? (caller.kind === 'web' ? caller.tabId : undefined);
  if (chosen === undefined) {
    if (caller.kind === 'panel') return 'active';
    throw new AxError('forbidden', 'this caller must name a tab it may reach (tabId)');
  }
  if (!mayReachTab(caller, chosen)) {
    throw new AxError('forbidden', caller.kind === 'web' ? 'a web page may only reach its own tab and the tabs the person shared with its site' : `tab ${chosen} was not shared with this caller`);
  }
  return chosen;
}

/**
 * The frames of a tab the caller may see, or null for all of them. A web
 * page sees the frames of its own origin; one that is not the top frame never
 * sees the top page (and so is shown its own frames as the snapshot's root).
 * A tab the person shared with the page's site is seen whole.
 * @param {Caller} caller
 * @param {FrameFact[]} frames  the tab's frames; the one without parentId is the top
 * @param {number} [tabId]  the tab they belong to
 * @returns {Set<string>|null}
 */
export function visibleFrames(caller, frames, tabId) {
  if (caller.kind !== 'web' || sharedTab(caller, tabId)) return null;
  const visible = new Set();
  if (opaque(caller.origin)) return visible;
  // A top frame of another origin: the page that asked is gone.
  if (caller.frameId === 0 && frames.some((f) => !f.parentId && f.origin !== caller.origin)) return visible;
  for (const f of frames) {
    const top = !f.parentId;
    if (top && caller.frameId !== 0) continue;
    if (f.origin === caller.origin) visible.add(f.frameId);
  }
  return visible;
}

/**
 * Which ref table of a tab a caller's refs live in: callers never see or
 * resolve each other's refs (and a snapshot of part of a tab does not make
 * another caller's refs stale).
 */
export function refScope(caller) {
  if (caller.kind === 'panel') return 'panel';
  if (caller.kind === 'agent') return `agent ${caller.id}`;
  return `web ${caller.origin}${caller.frameId === 0 ? '' : ' frame'}`;
}

/** Schemes whose pages no extension may debug. */
const RESTRICTED_SCHEMES = new Set(['chrome:', 'chrome-untrusted:', 'chrome-search:', 'chrome-error:', 'devtools:', 'view-source:', 'edge:', 'brave:', 'opera:', 'vivaldi:']);
const WEB_STORE = [/^https:\/\/chromewebstore\.google\.com(\/|$)/, /^https:\/\/chrome\.google\.com\/webstore(\/|$)/];

/**
 * Why Chrome will not let the extension read a page at `url`, or null.
 * Decided from the tab's URL before attaching: attaching to some of these
 * fails with unclear errors, or (view-source:) succeeds on the wrong document.
 * @param {string|undefined} url
 * @param {string} extensionOrigin  our own pages may be read
 */
export function restrictedReason(url, extensionOrigin) {
  if (!url) return null;
  let u;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (RESTRICTED_SCHEMES.has(u.protocol)) return `Chrome does not let extensions read ${u.protocol} pages`;
  if (u.protocol === 'chrome-extension:' && originOf(url) !== extensionOrigin) return 'Chrome does not let an extension read another extension\'s pages';
  if (u.protocol === 'about:' && !['about:blank', 'about:srcdoc'].includes(`${u.protocol}${u.pathname}`)) return `Chrome does not let extensions read ${url}`;
  if (WEB_STORE.some((re) => re.test(url))) return 'Chrome does not let extensions read the Web Store';
  return null;
}

/**
 * A URL `navigate` and `tabs open` may load: http and https only (no file:, javascript:, chrome:).
 * One relative to the page as snapshots print links is read against `base`, the tab's own URL
 * (`pageUrl`).
 */
export function navigableUrl(url, base) {
  let u;
  try {
    u = pageUrl(url, base);
  } catch {
    throw new AxError('bad_request', `${JSON.stringify(url)} is not a URL: give a full http or https URL${base ? ' or one relative to the page' : ''}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new AxError('forbidden', `only http and https URLs can be opened, not ${u.protocol}`);
  }
  return u.href;
}
