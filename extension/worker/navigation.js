// Tabs and navigation, through chrome.tabs (no debugger needed, so they work
// from pages the extension cannot read, such as a new tab page; `back` uses
// it where it can): list, open, switch, close, navigate, back. Every wait for
// a page load is bounded.

import { AxError } from '../../protocol/errors.js';
import { fromChrome } from './errors.js';
import { send } from './cdp.js';
import { attachTab } from './frames.js';
import { transport } from './transport.js';

/** A tab as the protocol describes it. */
export const tabInfo = (t) => ({ tabId: t.id, windowId: t.windowId, title: t.title || '', url: t.url || t.pendingUrl || '', active: t.active });

export async function getTab(tabId) {
  try {
    return await transport().tab(tabId);
  } catch (e) {
    throw fromChrome(e, `tab ${tabId}`);
  }
}

/** The tabs `may` lets the caller reach. */
export async function listTabs(may) {
  const all = await chrome.tabs.query({});
  return { tabs: all.filter((t) => Number.isInteger(t.id) && t.id >= 0 && may(t.id)).map(tabInfo) };
}

/**
 * Starts a navigation with `start` and waits for its tab to finish loading,
 * at most `timeout` ms. Events are watched from before the start, so a fast
 * load is never missed. `start` answers the tab's id (open learns it late).
 * @param {() => Promise<number>} start
 * @param {number} timeout
 */
async function loaded(start, timeout, readable) {
  const loading = new Set();
  const done = new Set();
  /** @type {(value?: unknown) => void} */
  let wake = () => {};
  const onUpdated = (id, change) => {
    if (change.status === 'loading') loading.add(id);
    else if (change.status === 'complete' && loading.has(id)) done.add(id);
    // A new URL without a load: a same-document navigation (history.pushState, a fragment), done at once.
    else if (change.url && !change.status && !loading.has(id)) done.add(id);
    wake();
  };
  const removed = new Set();
  const onRemoved = (id) => {
    removed.add(id);
    wake();
  };
  chrome.tabs.onUpdated.addListener(onUpdated);
  chrome.tabs.onRemoved.addListener(onRemoved);
  let timer;
  try {
    const tabId = await start();
    const until = Date.now() + timeout;
    const timedOut = new Promise((resolve) => { timer = setTimeout(resolve, timeout); });
    while (!done.has(tabId) && !removed.has(tabId) && Date.now() < until) {
      await Promise.race([new Promise((resolve) => { wake = resolve; }), timedOut]);
    }
    const tab = await getTab(tabId);
    if (done.has(tabId) && readable) await refuseErrorPage(tabId, tab);
    return { ...tabInfo(tab), loaded: done.has(tabId) };
  } finally {
    clearTimeout(timer);
    chrome.tabs.onUpdated.removeListener(onUpdated);
    chrome.tabs.onRemoved.removeListener(onRemoved);
  }
}

/**
 * A load Chrome could not make ends on its own error page, while the tab
 * keeps the asked-for URL and says `complete`: only the frame tree tells
 * (`unreachableUrl`). Read where the debugger may go; a page it cannot
 * attach to stays as the tab says.
 */
async function refuseErrorPage(tabId, tab) {
  let frame;
  try {
    await attachTab(tabId);
    frame = (await send(tabId, undefined, 'Page.getFrameTree')).frameTree?.frame;
  } catch {
    return;
  }
  if (frame?.unreachableUrl) {
    throw new AxError('load_failed', `tab ${tabId} could not load ${frame.unreachableUrl}: Chrome shows its error page (${tab.title || 'no title'})`, { tabId });
  }
}

export function openTab(url, active, timeout, readable) {
  return loaded(async () => (await chrome.tabs.create({ url, active: active ?? true })).id, timeout, readable);
}

export async function switchTab(tabId) {
  const tab = await getTab(tabId);
  await chrome.tabs.update(tabId, { active: true });
  await chrome.windows.update(tab.windowId, { focused: true }).catch(() => {});
  return tabInfo(await getTab(tabId));
}

export async function closeTab(tabId) {
  await getTab(tabId);
  await chrome.tabs.remove(tabId);
  return { tabId };
}

/** `readable`: whether the debugger may attach to the tab's new page (to tell an error page). */
export function navigate(tabId, url, timeout, readable) {
  return loaded(async () => {
    await getTab(tabId);
    await chrome.tabs.update(tabId, { url });
    return tabId;
  }, timeout, readable);
}

/**
 * One page back. Through the debugger where the page is readable: Chrome's
 * own goBack skips entries a page added without a user gesture, which is
 * every page an agent opened. `readable` says whether the tab may be attached to.
 */
export function back(tabId, timeout, readable) {
  const none = () => new AxError('no_history', `tab ${tabId} has no earlier page to go back to`);
  return loaded(async () => {
    await getTab(tabId);
    if (readable) {
      await attachTab(tabId);
      const { currentIndex, entries } = await send(tabId, undefined, 'Page.getNavigationHistory');
      if (!(currentIndex > 0)) throw none();
      await send(tabId, undefined, 'Page.navigateToHistoryEntry', { entryId: entries[currentIndex - 1].id });
      return tabId;
    }
    try {
      await chrome.tabs.goBack(tabId);
    } catch (e) {
      if (/history/i.test(String(e && e.message))) throw none();
      throw fromChrome(e, 'back');
    }
    return tabId;
  }, timeout, readable);
}
