// The tab's debugger connection: attach on demand (whether we are attached
// is kept in the tab's session, so it survives a service-worker restart),
// send commands to the tab or to one of its out-of-process frame sessions,
// each with a deadline.
//
// Deadlines (milliseconds), by kind of call:
//   attach                          5,000  browser-side; only a wedged browser is slower
//   Accessibility.getFullAXTree    30,000  grows with the page: ~0.1 ms a node on a quiet machine
//                                         (and getRootAXNode of a very large frame: large.js)
//   Input.insertText               10,000  one event, but the page's input handlers run for all of it
//   everything else                 5,000  DOM, Page, Runtime, Input, Target: quick questions
//   a call sent behind a tree      35,000  the page answers it once the tree is built (BEHIND_TREE_MS)
// A call past its deadline answers `timeout`, or `page_busy` when the page
// does not answer a trivial script either (a script that never yields, or a
// dialog opened before the extension attached). Nothing later in the request
// runs, so no input is sent to a page that did not answer.

import { AxError, fromChrome } from './errors.js';
import { tabSession, loadedSession, checkOpen, heldTabs, forget } from './session.js';
import { transport } from './transport.js';

export const DEADLINE_MS = 5000;
const DEADLINES = { 'Accessibility.getFullAXTree': 30000, 'Input.insertText': 10000 };
/** The deadline of a quick call sent while the page still builds an accessibility tree asked for before it. */
export const BEHIND_TREE_MS = DEADLINES['Accessibility.getFullAXTree'] + DEADLINE_MS;
/** How long a page that timed out gets to prove it is merely slow. */
const PROBE_MS = 1000;
/** Methods the browser answers without asking the page (they cannot say it is busy). */
const BROWSER_SIDE = /^(Target\.getTargetInfo|Page\.handleJavaScriptDialog|Page\.getNavigationHistory)$/;

const timedOut = Symbol('deadline');

/**
 * @param {number} tabId
 * @param {string|undefined} sessionId  an OOPIF session, or undefined for the tab itself
 * @param {string} method
 * @param {object} [params]
 * @param {{timeoutMs?: number, probe?: boolean}} [opts]  probe: a timeout is just an answer, not reported
 * @returns {Promise<any>}
 */
export async function send(tabId, sessionId, method, params = {}, opts = {}) {
  // The tab's session holds the calls waiting (so a dialog or the tab's close stops them) and why the page answers none.
  const tab = loadedSession(tabId);
  if (tab?.held && !BROWSER_SIDE.test(method)) throw tab.held;
  const ms = opts.timeoutMs ?? DEADLINES[method] ?? DEADLINE_MS;
  let timer;
  /** @type {(e: any) => void} */
  let stop;
  const stopped = new Promise((_, reject) => {
    stop = reject;
    timer = setTimeout(() => reject(timedOut), ms);
  });
  tab?.calls.add(stop);
  try {
    return await Promise.race([transport().send(tabId, sessionId, method, params), stopped]);
  } catch (e) {
    if (e === timedOut) throw opts.probe ? e : await lateAnswer(tabId, sessionId, method, ms);
    throw fromChrome(e, method);
  } finally {
    clearTimeout(timer);
    tab?.calls.delete(stop);
  }
}

/**
 * The page cannot answer until further notice (a dialog opened): calls
 * waiting on it fail with `error` now, and so do new ones until `release`.
 * Browser-side calls (answering the dialog) still go through.
 * @param {import('./session.js').TabSession} tab
 */
export function hold(tab, error) {
  tab.held = error;
  for (const stop of tab.calls) stop(error);
}

export function release(/** @type {import('./session.js').TabSession} */ tab) {
  tab.held = null;
}

/** What a call past its deadline means: a slow answer, or a page that answers nothing. */
async function lateAnswer(tabId, sessionId, method, ms) {
  const secs = `${ms / 1000} s`;
  // Building a large tree keeps the page busy by itself: asking it again tells nothing.
  if (!BROWSER_SIDE.test(method) && !method.startsWith('Accessibility.') && !(await answers(tabId, sessionId))) {
    // Pages of one site may share a process: a dialog in another tab holds them all.
    const dialogs = heldTabs().filter((t) => t !== tabId);
    const why = dialogs.length
      ? `a dialog is open in tab ${dialogs.join(', ')}, which may share this page's process: answer it`
      : 'a script in it runs without pause (or a dialog opened before axsnap attached is waiting)';
    return new AxError('page_busy', `${method}: the page did not answer within ${secs} and does not answer now: ${why}. Nothing more was done; try again later`);
  }
  return new AxError('timeout', `${method}: Chrome did not answer within ${secs}; nothing more was done. Try again`
    + (method === 'Accessibility.getFullAXTree' ? ' (a very large page: a subtree by ref reads less)' : ''));
}

async function answers(tabId, sessionId) {
  try {
    await send(tabId, sessionId, 'Runtime.evaluate', { expression: '0', returnByValue: true }, { timeoutMs: PROBE_MS, probe: true });
    return true;
  } catch (e) {
    return e !== timedOut;
  }
}

/** Settles like `promise`, or rejects with a typed `timeout` after `ms`. */
async function within(promise, ms, what) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new AxError('timeout', `${what}: Chrome did not answer within ${ms / 1000} s; try again`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Is the connection this worker holds still there? Another page of the
 * extension, or Chrome, may have detached it without telling this worker.
 * Asks the browser, not the page, so a busy page cannot make it wait.
 */
export async function stillAttached(tabId) {
  const session = await tabSession(tabId);
  if (!session.live) return false;
  if (await ours(tabId)) return true;
  await forget(tabId, 'detached');
  return false;
}

/**
 * Attaches to the tab unless already attached; true when this call attached
 * (a new connection, which announces its frames by itself). A tab this
 * extension attached before the worker restarted is still attached: Chrome
 * answers "another debugger", and a browser-side command tells whether that
 * debugger is us.
 */
export async function ensureAttached(tabId) {
  checkOpen(tabId);
  const session = await tabSession(tabId);
  if (session.live) return false;
  try {
    await within(transport().tab(tabId), DEADLINE_MS, 'the tab');
  } catch (e) {
    if (e.code === 'timeout') throw e;
    throw new AxError('no_tab', `tab ${tabId} does not exist (closed?)`);
  }
  if (session.attached && (await ours(tabId))) return attachedNow(session, false);
  try {
    await within(transport().attach(tabId), DEADLINE_MS, 'attach');
  } catch (e) {
    const err = fromChrome(e, 'attach');
    if (err.code === 'debugger_busy' && (await ours(tabId))) return attachedNow(session, false);
    throw err;
  }
  session.oopifs.clear();
  return attachedNow(session, true);
}

async function attachedNow(session, fresh) {
  session.attached = true;
  session.live = true;
  await session.save();
  return fresh;
}

/** Is the debugger on this tab ours? Only a command can tell. */
async function ours(tabId) {
  try {
    await within(transport().send(tabId, undefined, 'Target.getTargetInfo', {}), DEADLINE_MS, 'Target.getTargetInfo');
    return true;
  } catch (e) {
    // No answer is not "no": only Chrome's refusal says it is not ours.
    return e.code === 'timeout';
  }
}

export async function detach(tabId) {
  try {
    await within(transport().detach(tabId), DEADLINE_MS, 'detach');
  } catch { /* already gone */ }
  await forget(tabId, 'detached');
}
