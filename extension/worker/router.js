// The one way into the extension: handle(msg, caller) validates a request
// against the protocol (protocol/), asks the policy what this caller may
// reach, runs the command, and turns every failure into
// {ok:false, error:{code, message}} — here and nowhere else.

import { validateRequest, requestId } from '../../protocol/validate.js';
import { PROTOCOL_VERSION, OPTIONS, FEATURES, MAX_UPLOAD_BYTES } from '../../protocol/protocol.js';
import { AxError, toPayload } from './errors.js';
import { COMMANDS as PROTOCOL_COMMANDS } from '../../protocol/protocol.js';
import { allowed, checkCommand, checkConsent, commandsFor, mayReachTab, targetTab, visibleFrames, refScope, restrictedReason, navigableUrl, seesTopPage, tabAsSeenBy } from './policy.js';
import { readGrant, ask } from './grants.js';
import { RateLimiter } from './rate.js';
import { snapshot } from './snapshot.js';
import { act, present } from './actions.js';
import { waitFor } from './wait.js';
import { highlight, clearHighlight } from './highlight.js';
import { capture } from './screenshot.js';
import { upload } from './upload.js';
import { watch } from './settle.js';
import { tabSession, forget, checkOpen, coreReady, allTypedMemories } from './session.js';
import { gather, scrubAnswer } from './typed.js';
import { attachTab, listFrames } from './frames.js';
import { getTab, listTabs, openTab, switchTab, closeTab, navigate, back } from './navigation.js';
import { guardOf, guardAct, checkNavigation, guardAnswer } from './guard.js';
import { version } from '../pkg/axsnap_wasm.js';
import { transport } from './transport.js';

/** @typedef {{watches: import('./watch.js').Watches}} PortContext  a long-lived port's own state */

const DEFAULT_TIMEOUT = 15000;
const extensionOrigin = () => transport().origin;

/** The tab a request is about, checked against the policy; `null` when the caller may not name one. */
async function tabOf(req, caller) {
  const t = targetTab(caller, req.tabId);
  if (t !== 'active') {
    checkOpen(t);
    return t;
  }
  const id = await transport().activeTab();
  if (id === undefined) throw new AxError('no_tab', 'no active tab: pass tabId');
  return id;
}

/** Why Chrome lets no extension read the tab's page, from its URL, or null; the URL only to a caller that sees the top page. */
async function restricted(tabId, caller = undefined) {
  const tab = await getTab(tabId);
  const why = restrictedReason(tab.url || tab.pendingUrl, extensionOrigin());
  return why && (caller && !seesTopPage(caller, tabId) ? why : `${why}: tab ${tabId} shows ${tab.url || tab.pendingUrl}`);
}

/** The tab a new tab is opened from, for the panel to say where the ask comes from: an agent's first tab, else the active one. */
async function panelTab(caller) {
  if (caller.kind === 'agent' && caller.tabs.length) return caller.tabs[0];
  const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
  return tab?.id ?? -1;
}

/** Refuses pages Chrome lets no extension read, before attaching. */
async function readable(tabId, caller) {
  const why = await restricted(tabId, caller);
  if (why) throw new AxError('restricted_page', why);
}

/** The frames a caller may see, as collectFrames wants it; refuses when that is none. */
function framesFor(caller, tabId) {
  return (frames) => {
    const visible = visibleFrames(caller, frames, tabId);
    if (visible && visible.size === 0) throw new AxError('forbidden', 'no frame of this tab belongs to the asking page\'s origin (did it navigate?)');
    return visible;
  };
}

/** Resolves a ref through the caller's table, and checks its frame is still one the caller may see. */
async function target(tabId, ref, caller) {
  const session = await tabSession(tabId);
  let t;
  try {
    t = session.refs(refScope(caller)).resolve(ref);
  } catch (e) {
    throw new AxError(e.code || 'bad_ref', e.message);
  }
  if (caller.kind === 'web') {
    await attachTab(tabId);
    const frames = await listFrames(tabId);
    if (!frames.some((f) => f.frameId === t.frame)) throw new AxError('stale_ref', `${ref} is stale: its frame is gone; take a new snapshot`);
    const visible = visibleFrames(caller, frames, tabId);
    if (visible && !visible.has(t.frame)) throw new AxError('forbidden', `${ref} is in a frame this page may not reach (another origin, or the top page)`);
  }
  const sessionId = session.frameSessions[t.frame] || undefined;
  return { tabId, sessionId, backendNodeId: t.backendNodeId, ref, frame: t.frame, document: t.document, role: t.role, name: t.name, url: t.url };
}

/** An action, and with `snapshot`, the page once it settled (a guarded action's held requests decided first). */
async function actAndLook(req, caller, tabId, t, to, guarding) {
  // Watching starts before the action, so nothing it causes is missed.
  const watching = req.snapshot ? await watch(tabId) : null;
  let result;
  try {
    // The whole request too: an action's own fields (protocol ACTIONS[…].fields) travel with it.
    result = await act(t, req.action, req.value, req, to);
  } catch (e) {
    watching?.stop();
    throw e;
  }
  const done = { action: req.action, ...(req.ref === undefined ? {} : { ref: req.ref }), ...result };
  if (!watching) return done;
  if (done.dialog) {
    // A dialog holds the page: nothing settles until it is answered.
    watching.stop();
    return done;
  }
  await guarding?.idle();
  const settled = await watching.settled();
  try {
    const snap = await snapshot(tabId, req.snapshot, { scope: refScope(caller), keep: framesFor(caller, tabId) });
    return { ...done, settled, ...snap };
  } catch (e) {
    // The action was done: say so, and why there is no snapshot (the page closed its tab, …).
    const { code, message } = toPayload(e);
    return { ...done, settled, snapshotError: { code, message } };
  }
}

/** An upload's files checked before anything reaches the page: names, base64, their size together. */
function uploadSize(files) {
  let bytes = 0;
  for (const [i, f] of files.entries()) {
    if (!f.name || /[/\\\0]/.test(f.name)) throw new AxError('bad_request', `files[${i}].name must be a file's name without a folder`);
    if (typeof f.data !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(f.data) || f.data.length % 4) throw new AxError('bad_request', `files[${i}].data must be base64`);
    bytes += (f.data.length / 4) * 3 - (f.data.endsWith('==') ? 2 : f.data.endsWith('=') ? 1 : 0);
  }
  if (bytes > MAX_UPLOAD_BYTES) throw new AxError('too_large', `the files are ${bytes} bytes together, more than ${MAX_UPLOAD_BYTES}: nothing was put in the input`);
  return bytes;
}

/** One function per command of the protocol, each given the validated request and the caller. */
const COMMANDS = {
  ping: async () => ({ version: version(), protocol: PROTOCOL_VERSION }),

  hello: async (req, caller) => {
    const open = await chrome.tabs.query({});
    return {
      version: version(),
      protocol: PROTOCOL_VERSION,
      access: caller.kind === 'web' ? caller.grant?.access ?? 'none' : 'extension',
      commands: commandsFor(caller, Object.keys(PROTOCOL_COMMANDS)),
      tabs: open.map((t) => t.id).filter((id) => id !== undefined && mayReachTab(caller, id)),
      features: Object.keys(FEATURES),
    };
  },

  snapshot: async (req, caller, _port, o = {}) => {
    const tabId = await tabOf(req, caller);
    await readable(tabId, caller);
    return { tabId, ...(await snapshot(tabId, req.options || {}, { scope: refScope(caller), keep: framesFor(caller, tabId), forms: o.forms })) };
  },

  watch: async (req, caller, port) => {
    if (!port) throw new AxError('bad_request', 'watch needs a long-lived port (chrome.runtime.connect, or the bridge): a single message cannot carry its events');
    const options = { ...req.options };
    delete options.diff; // the subscription decides: every look is a diff where diffs can be made
    const first = await COMMANDS.snapshot({ ...req, options }, caller);
    // Diffs are made of whole-page text snapshots (the core's options.diff), where this extension has them.
    const diffs = 'diff' in OPTIONS && options.format !== 'json' && options.root === undefined;
    const again = { cmd: 'snapshot', tabId: first.tabId, options: diffs ? { ...options, diff: true } : options };
    const watch = port.watches.start({ tabId: first.tabId, interval: req.interval ?? 1000, diffs, first: first.text, look: () => handle(again, caller, undefined, { forms: false }) });
    return { watch, ...first };
  },

  unwatch: async (req, caller, port) => {
    if (!port) throw new AxError('bad_request', 'unwatch works on the long-lived port its watch came on');
    if (!port.watches.stop(req.watch)) throw new AxError('bad_request', `no subscription ${req.watch} on this port`);
    return {};
  },

  resolve: async (req, caller) => {
    const tabId = await tabOf(req, caller);
    const t = await target(tabId, req.ref, caller);
    return { ref: t.ref, backendNodeId: t.backendNodeId, frame: t.frame, role: t.role, name: t.name, ...(t.url ? { url: t.url } : {}) };
  },

  highlight: async (req, caller) => {
    const tabId = await tabOf(req, caller);
    await readable(tabId, caller);
    await attachTab(tabId);
    if (req.ref === undefined) {
      await clearHighlight(tabId);
      return {};
    }
    const t = await target(tabId, req.ref, caller);
    await highlight(t);
    return { ref: t.ref };
  },

  act: async (req, caller) => {
    const tabId = await tabOf(req, caller);
    await readable(tabId, caller);
    await attachTab(tabId, { allowDialog: req.action === 'dialog' });
    const t = req.ref === undefined ? { tabId, ref: 'page' } : await target(tabId, req.ref, caller);
    // A second ref (drag's `to`) passes the same checks as the first.
    const to = req.to === undefined ? undefined : await target(tabId, req.to, caller);
    // What was typed into secret fields is known before the action sends it anywhere (a form, a new document).
    await gather(tabId, await tabSession(tabId)).catch(() => {});
    const guard = req.action === 'dialog' ? null : await guardOf(caller, req);
    // The guard holds from before the press until the page settled (or edge.js's HOLD_MS), and says what it blocked.
    const guarding = guard ? await guardAct(guard, tabId, t, req) : null;
    let done;
    try {
      done = await actAndLook(req, caller, tabId, t, to, guarding);
    } finally {
      const said = await guarding?.stop(Boolean(done?.settled));
      if (done && said) Object.assign(done, said);
    }
    return done;
  },

  screenshot: async (req, caller) => {
    const tabId = await tabOf(req, caller);
    await readable(tabId, caller);
    // A look of its own first: the core decides afresh which fields are secret, for the paint to cover them,
    // in a table of its own, so the caller's refs and the snapshot its next diff compares with stay as they were.
    await snapshot(tabId, { mode: 'interactive', maxChars: 0 }, { scope: `${refScope(caller)} screenshot`, keep: framesFor(caller, tabId) });
    const t = req.ref === undefined ? null : await target(tabId, req.ref, caller);
    const shot = await capture(tabId, t, await tabSession(tabId));
    return { tabId, ...(t ? { ref: t.ref } : {}), ...shot };
  },

  upload: async (req, caller) => {
    const tabId = await tabOf(req, caller);
    await readable(tabId, caller);
    await attachTab(tabId);
    const bytes = uploadSize(req.files);
    const t = await target(tabId, req.ref, caller);
    // The page may send the files on as the input changes (a form submitted from its change handler): held as an act's press would be.
    const guard = await guardOf(caller, req);
    const guarding = guard ? await guardAct(guard, tabId, t, { action: 'upload' }) : null;
    let done;
    try {
      done = { tabId, ref: t.ref, ...(await upload(t, req.files)) };
      await guarding?.idle();
    } finally {
      const said = await guarding?.stop();
      if (done && said) Object.assign(done, said);
    }
    if (done.bytes !== bytes) throw new AxError('internal', `${bytes} bytes were sent, the input holds ${done.bytes}`);
    return done;
  },

  wait_for: async (req, caller) => {
    const tabId = await tabOf(req, caller);
    // The tab's URL is the top page's: a frame embedded in it could learn it piece by piece.
    if (req.url !== undefined && !seesTopPage(caller, tabId)) throw new AxError('forbidden', 'a page that is not the top frame may not wait for the tab\'s URL: it is the top page\'s');
    await readable(tabId, caller);
    // Its own ref table: polling must not move the caller's refs or the snapshot its next diff compares with.
    const reader = { scope: `${refScope(caller)} wait`, keep: framesFor(caller, tabId), forms: false };
    return waitFor(req, {
      text: async () => (await snapshot(tabId, { maxChars: 0 }, reader)).text,
      // A form sent with GET puts what was typed into the URL: waiting for it must not tell it.
      url: async () => scrubAnswer((await getTab(tabId)).url || '', await allTypedMemories()),
      gone: async (ref) => {
        let t;
        try {
          t = await target(tabId, ref, caller);
        } catch (e) {
          if (e.code === 'stale_ref') return true;
          throw e;
        }
        return !(await present(t));
      },
    }, 'signal' in caller ? caller.signal : undefined);
  },

  reset: async (req, caller) => {
    const tabId = await tabOf(req, caller);
    const session = await tabSession(tabId);
    session.refs(refScope(caller), { snapshot: true }).reset();
    await session.save();
    return {};
  },

  tabs: async (req, caller) => {
    const timeout = req.timeout ?? DEFAULT_TIMEOUT;
    switch (req.action ?? 'list') {
      case 'list': {
        const { tabs } = await listTabs((id) => mayReachTab(caller, id));
        return { tabs: tabs.map((t) => tabAsSeenBy(caller, t)) };
      }
      case 'open': {
        const url = navigableUrl(req.url);
        const guard = await guardOf(caller, req);
        await checkNavigation(guard, await panelTab(caller), url);
        return { ...(await openTab(url, req.active, timeout, !restrictedReason(url, extensionOrigin()))), ...guardAnswer(guard) };
      }
      case 'switch': return switchTab(targetTab(caller, req.tabId));
      case 'close': return closeTab(targetTab(caller, req.tabId));
      default: throw new AxError('internal', `tabs ${req.action} has no handler`);
    }
  },

  navigate: async (req, caller) => {
    const tabId = await tabOf(req, caller);
    // A link's URL as the snapshot printed it is relative to the tab's page.
    const from = (await getTab(tabId)).url;
    const url = navigableUrl(req.url, URL.canParse(req.url) ? undefined : from);
    const guard = await guardOf(caller, req);
    await checkNavigation(guard, tabId, url, from);
    return { ...(await navigate(tabId, url, req.timeout ?? DEFAULT_TIMEOUT, !restrictedReason(url, extensionOrigin()))), ...guardAnswer(guard) };
  },

  back: async (req, caller) => {
    const tabId = await tabOf(req, caller);
    return back(tabId, req.timeout ?? DEFAULT_TIMEOUT, !(await restricted(tabId)));
  },
};

/**
 * Answers one request. Never throws: every outcome is a response.
 * @param {unknown} msg  the request as it arrived
 * @param {import('./policy.js').Caller} caller  who asks, from Chrome's sender (policy.callerFrom)
 * @param {PortContext} [port]  the long-lived port it came on, if any (for `watch`)
 * @param {{forms?: boolean}} [o]  the worker's own requests: forms false when the answer's refs are not read
 *   (a subscription's looks), so their forms' facts are not collected
 */
export async function handle(msg, caller, port = undefined, o = {}) {
  let req;
  let tabId;
  let done = () => {};
  try {
    if (caller.kind === 'web') done = limiter.start(caller.origin);
    req = validateRequest(msg);
    if (caller.kind === 'web') {
      caller = { ...caller, grant: await readGrant(caller.origin) };
      await askIfNew(caller, req);
      checkConsent(caller, req);
    }
    checkCommand(caller, req);
    await coreReady();
    const run = COMMANDS[req.cmd];
    if (!run) throw new AxError('internal', `${req.cmd} has no handler`);
    const { data: image, ...result } = await run(req, caller, port, o);
    tabId = result.tabId;
    // Nothing the extension says holds what was typed into a secret field: titles, URLs, errors, dialogs.
    // A screenshot's pixels are not text (its secret fields are painted over): cutting letters out of them would break the image.
    const answer = scrubAnswer({ ok: true, ...echo(msg), ...result }, await allTypedMemories());
    return image === undefined ? answer : { ...answer, data: image };
  } catch (e) {
    const error = toPayload(e);
    if (error.code === 'detached' || error.code === 'no_tab') await forgetAttachment(error.code, req, caller, tabId);
    return scrubAnswer({ ok: false, ...echo(msg), error }, await allTypedMemories().catch(() => []));
  } finally {
    done();
  }
}

/** Per-origin request budget and working slots of web callers: a flood costs the flooding site alone. */
const limiter = new RateLimiter();

/** A site the person has not answered yet: the panel asks them (pages with no tab or an opaque origin are not worth asking about). */
async function askIfNew(caller, req) {
  const access = caller.grant?.access;
  if (access === 'denied' || access === 'revoked' || req.cmd === 'ping' || allowed(caller)) return;
  if (caller.tabId === undefined || caller.origin === 'null') return;
  await ask({ origin: caller.origin, tabId: caller.tabId, url: caller.url || caller.origin, cmd: req.cmd, at: Date.now() });
}

/** The request's id, echoed in its answer (refusals included) so callers on a port can match them. */
function echo(msg) {
  const id = requestId(msg);
  return id === undefined ? {} : { id };
}

/**
 * Detached without an onDetach event (our own detach, a race, a missed
 * event): whichever tab the request was about, with or without `tabId`, the
 * next request must attach again.
 */
async function forgetAttachment(error, req, caller, known) {
  try {
    const tabId = known ?? (req ? await tabOf(req, caller) : undefined);
    if (tabId === undefined) return;
    // A no_tab found by a request is not remembered as closed: only the browser's word is (tabs.onRemoved).
    await forget(tabId, error === 'no_tab' ? 'closed' : 'detached', { remember: false });
  } catch { /* no tab to forget */ }
}
