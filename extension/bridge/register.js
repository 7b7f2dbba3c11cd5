// Puts the bridge (bridge.js) into the pages of a site the person allowed:
// asks Chrome for access to the site's host (optional host permissions),
// registers the bridge as a content script for it, and injects it into the
// tab that asked, which is already loaded. Sites on 127.0.0.1 and localhost
// need none of this: externally_connectable lets them call directly.

export const BRIDGE_FILE = 'extension/bridge/bridge.js';

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

/** The id of an origin's registered bridge: one per host pattern. */
export const scriptId = (origin) => `bridge ${patternOf(origin)}`;

/**
 * Gives an allowed site the bridge. Call it in the click handler itself:
 * `chrome.permissions.request` works only during the person's gesture (and
 * answers at once when the access was granted before).
 * @param {string} origin
 * @param {number} tabId  the tab that asked: it gets the bridge now
 * @param {boolean} persist  "Always allow": the registration outlives the browser
 * @returns {Promise<boolean>} whether the site has the bridge
 */
export function enableBridge(origin, tabId, persist) {
  if (directlyConnectable(origin)) return Promise.resolve(false);
  return chrome.permissions.request({ origins: [patternOf(origin)] }).then(async (granted) => {
    if (!granted) return false;
    await registerBridge(origin, persist);
    await injectBridge(tabId);
    return true;
  }, () => false);
}

/** Registers the bridge for an origin's host (once; a persistent registration replaces a session one). */
async function registerBridge(origin, persist) {
  const id = scriptId(origin);
  const [existing] = await chrome.scripting.getRegisteredContentScripts({ ids: [id] });
  if (existing && (existing.persistAcrossSessions || !persist)) return;
  if (existing) await chrome.scripting.unregisterContentScripts({ ids: [id] });
  await chrome.scripting.registerContentScripts([{ id, matches: [patternOf(origin)], js: [BRIDGE_FILE], allFrames: true, runAt: 'document_start', persistAcrossSessions: persist }]);
}

/** Puts the bridge into a tab that is already loaded (a second copy in a document does nothing). */
function injectBridge(tabId) {
  return chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: [BRIDGE_FILE] }).then(() => {}, () => {});
}

/**
 * Gives every "Always allow" site its bridge again, from the grant store:
 * Chrome does not always keep dynamic content scripts across a restart or
 * an update, whatever `persistAcrossSessions` says (it dropped them for the
 * unpacked extension in tests/e2e/sites.test.mjs), and the person's answer
 * must outlast that. Tabs of those sites already open get it at once. Sites
 * whose host access the person took back in Chrome are left alone.
 * @param {Record<string, {access?: string}>} always  chrome.storage.local `grants`
 */
export async function restoreBridges(always) {
  const registered = new Set((await chrome.scripting.getRegisteredContentScripts()).map((s) => s.id));
  for (const [origin, grant] of Object.entries(always)) {
    if (grant?.access !== 'always' || directlyConnectable(origin) || registered.has(scriptId(origin))) continue;
    try {
      if (!(await chrome.permissions.contains({ origins: [patternOf(origin)] }))) continue;
      await registerBridge(origin, true);
      for (const tab of await chrome.tabs.query({ url: patternOf(origin) })) if (tab.id !== undefined) await injectBridge(tab.id);
    } catch { /* a malformed origin in storage: nothing to restore */ }
  }
}
