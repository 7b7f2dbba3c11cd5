// The tab's debugger connection: attach on demand (whether we are attached
// is kept in the tab's session, so it survives a service-worker restart),
// send commands to the tab or to one of its out-of-process frame sessions.

import { AxError, fromChrome } from './errors.js';
import { tabSession } from './session.js';

const PROTOCOL = '1.3';

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
  const session = await tabSession(tabId);
  if (session.live) return false;
  try {
    await chrome.tabs.get(tabId);
  } catch {
    throw new AxError('no_tab', `tab ${tabId} does not exist (closed?)`);
  }
  // After a worker restart the attachment survives but our memory does not.
  if (session.attached && (await probe(tabId))) return attachedNow(session, false);
  try {
    await chrome.debugger.attach({ tabId }, PROTOCOL);
  } catch (e) {
    const err = fromChrome(e, 'attach');
    if (err.code === 'debugger_busy' && (await probe(tabId))) return attachedNow(session, false);
    throw err;
  }
  session.oopifs.clear();
  session.announce = false; // a fresh attachment announces its frames by itself
  return attachedNow(session, true);
}

async function attachedNow(session, fresh) {
  session.attached = true;
  session.live = true;
  await session.save();
  return fresh;
}

export async function detach(tabId) {
  try {
    await chrome.debugger.detach({ tabId });
  } catch { /* already gone */ }
  (await tabSession(tabId)).detached();
}
