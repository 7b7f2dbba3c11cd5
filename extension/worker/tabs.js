// Per-tab state: the core's Snapshotter (the tab's ref table) and which
// session each frame is read through. Both are saved to
// chrome.storage.session so refs outlive a service-worker restart.

import init, { Snapshotter } from '../pkg/axsnap_wasm.js';

/** Wasm starts loading when the worker starts; handlers await it. */
export const ready = init();

const KEY = (tabId) => `tab:${tabId}`;
/** tabId → {snapshotter, frameSessions} */
const tabs = new Map();

/** @returns {Promise<{snapshotter: Snapshotter, frameSessions: Record<string, string|null>}>} */
export async function tabState(tabId) {
  await ready;
  let st = tabs.get(tabId);
  if (!st) {
    st = { snapshotter: new Snapshotter(), frameSessions: {} };
    const stored = /** @type {any} */ (await chrome.storage.session.get(KEY(tabId)));
    const saved = stored[KEY(tabId)];
    if (saved) {
      try {
        st.snapshotter.importRefs(saved.refs);
        st.frameSessions = saved.frameSessions || {};
      } catch { /* a table from another version: start afresh */ }
    }
    tabs.set(tabId, st);
  }
  return st;
}

export async function saveTab(tabId) {
  const st = tabs.get(tabId);
  if (!st) return;
  await chrome.storage.session.set({ [KEY(tabId)]: { refs: st.snapshotter.exportRefs(), frameSessions: st.frameSessions } });
}

/** The tab navigated to a new document: its refs must never match new elements. */
export async function resetTab(tabId) {
  const st = tabs.get(tabId);
  if (st) st.snapshotter.reset();
  await saveTab(tabId);
}

export async function dropTab(tabId) {
  const st = tabs.get(tabId);
  if (st) st.snapshotter.free();
  tabs.delete(tabId);
  await chrome.storage.session.remove(KEY(tabId));
}
