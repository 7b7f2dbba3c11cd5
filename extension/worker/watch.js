// Subscriptions (`watch`) over one long-lived port: each looks at its tab
// every `interval` ms through the router (so consent, policy and the rate
// limit are asked every time) and pushes a `change` event when the tab
// changed: the diff where the extension makes diffs (options.diff), else the
// whole snapshot when its text differs. A subscription ends on `unwatch`,
// when its port closes, when its tab closes (`ended`, no_tab) and when a look
// fails for good (`ended` with that code: revoked, denied, forbidden, …);
// a page busy for a moment only skips a look.

import { AxError } from '../../protocol/errors.js';
import { withSession, loadedSession } from './session.js';

/** Subscriptions one port may hold at once. */
export const MAX_WATCHES = 4;
/** Failures that pass: the next look may well succeed. */
const PASSING = new Set(['detached', 'debugger_busy', 'page_busy', 'timeout', 'rate_limited', 'cdp_error', 'dialog_open']);

let named = 0;

/**
 * @typedef {{ok: boolean, tabId?: number, text?: string, stats?: object, diff?: {full: boolean, added?: number, removed?: number, changed?: number}, error?: {code: string, message: string}}} Answer
 * @typedef {{id: string, tabId: number, interval: number, look: () => Promise<Answer>, diffs: boolean,
 *   last: string, push: (event: object) => void, timer?: ReturnType<typeof setTimeout>, stopped: boolean,
 *   end?: () => void, closed: () => void}} Watch
 *   closed: the tab closed (its session calls it): the subscription ends, telling its port
 */

/** A port's subscriptions. */
export class Watches {
  /** @param {(event: object) => void} push  sends an event on the port */
  constructor(push) {
    this.push = push;
    /** @type {Map<string, Watch>} */
    this.byId = new Map();
  }

  /**
   * Starts a subscription from a snapshot just taken (`first`).
   * @param {{tabId: number, interval: number, look: () => Promise<Answer>, diffs: boolean, first: string}} o
   *   look: one snapshot through the router (a diff when `diffs`)
   * @returns {string} its id
   */
  start({ tabId, interval, look, diffs, first }) {
    if (this.byId.size >= MAX_WATCHES) throw new AxError('rate_limited', `this port already holds ${MAX_WATCHES} subscriptions: unwatch one first`);
    const id = `w${++named}`;
    /** @type {Watch} */
    const w = { id, tabId, interval, look, diffs, last: first, push: this.push, stopped: false, closed: () => {} };
    w.end = () => this.byId.delete(id);
    w.closed = () => end(w, { code: 'no_tab', message: `tab ${tabId} was closed` });
    this.byId.set(id, w);
    // The tab's session ends it when the tab closes.
    withSession(tabId, (s) => { if (!w.stopped) s.watches.add(w); });
    next(w);
    return id;
  }

  /** Ends one subscription; false when the port holds none by that id. */
  stop(id) {
    const w = this.byId.get(id);
    if (!w) return false;
    stop(w);
    return true;
  }

  /** The port closed or was cut: every subscription ends, silently. */
  stopAll() {
    for (const w of [...this.byId.values()]) stop(w);
  }
}

function next(w) {
  w.timer = setTimeout(() => look(w), w.interval);
}

async function look(w) {
  if (w.stopped) return;
  const a = await w.look();
  if (w.stopped) return;
  if (!a.ok) {
    if (PASSING.has(a.error.code)) return next(w);
    return end(w, a.error);
  }
  if (changed(w, a)) {
    w.push({ ok: true, event: 'change', watch: w.id, tabId: a.tabId, text: a.text, stats: a.stats, ...(a.diff ? { diff: a.diff } : {}) });
  }
  next(w);
}

/** Whether a look found something to tell: a diff that is not empty, or another text. */
function changed(w, a) {
  if (w.diffs && a.diff) return a.diff.full || (a.diff.added || 0) + (a.diff.removed || 0) + (a.diff.changed || 0) > 0;
  if (a.text === w.last) return false;
  w.last = a.text;
  return true;
}

function end(w, error) {
  if (w.stopped) return;
  stop(w);
  w.push({ ok: false, event: 'ended', watch: w.id, error: { code: error.code, message: error.message } });
}

function stop(w) {
  w.stopped = true;
  clearTimeout(w.timer);
  loadedSession(w.tabId)?.watches.delete(w);
  w.end();
}
