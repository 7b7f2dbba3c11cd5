// The tab's debugger connection: attach on demand, remember it across
// service-worker restarts (chrome.storage.session), send commands to the
// tab or to one of its out-of-process frame sessions.

import { AxError, fromChrome } from './errors.js';

const PROTOCOL = '1.3';
const ATTACHED_KEY = 'attachedTabs';
/** Tabs this worker knows it is attached to. */
const attached = new Set();

/**
 * @param {number} tabId
 * @param {string|undefined} sessionId  an OOPIF session, or undefined for the tab itself
 * @param {string} method
 * @param {object} [params]
 * @returns {Promise<any>}
 */
export async function send(tabId, sessionId, method, params = {}) {
  const target = sessionId ? { tabId, sessionId } : { tabId };
  try {
    return await chrome.debugger.sendCommand(target, method, params);
  } catch (e) {
    throw fromChrome(e, method);
  }
}

async function savedTabs() {
  const s = /** @type {any} */ (await chrome.storage.session.get(ATTACHED_KEY));
  return new Set(s[ATTACHED_KEY] || []);
}

async function saveTabs(tabs) {
  await chrome.storage.session.set({ [ATTACHED_KEY]: [...tabs] });
}

/** Are we (not DevTools, not a test harness) attached? Only a command can tell. */
async function probe(tabId) {
  try {
    await chrome.debugger.sendCommand({ tabId }, 'Runtime.evaluate', { expression: '0', returnByValue: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * Attaches to the tab unless already attached. Returns true when this call
 * attached (the caller then sets up auto-attach for out-of-process frames).
 */
export async function ensureAttached(tabId) {
  if (attached.has(tabId)) return false;
  try {
    await chrome.tabs.get(tabId);
  } catch {
    throw new AxError('no_tab', `tab ${tabId} does not exist (closed?)`);
  }
  // After a worker restart the attachment survives but our memory does not.
  if ((await savedTabs()).has(tabId) && (await probe(tabId))) {
    attached.add(tabId);
    return false;
  }
  try {
    await chrome.debugger.attach({ tabId }, PROTOCOL);
  } catch (e) {
    const err = fromChrome(e, 'attach');
    if (err.code === 'debugger_busy' && (await probe(tabId))) {
      await rememberTab(tabId);
      return false;
    }
    throw err;
  }
  await rememberTab(tabId);
  return true;
}

async function rememberTab(tabId) {
  attached.add(tabId);
  await saveTabs(new Set([...(await savedTabs()), tabId]));
}

/** Forget a tab (it was detached or closed). */
export async function forgetTab(tabId) {
  attached.delete(tabId);
  const tabs = await savedTabs();
  if (tabs.delete(tabId)) await saveTabs(tabs);
}

export async function detach(tabId) {
  try {
    await chrome.debugger.detach({ tabId });
  } catch { /* already gone */ }
  await forgetTab(tabId);
}
