// The message protocol: validates a request, runs it, and turns every
// failure into {ok:false, error:{code, message}} — here and nowhere else.
//
//   {cmd:"snapshot", tabId?, options?}       → {ok:true, text, stats}
//   {cmd:"act", tabId?, ref?, action, value?} → {ok:true, action, ref, ...}
//   {cmd:"resolve", tabId?, ref}             → {ok:true, ref, backendNodeId, frame, role, name, url?}
//   {cmd:"reset", tabId?}                     → {ok:true}
//   {cmd:"ping"}                              → {ok:true, version}

import { AxError, toPayload } from './errors.js';
import { snapshot } from './snapshot.js';
import { act, ACTIONS, WITHOUT_REF } from './actions.js';
import { tabState, resetTab, ready } from './tabs.js';
import { forgetTab } from './cdp.js';
import { attachTab, forgetSessions } from './frames.js';
import { version } from '../pkg/axsnap_wasm.js';

const OPTION_TYPES = { mode: 'string', format: 'string', maxChars: 'number', maxDepth: 'number', maxText: 'number', maxUrl: 'number', root: 'string', full: 'boolean' };

function checkOptions(options) {
  if (options === undefined) return {};
  if (!options || typeof options !== 'object' || Array.isArray(options)) throw new AxError('bad_request', 'options must be an object');
  for (const [k, v] of Object.entries(options)) {
    if (!(k in OPTION_TYPES)) throw new AxError('bad_request', `unknown option ${JSON.stringify(k)}: known are ${Object.keys(OPTION_TYPES).join(', ')}`);
    if (v !== undefined && typeof v !== OPTION_TYPES[k]) throw new AxError('bad_request', `option ${k} must be a ${OPTION_TYPES[k]}`);
    if (OPTION_TYPES[k] === 'number' && v !== undefined && (!Number.isInteger(v) || v < 0)) throw new AxError('bad_request', `option ${k} must be a whole number ≥ 0`);
  }
  return options;
}

async function targetTab(msg, sender, external) {
  if (msg.tabId !== undefined && (!Number.isInteger(msg.tabId) || msg.tabId < 0)) throw new AxError('bad_request', 'tabId must be a tab id (a whole number)');
  if (external) {
    // A web page may only look at and act on its own tab.
    const own = sender.tab && sender.tab.id;
    if (own === undefined) throw new AxError('forbidden', 'external requests must come from a tab');
    if (msg.tabId !== undefined && msg.tabId !== own) throw new AxError('forbidden', 'a web page may only snapshot its own tab');
    return own;
  }
  if (msg.tabId !== undefined) return msg.tabId;
  if (sender.tab && sender.tab.id !== undefined && !String(sender.url || '').startsWith('chrome-extension://')) return sender.tab.id;
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  if (!tab || tab.id === undefined) throw new AxError('no_tab', 'no active tab: pass tabId');
  return tab.id;
}

function checkRef(ref, required) {
  if (ref === undefined && !required) return undefined;
  if (typeof ref !== 'string') throw new AxError('bad_request', 'ref must be a string like "A7"');
  return ref;
}

function checkValue(action, value) {
  if (['fill', 'type', 'select', 'press'].includes(action) && typeof value !== 'string') {
    throw new AxError('bad_request', `${action} needs a string value`);
  }
  if (action === 'scroll' && value !== undefined && typeof value !== 'string' && typeof value !== 'number') {
    throw new AxError('bad_request', 'scroll value is "up", "down" or a number of pixels');
  }
}

/** Resolves a ref through the tab's table into an action target. */
async function target(tabId, ref) {
  const st = await tabState(tabId);
  let t;
  try {
    t = st.snapshotter.resolve(ref);
  } catch (e) {
    throw new AxError(e.code || 'bad_ref', e.message);
  }
  const sessionId = st.frameSessions[t.frame] || undefined;
  return { tabId, sessionId, backendNodeId: t.backendNodeId, ref, frame: t.frame, role: t.role, name: t.name, url: t.url };
}

async function run(msg, sender, external) {
  if (!msg || typeof msg !== 'object' || Array.isArray(msg)) throw new AxError('bad_request', 'a request is an object like {cmd:"snapshot"}');
  if (typeof msg.cmd !== 'string') throw new AxError('bad_request', 'the request has no cmd: use snapshot, act, resolve, reset or ping');
  await ready;
  switch (msg.cmd) {
    case 'ping':
      return { version: version() };
    case 'snapshot': {
      const tabId = await targetTab(msg, sender, external);
      return { tabId, ...(await snapshot(tabId, checkOptions(msg.options))) };
    }
    case 'resolve': {
      const tabId = await targetTab(msg, sender, external);
      const t = await target(tabId, checkRef(msg.ref, true));
      return { ref: t.ref, backendNodeId: t.backendNodeId, frame: t.frame, role: t.role, name: t.name, ...(t.url ? { url: t.url } : {}) };
    }
    case 'act': {
      if (typeof msg.action !== 'string' || !ACTIONS.includes(msg.action)) {
        throw new AxError('bad_request', `action must be one of ${ACTIONS.join(', ')}`);
      }
      checkValue(msg.action, msg.value);
      const tabId = await targetTab(msg, sender, external);
      const ref = checkRef(msg.ref, !WITHOUT_REF.has(msg.action));
      await attachTab(tabId);
      const t = ref === undefined ? { tabId, ref: 'page' } : await target(tabId, ref);
      const result = await act(t, msg.action, msg.value);
      return { action: msg.action, ...(ref === undefined ? {} : { ref }), ...result };
    }
    case 'reset': {
      const tabId = await targetTab(msg, sender, external);
      await resetTab(tabId);
      return {};
    }
    default:
      throw new AxError('unknown_command', `unknown cmd ${JSON.stringify(msg.cmd)}: use snapshot, act, resolve, reset or ping`);
  }
}

/** Never throws: every outcome is a response. */
export async function handle(msg, sender, external = false) {
  try {
    return { ok: true, ...(await run(msg, sender || {}, external)) };
  } catch (e) {
    const error = toPayload(e);
    // Detached without an onDetach event (our own detach, or a race): the
    // next request must attach again.
    if ((error.code === 'detached' || error.code === 'no_tab') && msg && Number.isInteger(msg.tabId)) {
      await forgetTab(msg.tabId);
      forgetSessions(msg.tabId);
    }
    return { ok: false, error };
  }
}
