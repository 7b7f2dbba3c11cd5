// The extension's service worker. Every listener is registered here,
// synchronously, at the top level: a listener added after an await misses
// the message that woke the worker.

import { handle } from './router.js';
import { callerFrom } from './policy.js';
import { forget, onForget, coreReady } from './session.js';
import { startPipeline } from './pipeline.js';
import { chromeHost } from './chrome_host.js';
import { startAgents } from './agents.js';
import { openPort, cutPorts } from './ports.js';
import { forgetTabGrants, KEY as GRANTS } from './grants.js';
import { syncBridges } from '../bridge/register.js';
import { clearEdgeRules } from './edge.js';

const extensionOrigin = new URL(chrome.runtime.getURL('')).origin;
// The pipeline's events are heard from here on (chrome.debugger's, registered now, at the top level).
startPipeline(chromeHost);
coreReady(); // the Wasm core loads while the first message is on its way

chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  handle(msg, callerFrom(sender, { external: false, extensionOrigin })).then(sendResponse);
  return true; // the response is async
});

chrome.runtime.onMessageExternal.addListener((msg, sender, sendResponse) => {
  handle(msg, callerFrom(sender, { external: true, extensionOrigin })).then(sendResponse);
  return true;
});

// Long-lived ports: the bridge content script (onConnect) and localhost pages (onConnectExternal).
chrome.runtime.onConnect.addListener((port) => {
  const caller = callerFrom(port.sender, { external: false, extensionOrigin });
  // A web sender on onConnect is the bridge content script (the only one the extension has).
  openPort(port, caller, { bridge: caller.kind === 'web' });
});

chrome.runtime.onConnectExternal.addListener((port) => {
  openPort(port, callerFrom(port.sender, { external: true, extensionOrigin }));
});

// The person narrowed a grant (revoke, deny, a closed tab): open ports of that site close at once.
// The bridge follows the answers, per host: registered while an origin there is answered, gone after.
chrome.storage.onChanged.addListener((changes) => {
  if (!changes[GRANTS]) return;
  cutPorts();
  syncBridges().catch(() => {});
});
// Host access granted in the person's click may land after the answer is stored; taken back in Chrome, it ends the bridge.
chrome.permissions.onAdded.addListener(() => { syncBridges().catch(() => {}); });
chrome.permissions.onRemoved.addListener(() => { syncBridges().catch(() => {}); });

// The one listener for a closed tab: its session ends everything about it (refs, calls waiting, dialog,
// subscriptions, questions to the person, agents' tabs) and remembers it closed; its once-grants end here.
chrome.tabs.onRemoved.addListener((tabId) => {
  forget(tabId, 'closed').catch(() => {});
});
onForget((tabId, why) => {
  if (why === 'closed') forgetTabGrants(tabId).catch(() => {});
});

// No reset on tabs.onUpdated: it fires for history-API URL changes too,
// which keep the document and its refs. Each ref carries its document
// (the frame's loaderId), checked before every action.

// A guard's network rule outlives a worker stopped mid-action: none is running now.
clearEdgeRules().catch(() => {});

// Desktop agents (MCP servers on this computer), when the person allows them.
startAgents();

chrome.runtime.onInstalled.addListener(() => {
  chrome.sidePanel.setPanelBehavior({ openPanelOnActionClick: true }).catch(() => {});
});

// "Always allow" sites keep their bridge across browser restarts and extension updates (register.js).
const restore = () => syncBridges().catch(() => {});
chrome.runtime.onStartup.addListener(restore);
chrome.runtime.onInstalled.addListener(restore);
