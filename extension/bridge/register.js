// Puts the bridge (bridge.js) into the pages of sites the person answered.
// The panel asks Chrome for access to a site's host (optional host
// permissions) in the person's click; the worker keeps the registered
// content scripts in step with the grant store and Chrome's host access
// (syncBridges), and puts the bridge into pages already open. Sites on
// 127.0.0.1 and localhost need none of this: externally_connectable lets
// them call directly.
//
// A match pattern names a host, not an origin (no port), so a registration
// reaches every origin on the host: the bridge itself stays silent in pages
// of an origin the person did not answer (bridge.js, policy.js bridgeServes).

import { grantOf, readStores } from '../worker/grants.js';

export const BRIDGE_FILE = 'extension/bridge/bridge.js';
const PREFIX = 'bridge ';

/** The match pattern of an origin's host (match patterns ignore the port). */
export function patternOf(origin) {
  const u = new URL(origin);
  return `${u.protocol}//${u.hostname}/*`;
}

/** Sites the manifest's externally_connectable already reaches. */
export function directlyConnectable(origin) {
  try {
    const u = new URL(origin);
    return u.protocol === 'http:' && (u.hostname === '127.0.0.1' || u.hostname === 'localhost');
  } catch {
    return false;
  }
}

/** The id of a host's registered bridge: one per host pattern. */
export const scriptId = (origin) => `${PREFIX}${patternOf(origin)}`;

/**
 * The bridges the grant store calls for: host pattern → whether the
 * registration outlives the browser, and the origins on the host it serves.
 * A host has one while an origin on it
 * is allowed ("Allow once" until its tabs close, "Always allow") or was
 * denied or revoked (so that it hears `denied`/`revoked` rather than
 * nothing); a forgotten or ended answer leaves nothing behind.
 * @param {Record<string, any>} always  chrome.storage.local `grants`
 * @param {Record<string, any>} session  chrome.storage.session `grants`
 * @returns {Map<string, {persist: boolean, origins: string[]}>}
 */
export function wantedBridges(always, session) {
  const out = new Map();
  for (const origin of new Set([...Object.keys(always || {}), ...Object.keys(session || {})])) {
    if (directlyConnectable(origin)) continue;
    const { access } = grantOf(origin, always, session);
    if (access === 'none') continue;
    let pattern;
    try {
      pattern = patternOf(origin);
    } catch {
      continue; // a malformed origin in storage
    }
    const had = out.get(pattern) || { persist: false, origins: [] };
    out.set(pattern, { persist: had.persist || access === 'always', origins: [...had.origins, origin] });
  }
  return out;
}

/**
 * Asks Chrome for access to an origin's host. Call it in the click handler
 * itself, before any await: `chrome.permissions.request` works only during
 * the person's gesture (and answers at once when it was granted before).
 * @returns {Promise<boolean>}
 */
export function requestHostAccess(origin) {
  if (directlyConnectable(origin)) return Promise.resolve(false);
  return chrome.permissions.request({ origins: [patternOf(origin)] }).then(Boolean, () => false);
}

/** Whether Chrome gives the extension access to an origin's host already (no prompt). */
export function hasHostAccess(origin) {
  if (directlyConnectable(origin)) return Promise.resolve(false);
  return chrome.permissions.contains({ origins: [patternOf(origin)] }).then(Boolean, () => false);
}

/** Puts the bridge into a tab that is already loaded (a second copy in a document asks the worker again). */
export function injectBridge(tabId) {
  return chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: [BRIDGE_FILE] }).then(() => {}, () => {});
}

let syncing = Promise.resolve();
/** The origins each host's bridge served at the last sync (empty after the worker restarts: all count as new). */
const served = new Map();

/**
 * Registers and unregisters the bridge so that the hosts with one are the
 * ones the grant store calls for (wantedBridges) and Chrome gives access to.
 * Also the restore after a browser restart or an update: Chrome does not
 * always keep dynamic content scripts, whatever `persistAcrossSessions` says
 * (it dropped them for the unpacked extension in tests/e2e/sites.test.mjs);
 * open tabs of a host that had lost its bridge get it at once. One run at a
 * time: registering an id twice fails.
 */
export function syncBridges() {
  syncing = syncing.then(sync, sync);
  return syncing;
}

/**
 * What one sync does, decided from what it read: pure, so the unit tests
 * cover it. `registered`: host pattern → whether its bridge outlives the
 * browser, as Chrome has it; `access`: the wanted patterns Chrome gives host
 * access to; `served`: the origins each host's bridge served at the last sync.
 * Answers the registrations to drop, those to (re)make, the hosts whose open
 * pages get the bridge now (an origin there was just answered), and `served`
 * as it is after this sync.
 * @param {ReturnType<typeof wantedBridges>} wanted
 * @param {Map<string, boolean>} registered
 * @param {Set<string>} access
 * @param {Map<string, Set<string>>} served
 */
export function bridgePlan(wanted, registered, access, served) {
  const unregister = [...registered.keys()].filter((p) => !wanted.has(p));
  /** @type {Array<{pattern: string, persist: boolean, replace: boolean}>} */
  const register = [];
  const inject = [];
  const next = new Map();
  for (const [pattern, { persist, origins }] of wanted) {
    const had = registered.get(pattern);
    if (had !== persist && access.has(pattern)) register.push({ pattern, persist, replace: had !== undefined });
    const before = served.get(pattern);
    next.set(pattern, new Set(origins));
    if (!before || !origins.every((o) => before.has(o))) inject.push(pattern);
  }
  return { unregister, register, inject, served: next };
}

async function sync() {
  const { always, session } = await readStores();
  const wanted = wantedBridges(always, session);
  const registered = new Map((await chrome.scripting.getRegisteredContentScripts())
    .filter((s) => s.id.startsWith(PREFIX)).map((s) => [s.id.slice(PREFIX.length), Boolean(s.persistAcrossSessions)]));
  const access = new Set();
  for (const pattern of wanted.keys()) {
    if (await chrome.permissions.contains({ origins: [pattern] }).catch(() => false)) access.add(pattern);
  }
  const plan = bridgePlan(wanted, registered, access, served);
  if (plan.unregister.length) await chrome.scripting.unregisterContentScripts({ ids: plan.unregister.map((p) => PREFIX + p) }).catch(() => {});
  for (const { pattern, persist, replace } of plan.register) {
    try {
      if (replace) await chrome.scripting.unregisterContentScripts({ ids: [PREFIX + pattern] });
      await chrome.scripting.registerContentScripts([{ id: PREFIX + pattern, matches: [pattern], js: [BRIDGE_FILE], allFrames: true, runAt: 'document_start', persistAcrossSessions: persist }]);
    } catch { /* the host's access went meanwhile: the next change syncs again */ }
  }
  served.clear();
  for (const [pattern, origins] of plan.served) served.set(pattern, origins);
  // Where an origin was just answered, pages already open on its host get the bridge, or have theirs ask
  // the worker again (also tabs other than the one that asked, for "Always allow"). Other changes (a
  // revoke, a closed tab) need no injection: the worker closes the ports that must close.
  for (const pattern of plan.inject) {
    const tabs = await chrome.tabs.query({ url: pattern }).catch(() => []);
    await Promise.all(tabs.map((t) => (t.id === undefined ? undefined : injectBridge(t.id))));
  }
}
