// The pipeline's transport in Node (extension/worker/transport.js): each
// attached page is a "tab" reached through its own CDPSession, Playwright's
// or Puppeteer's (both answer send(method, params) and on(event, listener)).
//
// Out-of-process frames: the pipeline turns on Target.setAutoAttach, and
// Chrome attaches each cross-site frame to the page's session. A CDPSession
// hands over only its own session's messages (Playwright drops a flat child
// session's), so here auto-attach runs non-flat: a frame's commands go
// wrapped in Target.sendMessageToTarget through its parent, its answers and
// events come back in Target.receivedMessageFromTarget, to any depth. The
// pipeline still sees one session id per frame, as with chrome.debugger.

import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { EVENTS } from '../../../extension/worker/transport.js';

/** The Wasm core: beside the bundle in the package, in extension/pkg in the repository. */
const WASM = [new URL('./axsnap_wasm_bg.wasm', import.meta.url), new URL('../../../extension/pkg/axsnap_wasm_bg.wasm', import.meta.url)];

/** A message that says what chrome.debugger would (errors.js reads these words). */
const GONE = 'Target closed';

/**
 * The browser's error as chrome.debugger words it: Playwright and Puppeteer
 * put the method before the browser's message, and say "closed" their own way.
 */
function asChrome(e) {
  const text = String(e && e.message ? e.message : e);
  if (/has been closed|Session closed|Target closed|Connection closed|detached/i.test(text)) return new Error(GONE);
  return new Error(text.replace(/^Protocol error \([^)]*\):\s*/, ''));
}

/** A frame's session inside its tab: commands through its parent, answers matched by id. */
class FrameSession {
  /** @param {(method: string, params: object) => Promise<any>} parentSend @param {string} id */
  constructor(parentSend, id) {
    this.parentSend = parentSend;
    this.id = id;
    this.next = 0;
    /** @type {Map<number, {resolve: (v: any) => void, reject: (e: Error) => void}>} */
    this.waiting = new Map();
  }

  send(method, params = {}) {
    const id = ++this.next;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.parentSend('Target.sendMessageToTarget', { sessionId: this.id, message: JSON.stringify({ id, method, params }) })
        .catch((e) => {
          this.waiting.delete(id);
          reject(asChrome(e));
        });
    });
  }

  answer(msg) {
    const w = this.waiting.get(msg.id);
    if (!w) return;
    this.waiting.delete(msg.id);
    if (msg.error) w.reject(new Error(msg.error.message));
    else w.resolve(msg.result);
  }

  gone() {
    for (const w of this.waiting.values()) w.reject(new Error(GONE));
    this.waiting.clear();
  }
}

/** One attached page. */
class Tab {
  /** @param {number} id @param {any} cdp  a Playwright or Puppeteer CDPSession @param {string} targetId */
  constructor(id, cdp, targetId) {
    this.id = id;
    this.cdp = cdp;
    this.targetId = targetId;
    this.closed = false;
    /** @type {Map<string, FrameSession>} */
    this.frames = new Map();
    /** @type {Array<[string, (p: any) => void]>} */
    this.subscriptions = [];
  }
}

/** A transport for pages of any number of browsers, in one Node process. */
export function nodeHost() {
  /** @type {Map<number, Tab>} */
  const tabs = new Map();
  const eventListeners = new Set();
  const detachListeners = new Set();
  const updateListeners = new Set();
  const stored = new Map();
  let nextTab = 1;

  const emit = (tab, sessionId, method, params) => {
    if (method === 'Target.attachedToTarget') {
      const parent = sessionId ? tab.frames.get(sessionId) : null;
      const send = parent ? (m, p) => parent.send(m, p) : (m, p) => tab.cdp.send(m, p);
      tab.frames.set(params.sessionId, new FrameSession(send, params.sessionId));
    } else if (method === 'Target.detachedFromTarget') {
      tab.frames.get(params.sessionId)?.gone();
      tab.frames.delete(params.sessionId);
    } else if (method === 'Target.receivedMessageFromTarget') {
      const msg = JSON.parse(params.message);
      if (msg.id !== undefined) tab.frames.get(params.sessionId)?.answer(msg);
      else emit(tab, params.sessionId, msg.method, msg.params);
      return;
    }
    if (!sessionId) tabUpdate(tab, method, params);
    if (!EVENTS.includes(method)) return;
    for (const l of eventListeners) l({ tabId: tab.id, ...(sessionId ? { sessionId } : {}) }, method, params);
  };

  /** chrome.tabs.onUpdated's news, from the top frame's Page events. */
  const tabUpdate = (tab, method, params) => {
    if (params.frameId !== tab.targetId) return;
    let change;
    if (method === 'Page.frameStartedLoading') change = { status: 'loading' };
    else if (method === 'Page.frameStoppedLoading') change = { status: 'complete' };
    else if (method === 'Page.navigatedWithinDocument') change = { url: params.url };
    if (change) for (const l of updateListeners) l(tab.id, change);
  };

  const tabOf = (tabId) => {
    const tab = tabs.get(tabId);
    if (!tab || tab.closed) throw new Error(`No tab with id: ${tabId}.`);
    return tab;
  };

  const on = (set) => (l) => {
    set.add(l);
    return () => set.delete(l);
  };

  /** @type {import('../../../extension/worker/transport.js').Transport & {add: Function, remove: Function}} */
  const host = {
    async send(tabId, sessionId, method, params = {}) {
      const tab = tabOf(tabId);
      // Frames' sessions non-flat (see above); the pipeline asks for flat ones, as chrome.debugger needs.
      if (method === 'Target.setAutoAttach') params = { ...params, flatten: false };
      if (!sessionId) return tab.cdp.send(method, params).catch((e) => { throw asChrome(e); });
      const frame = tab.frames.get(sessionId);
      if (!frame) throw new Error(`No session with given id: ${sessionId}`);
      return frame.send(method, params);
    },
    // The CDPSession is the attachment: it exists from add() to remove().
    attach: async (tabId) => { tabOf(tabId); },
    detach: async () => {},
    onEvent: on(eventListeners),
    onDetach: on(detachListeners),
    onTabUpdated: on(updateListeners),
    async tab(tabId) {
      const tab = tabOf(tabId);
      const { targetInfo } = await tab.cdp.send('Target.getTargetInfo').catch((e) => { throw asChrome(e); });
      return { id: tabId, url: targetInfo.url, title: targetInfo.title };
    },
    activeTab: async () => undefined,
    store: {
      get: async (key) => stored.get(key),
      set: async (key, value) => { stored.set(key, value); },
      remove: async (key) => { stored.delete(key); },
    },
    origin: 'chrome-extension://axsnap',
    wasm: async () => readFile(WASM.find((u) => existsSync(u)) ?? WASM[0]),

    /**
     * A page's CDPSession becomes a tab: its id, from now on.
     * @param {any} cdp  Playwright's or Puppeteer's CDPSession of the page
     * @returns {Promise<number>}
     */
    async add(cdp) {
      const { targetInfo } = await cdp.send('Target.getTargetInfo');
      const tab = new Tab(nextTab++, cdp, targetInfo.targetId);
      for (const method of [...EVENTS, 'Target.receivedMessageFromTarget']) {
        const l = (params) => emit(tab, undefined, method, params);
        cdp.on(method, l);
        tab.subscriptions.push([method, l]);
      }
      tabs.set(tab.id, tab);
      return tab.id;
    },

    /** The page closed or was let go: its sessions end, the pipeline hears it as a detach. */
    remove(tabId) {
      const tab = tabs.get(tabId);
      if (!tab || tab.closed) return;
      tab.closed = true;
      for (const [method, l] of tab.subscriptions) (tab.cdp.off ?? tab.cdp.removeListener).call(tab.cdp, method, l);
      for (const f of tab.frames.values()) f.gone();
      tabs.delete(tabId);
      for (const l of detachListeners) l(tabId);
    },
  };
  return host;
}
