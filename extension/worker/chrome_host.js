// The pipeline's transport in the extension: chrome.debugger for CDP,
// chrome.tabs for what the browser knows of a tab, chrome.storage.session
// for what outlives a service-worker restart.

const PROTOCOL = '1.3';

/** @param {number} tabId @param {string|undefined} sessionId */
const debuggee = (tabId, sessionId) => (sessionId ? { tabId, sessionId } : { tabId });

/** A chrome.* event as the transport's `on…(listener) → off`. */
const listen = (event, wrap) => (listener) => {
  const l = wrap(listener);
  event.addListener(l);
  return () => event.removeListener(l);
};

/** @type {import('./transport.js').Transport} */
export const chromeHost = {
  send: (tabId, sessionId, method, params = {}) => chrome.debugger.sendCommand(debuggee(tabId, sessionId), method, params),
  attach: (tabId) => chrome.debugger.attach({ tabId }, PROTOCOL),
  detach: (tabId) => chrome.debugger.detach({ tabId }),
  onEvent: listen(chrome.debugger.onEvent, (l) => (source, method, params) => {
    if (source.tabId !== undefined) l({ tabId: source.tabId, sessionId: source.sessionId }, method, params);
  }),
  onDetach: listen(chrome.debugger.onDetach, (l) => (source) => {
    if (source.tabId !== undefined) l(source.tabId);
  }),
  onTabUpdated: listen(chrome.tabs.onUpdated, (l) => (tabId, change) => l(tabId, change)),
  tab: (tabId) => chrome.tabs.get(tabId),
  activeTab: async () => (await chrome.tabs.query({ active: true, lastFocusedWindow: true }))[0]?.id,
  store: {
    get: async (key) => (/** @type {any} */ (await chrome.storage.session.get(key)))[key],
    set: (key, value) => chrome.storage.session.set({ [key]: value }),
    remove: (key) => chrome.storage.session.remove(key),
  },
  get origin() { return new URL(chrome.runtime.getURL('')).origin; },
  wasm: async () => undefined,
};
