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
  const pattern = patternOf(origin);
  return chrome.permissions.request({ origins: [pattern] }).then(async (granted) => {
    if (!granted) return false;
    const id = scriptId(origin);
    const [existing] = await chrome.scripting.getRegisteredContentScripts({ ids: [id] });
    if (existing && existing.persistAcrossSessions !== persist && persist) await chrome.scripting.unregisterContentScripts({ ids: [id] });
    if (!existing || (existing.persistAcrossSessions !== persist && persist)) {
      await chrome.scripting.registerContentScripts([{ id, matches: [pattern], js: [BRIDGE_FILE], allFrames: true, runAt: 'document_start', persistAcrossSessions: persist }]);
    }
    await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, files: [BRIDGE_FILE] }).catch(() => {});
    return true;
  }, () => false);
}
