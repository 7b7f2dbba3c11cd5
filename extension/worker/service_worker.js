// The extension's service worker. Every listener is registered here,
// synchronously, at the top level: a listener added after an await misses
// the message that woke the worker.

import { handle } from './router.js';
import { onDebuggerEvent, forgetSessions } from './frames.js';
import { forgetTab } from './cdp.js';
import { dropTab, resetTab } from './tabs.js';

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  handle(msg, sender, false).then(sendResponse);
  return true; // the response is async
});

chrome.runtime.onMessageExternal.addListener((msg, sender, sendResponse) => {
  handle(msg, sender, true).then(sendResponse);
  return true;
});

chrome.debugger.onEvent.addListener((source, method, params) => {
  onDebuggerEvent(source, method, params);
});

chrome.debugger.onDetach.addListener((source) => {
  if (source.tabId === undefined) return;
  forgetTab(source.tabId);
  forgetSessions(source.tabId);
});

chrome.tabs.onRemoved.addListener((tabId) => {
  forgetTab(tabId);
  forgetSessions(tabId);
  dropTab(tabId);
});

chrome.tabs.onUpdated.addListener((tabId, change) => {
  // A new document: refs of the old one must never match its elements.
  if (change.status === 'loading' && change.url) resetTab(tabId);
});

chrome.runtime.onInstalled.addListener(() => {
  chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
});
