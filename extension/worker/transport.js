// The browser the pipeline talks to. The snapshot, diff and action code
// (cdp.js and everything that sends through it) knows a tab by its id and a
// frame by its CDP session, and reaches the browser only through the one
// Transport set here: the extension's over chrome.debugger (chrome_host.js),
// or a Node program's over a Playwright or Puppeteer CDPSession
// (packages/cdp). One copy of the pipeline, whatever drives the browser.

/**
 * Where an event came from: the tab, and the session of an out-of-process
 * frame (undefined for the tab's own).
 * @typedef {{tabId: number, sessionId?: string}} Source
 *
 * @typedef {object} Transport
 * @property {(tabId: number, sessionId: string|undefined, method: string, params?: object) => Promise<any>} send
 *   one CDP command, raw: no deadline (cdp.js adds them); a failure rejects with the browser's message
 * @property {(tabId: number) => Promise<void>} attach  holds a debugger session on the tab (Chrome's refusal rejects)
 * @property {(tabId: number) => Promise<void>} detach
 * @property {(listener: (source: Source, method: string, params: any) => void) => () => void} onEvent
 *   every CDP event of every attached tab and frame session, the `Target.attachedToTarget` of a frame's session
 *   before any event of that session; answers the way to stop listening
 * @property {(listener: (tabId: number) => void) => () => void} onDetach  the debugger left the tab (closed, cancelled, crashed)
 * @property {(listener: (tabId: number, change: {status?: 'loading'|'complete', url?: string}) => void) => () => void} onTabUpdated
 *   the tab's top page starts or ends loading, or changes its URL without a load
 * @property {(tabId: number) => Promise<{id?: number, url?: string, pendingUrl?: string, title?: string, windowId?: number, active?: boolean}>} tab
 *   the tab as the browser has it; rejects (`No tab with id`) when it is gone
 * @property {() => Promise<number|undefined>} activeTab  the tab the person looks at, if there is one
 * @property {{get: (key: string) => Promise<any>, set: (key: string, value: any) => Promise<void>, remove: (key: string) => Promise<void>}} store
 *   what must outlive a restart of the program holding the pipeline (the extension's service worker)
 * @property {string} origin  the extension's own origin (its pages are not "another extension's")
 * @property {() => Promise<any>} wasm  what the Wasm core's init() takes (undefined: its default, a fetch beside it)
 */

/** @type {Transport|null} */
let current = null;

/** Sets the one transport; the runtime holding the pipeline calls it once, before any request. */
export function useTransport(/** @type {Transport} */ t) {
  current = t;
}

/** @returns {Transport} */
export function transport() {
  if (!current) throw new Error('no CDP transport: call useTransport() first');
  return current;
}

/**
 * Events the pipeline listens to. chrome.debugger hands over every event; a
 * CDPSession hands over those asked for by name, so this is the list a Node
 * transport subscribes to.
 */
export const EVENTS = [
  'Target.attachedToTarget', 'Target.detachedFromTarget',
  'Page.javascriptDialogOpening', 'Page.javascriptDialogClosed', 'Page.windowOpen',
  'Page.frameNavigated', 'Page.frameStartedLoading', 'Page.frameStoppedLoading', 'Page.navigatedWithinDocument',
  'Network.requestWillBeSent', 'Network.loadingFinished', 'Network.loadingFailed',
  'Input.dragIntercepted', 'Fetch.requestPaused',
];
