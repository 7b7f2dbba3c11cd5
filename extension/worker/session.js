// Per-tab state, one owner: everything the worker knows about a tab lives in
// its TabSession, saved under one chrome.storage.session key (`tab:<id>`) so
// it outlives a service-worker restart, and ended by one `forget(tabId, why)`:
// 'closed' (the tab is gone: everything goes, and its id is remembered so a
// later request answers no_tab at once), 'detached' (the debugger left: the
// connection's state goes, refs stay), 'document' (the top frame shows a new
// document: what was read of the old one goes, typed fingerprints move on).
//
//   attached       we hold a debugger session on the tab (cdp.js)
//   calls, held    the CDP calls waiting for Chrome, and why the page answers none now (an open dialog) (cdp.js)
//   dialog         the open JavaScript dialog, saved: the worker may stop while it waits (dialogs.js)
//   ready, readying  auto-attach and Page events are on in this worker's life; the set-up in flight (frames.js)
//   watches        the subscriptions looking at the tab (watch.js): they end when it closes
//   oopifs         sessionId → {targetId, url}: the CDP sessions of its out-of-process frames (frames.js)
//   frameSessions  frameId → sessionId|null, as the last snapshot read them (refs resolve through it)
//   scopes         ref scope (policy.refScope: one per caller) → the core's Snapshotter, its ref table
//   secrets        frame key → {doc, fields}: the fields found secret in the frame's current document (secrets.js)
//   typed          the tab's salt and the fingerprints of values typed into secret fields (typed.js), never a value
//   lost           scopes whose refs could not be saved (storage full): after a restart they answer storage_full
//   axTree         the top frame's accessibility tree as last read, for the next snapshot to read only what
//                  changed (incremental.js); in memory only: after a restart the tree is read whole
//   clickFacts     the click facts of that frame as last read, updated where it changed (clickables.js); in memory only
//
// Where the next kinds of state go:
//   - per-origin grants that end with the tab ("allow once"): here, as `grants: {[origin]: {tabs, frames}}`,
//     saved with the rest; grants that outlive the tab ("always") in chrome.storage.local under `grants`,
//     owned by a grants module, read into the caller by the router.
//   - the co-pilot's conversation is per window, not per tab: chrome.storage.session under `window:<id>`,
//     owned by the panel's agent code; it names tabs by id and needs nothing from here.
//   - the tabs a desktop agent opened or was shared are per agent: chrome.storage.session under
//     `agent:<id>`, read into the caller (`{kind:'agent', id, tabs}`) by whatever accepts its connection.

import init, { Snapshotter } from '../pkg/axsnap_wasm.js';
import { AxError } from '../../protocol/errors.js';
import { newMemory, learn, typedFor } from './typed.js';
import { transport } from './transport.js';

let loadingCore;
/** The Wasm core, loaded once: the worker starts it at startup, handlers await it. */
export function coreReady() {
  loadingCore ??= transport().wasm().then((bytes) => init(bytes && { module_or_path: bytes }));
  return loadingCore;
}

const KEY = (tabId) => `tab:${tabId}`;
/** The ids of the tabs whose saved record holds typed fingerprints: after a restart, every answer is scrubbed with them. */
const TYPED_TABS = 'typed-tabs';
const VERSION = 2;
/**
 * The most one tab may keep in chrome.storage.session (10 MB for the whole
 * extension): a page with hundreds of thousands of links keeps its refs in
 * memory only, and cannot crowd out every other tab.
 */
export const TAB_RECORD_LIMIT = 1_000_000;
/** Callers per tab whose refs are kept; the least recently used goes first. */
const MAX_SCOPES = 8;

export class TabSession {
  /** @param {number} tabId @param {any} [saved] */
  constructor(tabId, saved) {
    this.tabId = tabId;
    const ok = saved && saved.v === VERSION;
    /** Saved as attached: after a restart, cdp.js checks that it still is. */
    this.attached = ok ? Boolean(saved.attached) : false;
    /** Attached in this worker's life (not only in storage). */
    this.live = false;
    /** @type {Map<string, {targetId: string, url: string}>} */
    this.oopifs = new Map(ok && saved.oopifs ? saved.oopifs : []);
    /** Restored without a list of frame sessions: they must be announced again. */
    this.announce = ok && this.attached && !saved.oopifs;
    /** @type {Record<string, string|null>} */
    this.frameSessions = (ok && saved.frameSessions) || {};
    /** @type {import('./secrets.js').Memory} node ids and reasons, never a value */
    this.secrets = (ok && saved.secrets) || {};
    /** @type {import('./typed.js').TypedMemory} fingerprints, never a value */
    this.typed = (ok && saved.typed) || newMemory();
    /** @type {Map<string, Snapshotter>} */
    this.scopes = new Map();
    /** @type {Record<string, string>} refs as saved, imported when a scope is first used */
    this.savedRefs = (ok && saved.scopes) || {};
    this.lost = new Set(ok && saved.lost ? saved.lost : []);
    /** @type {Map<string, string>} each scope's refs as last exported: saving after a frame event re-exports nothing */
    this.exported = new Map();
    this.pending = null;
    /** @type {ReturnType<typeof import('./incremental.js').keep>|null} */
    this.axTree = null;
    /** @type {import('./clickables.js').KeptFacts|null} */
    this.clickFacts = null;
    /** @type {import('./dialogs.js').Dialog|null} the open dialog, as the answers say it */
    this.dialog = (ok && saved.dialog) || null;
    /** @type {Error|null} why calls to the page fail at once (a dialog holds it); set from `dialog` by dialogs.js */
    this.held = null;
    /** @type {Set<(e: any) => void>} the calls waiting for Chrome, each a way to stop waiting */
    this.calls = new Set();
    /** Set up (auto-attach, Page events) in this worker's life. */
    this.ready = false;
    /** @type {Promise<boolean>|null} the set-up in flight: one at a time */
    this.readying = null;
    /** @type {Set<{closed: () => void}>} */
    this.watches = new Set();
  }

  /**
   * The ref table of one caller scope.
   * @param {string} scope
   * @param {{snapshot?: boolean}} [use]  a snapshot may start afresh where refs were lost
   */
  refs(scope, use = {}) {
    if (this.lost.has(scope)) {
      if (!use.snapshot) {
        throw new AxError('storage_full', 'this tab\'s refs were too large to keep while the service worker was stopped: take a new snapshot');
      }
      this.lost.delete(scope);
    }
    if (use.snapshot) this.exported.delete(scope); // its table is about to change
    let s = this.scopes.get(scope);
    if (s) {
      this.scopes.delete(scope); // keep the map in last-used order
    } else {
      s = new Snapshotter();
      const saved = this.savedRefs[scope];
      if (saved) {
        try {
          s.importRefs(saved);
        } catch { /* a table from another version: start afresh */ }
        delete this.savedRefs[scope];
      }
    }
    this.scopes.set(scope, s);
    for (const [old, table] of this.scopes) {
      if (this.scopes.size <= MAX_SCOPES) break;
      table.free();
      this.scopes.delete(old);
      this.exported.delete(old);
    }
    return s;
  }

  /** The tab shows a new document: no caller's refs may match its elements. */
  reset() {
    this.axTree = null;
    this.clickFacts = null;
    for (const s of this.scopes.values()) s.reset();
    this.exported.clear();
    this.savedRefs = {};
    this.lost.clear();
    this.save();
  }

  /** The debugger is gone (detached by the user, DevTools, a crash): refs stay, sessions go. */
  detached() {
    this.attached = false;
    this.ready = false;
    this.axTree = null;
    this.clickFacts = null;
    this.live = false;
    this.oopifs.clear();
    // If the debugger was in fact still there, the next attach finds it so and must ask for the frames again.
    this.announce = true;
    this.save();
  }

  /** The record as saved; scopes that would not fit are left out and marked lost. */
  record() {
    const scopes = { ...this.savedRefs };
    for (const [scope, s] of this.scopes) {
      if (!this.exported.has(scope)) this.exported.set(scope, s.exportRefs());
      scopes[scope] = this.exported.get(scope);
    }
    const lost = new Set(this.lost);
    const base = { v: VERSION, attached: this.attached, oopifs: [...this.oopifs], frameSessions: this.frameSessions, secrets: this.secrets, typed: this.typed, ...(this.dialog ? { dialog: this.dialog } : {}) };
    let size = JSON.stringify(base).length + Object.values(scopes).reduce((n, r) => n + r.length + 40, 0);
    for (const scope of Object.keys(scopes).sort((a, b) => scopes[b].length - scopes[a].length)) {
      if (size <= TAB_RECORD_LIMIT) break;
      size -= scopes[scope].length;
      delete scopes[scope];
      lost.add(scope);
    }
    return { ...base, scopes, lost: [...lost] };
  }

  /**
   * Saves the tab's record, at most once per turn of the event loop however
   * many changes asked for it. Never throws: storage that is full costs this
   * tab its refs after a restart (storage_full), nothing else.
   * @returns {Promise<void>}
   */
  save() {
    if (!this.pending) {
      this.pending = Promise.resolve().then(async () => {
        this.pending = null;
        if (sessions.get(this.tabId) !== this) return; // forgotten meanwhile
        const record = this.record();
        if (typedFor(this.typed)) await indexTyped(this.tabId, true);
        try {
          await transport().store.set(KEY(this.tabId), record);
        } catch {
          // Only what must outlive a restart: that we are attached, an open dialog, and which refs are lost.
          const lost = [...new Set([...record.lost, ...Object.keys(record.scopes)])];
          await transport().store.set(KEY(this.tabId), { v: VERSION, attached: record.attached, lost, ...(record.dialog ? { dialog: record.dialog } : {}) }).catch(() => {});
        }
      });
    }
    return this.pending;
  }
}

/** tabId → the session, or the promise of it while it loads from storage. */
const sessions = new Map();
const loading = new Map();
/** Tabs closed in this worker's life, oldest first (Chrome never gives a closed tab's id to another). */
const closed = new Set();
const MAX_CLOSED = 1000;
/** What else ends with a tab (grants, questions, an agent's tabs): (tabId, why) → void. */
const endings = new Set();

/** Throws `no_tab` for a tab known closed: no attach is tried, no storage read. */
export function checkOpen(tabId) {
  if (closed.has(tabId)) throw new AxError('no_tab', `tab ${tabId} was closed`);
}

/**
 * The tab's session, restored from storage after a worker restart.
 * @param {number} tabId
 * @returns {Promise<TabSession>}
 */
export async function tabSession(tabId) {
  const known = sessions.get(tabId);
  if (known) return known;
  if (!loading.has(tabId)) {
    loading.set(tabId, (async () => {
      try {
        await coreReady();
        const stored = await transport().store.get(KEY(tabId));
        const s = sessions.get(tabId) || new TabSession(tabId, stored);
        sessions.set(tabId, s);
        return s;
      } finally {
        loading.delete(tabId);
      }
    })());
  }
  return loading.get(tabId);
}

/** The tab's session if it is in memory now, else undefined: for what cannot wait (a CDP call, an event). */
export function loadedSession(tabId) {
  return sessions.get(tabId);
}

/** Runs `fn` with the tab's session: at once when it is in memory, else once loaded (events keep their order). */
export function withSession(tabId, fn) {
  const s = sessions.get(tabId);
  if (s) return fn(s);
  tabSession(tabId).then(fn, () => {});
  return undefined;
}

/** The tab's session if the worker has one (in memory or saved), else null: nothing is created. */
export async function knownSession(tabId) {
  if (sessions.has(tabId) || loading.has(tabId)) return tabSession(tabId);
  return (await transport().store.get(KEY(tabId))) ? tabSession(tabId) : null;
}

/** The tabs whose page a dialog holds now (pages of one site may share a process: cdp.js says which). */
export function heldTabs() {
  return [...sessions.values()].filter((s) => s.held).map((s) => s.tabId);
}

/** The typed-value memories of the tabs in memory (typed.js scrubs with them); `allTypedMemories` also loads saved ones. */
export function typedMemories() {
  return [...sessions.values()].map((s) => s.typed).filter((m) => m.prints.length || m.before.length);
}

/** @type {Promise<Set<number>>|null} the tabs in TYPED_TABS, read once per worker life */
let typedTabs = null;
const readTypedTabs = () => {
  typedTabs ??= transport().store.get(TYPED_TABS).then((ids) => new Set(Array.isArray(ids) ? ids : []), () => new Set());
  return typedTabs;
};

/** Adds or drops a tab in TYPED_TABS. */
async function indexTyped(tabId, on) {
  const ids = await readTypedTabs();
  if (ids.has(tabId) === on) return;
  if (on) ids.add(tabId);
  else ids.delete(tabId);
  await transport().store.set(TYPED_TABS, [...ids]).catch(() => {});
}

/**
 * The typed-value memories of every tab that has some, its session loaded
 * from storage if the worker restarted since: what was typed in a tab not
 * read again yet (its title in the tab list, its URL) is cut from every answer too.
 */
export async function allTypedMemories() {
  const ids = await readTypedTabs();
  await Promise.all([...ids].filter((id) => !sessions.has(id) && !closed.has(id)).map((id) => tabSession(id).catch(() => {})));
  return typedMemories();
}

/** Adds what else ends with a tab: called with (tabId, why) by every `forget`. */
export function onForget(/** @type {(tabId: number, why: 'closed'|'detached'|'document') => void} */ fn) {
  endings.add(fn);
  return () => { endings.delete(fn); };
}

/**
 * What ends with the tab, its debugger connection or its document, in one place.
 * @param {number} tabId
 * @param {'closed'|'detached'|'document'} why
 * @param {{document?: string, remember?: boolean}} [o]  document: with 'document', the top frame's new one (Chrome's
 *   loaderId); remember: with 'closed', false when the tab was only found missing (a request's no_tab), not seen to close
 */
export async function forget(tabId, why, o = {}) {
  if (why === 'closed') {
    if (closed.has(tabId)) return; // forgotten already
    if (o.remember !== false) closed.add(tabId);
    for (const id of closed) {
      if (closed.size <= MAX_CLOSED) break;
      closed.delete(id);
    }
    const s = sessions.get(tabId);
    sessions.delete(tabId);
    if (s) {
      for (const table of s.scopes.values()) table.free();
      const gone = new AxError('no_tab', `tab ${tabId} was closed`);
      for (const stop of s.calls) stop(gone);
      for (const w of [...s.watches]) w.closed();
    }
    // Grants, questions and agents' tabs end on the browser's word only.
    if (o.remember !== false) for (const fn of endings) tryEach(fn, tabId, why);
    await transport().store.remove(KEY(tabId)).catch(() => {});
    await indexTyped(tabId, false);
    return;
  }
  const s = why === 'detached' ? await knownSession(tabId) : sessions.get(tabId);
  if (s && why === 'detached') s.detached();
  if (s && why === 'document') {
    s.axTree = null;
    s.clickFacts = null;
    // Typed into the document before: kept as `before` (the new document may show what was sent), older ones go.
    if (o.document && o.document !== s.typed.doc) {
      learn(s.typed, o.document, []);
      s.save();
    }
  }
  for (const fn of endings) tryEach(fn, tabId, why);
}

function tryEach(fn, tabId, why) {
  try {
    fn(tabId, why);
  } catch { /* one ending's failure does not keep the others from running */ }
}
