// Waiting, after an action, until the page has settled: a navigation the
// action started has loaded, no fetch or XHR it started is still running,
// (for at most REQUEST_MS: a long poll does not count), and the DOM has had
// no change for QUIET_MS; all within a deadline, so a page that never stops
// changing (a clock, an animation) costs at most that.
//
// Watching starts before the action (watch), so nothing it causes is missed.
// The DOM is watched by a MutationObserver in an isolated world of the top
// frame: the page's own scripts cannot see or disturb it. Changes inside
// iframes, and CSS-only changes (:hover, animations), are not seen; nor is
// work a page starts with a timer longer than the quiet period: for those,
// wait_for.

import { send } from './cdp.js';
import { transport } from './transport.js';

export const QUIET_MS = 100;
export const SETTLE_MS = 5000;
/** How long a click may take to start a navigation before we stop looking for one. */
const NAVIGATION_GRACE_MS = 60;
const REQUEST_MS = 2000;
const WORLD = 'axsnap-settle';

/**
 * Starts watching the tab; `settled()` after the action resolves when the
 * page has settled or the deadline passed, `stop()` gives up watching.
 * @param {number} tabId
 */
export async function watch(tabId) {
  const started = Date.now();
  let loading = false;
  let navigated = false;
  let wake = () => {};
  /** requestId → when it started: fetches, XHRs and documents in flight, sent after watching began */
  const inFlight = new Map();
  // A request running longer than REQUEST_MS (a long poll, a stream) no longer holds the page unsettled.
  const busy = () => [...inFlight.values()].some((t) => Date.now() - t < REQUEST_MS);
  const onUpdated = (id, change) => {
    if (id !== tabId) return;
    if (change.status === 'loading') { loading = true; navigated = true; }
    if (change.status === 'complete') loading = false;
    if (change.url) navigated = true;
    wake();
  };
  const onEvent = (source, method, params) => {
    if (source.tabId !== tabId || source.sessionId) return;
    if (method === 'Network.requestWillBeSent' && /^(Fetch|XHR|Document)$/.test(params.type)) inFlight.set(params.requestId, Date.now());
    else if (method === 'Network.loadingFinished' || method === 'Network.loadingFailed') inFlight.delete(params.requestId);
    else return;
    wake();
  };
  const offs = [transport().onTabUpdated(onUpdated), transport().onEvent(onEvent)];
  // Network events only for what the page sends from now on; bodies are not kept.
  // The top frame keeps its id across navigations: asked once, beside turning Network on.
  const [network, top] = await Promise.all([
    send(tabId, undefined, 'Network.enable', { maxTotalBufferSize: 0, maxResourceBufferSize: 0 }).then(() => true, () => false),
    send(tabId, undefined, 'Page.getFrameTree').then((r) => r.frameTree.frame.id, () => undefined),
  ]);
  const stop = () => {
    for (const off of offs) off();
    if (network) send(tabId, undefined, 'Network.disable').catch(() => {});
  };
  const pause = (ms) => new Promise((resolve) => {
    const t = setTimeout(resolve, Math.max(0, ms));
    wake = () => { clearTimeout(t); resolve(undefined); };
  });

  /** @param {number} [deadlineMs] @returns {Promise<{ms: number, navigated: boolean, quiet: boolean}>} */
  const settled = async (deadlineMs = SETTLE_MS) => {
    const until = Date.now() + deadlineMs;
    let quiet = false;
    const from = Date.now();
    try {
      // The look for a navigation runs inside the first quiet period (longer than it), not before it.
      while (!quiet && Date.now() < until) {
        if (loading || busy()) {
          await pause(Math.min(100, until - Date.now()));
          continue;
        }
        quiet = await domQuiet(tabId, top, Math.min(QUIET_MS, until - Date.now()), until - Date.now());
        if (quiet && Date.now() - from < NAVIGATION_GRACE_MS) await pause(from + NAVIGATION_GRACE_MS - Date.now());
        // A navigation or a request started while the DOM was quiet: look again.
        if (loading || busy()) quiet = false;
        if (!quiet) await pause(Math.min(20, until - Date.now()));
      }
    } catch {
      // The page cannot be asked (a dialog opened, the tab went): the snapshot after this says why.
      quiet = false;
    } finally {
      stop();
    }
    return { ms: Date.now() - started, navigated, quiet };
  };
  return { settled, stop };
}

/**
 * True once the top frame's DOM has not changed for `quietMs`; false when
 * `maxMs` passed first or the document went away (a navigation) meanwhile.
 */
async function domQuiet(tabId, frameId, quietMs, maxMs) {
  if (maxMs <= 0) return false;
  try {
    frameId ??= (await send(tabId, undefined, 'Page.getFrameTree')).frameTree.frame.id;
    const { executionContextId } = await send(tabId, undefined, 'Page.createIsolatedWorld', { frameId, worldName: WORLD });
    const expression = `new Promise((resolve) => {
      let timer;
      const done = (quiet) => { observer.disconnect(); clearTimeout(timer); clearTimeout(limit); resolve(quiet); };
      const observer = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(() => done(true), ${quietMs}); });
      observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
      timer = setTimeout(() => done(true), ${quietMs});
      const limit = setTimeout(() => done(false), ${maxMs});
    })`;
    const r = await send(tabId, undefined, 'Runtime.evaluate', { expression, contextId: executionContextId, awaitPromise: true, returnByValue: true },
      { timeoutMs: maxMs + 1000 });
    return r.result?.value === true;
  } catch (e) {
    // The context went with its document (a navigation): the caller looks again. Anything else ends the wait.
    if (e.code === 'cdp_error' || e.code === 'stale_ref') return false;
    throw e;
  }
}
