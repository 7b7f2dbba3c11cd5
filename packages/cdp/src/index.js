// axsnap for a Chromium you drive yourself: a Playwright or Puppeteer page,
// local or reached over CDP (a fleet). attach(page) gives the page's
// snapshots and actions through the extension's own router and pipeline
// (extension/worker), over the page's CDPSession instead of
// chrome.debugger: the same protocol checks, ref tables, settling, error
// codes and secret redaction, and the same Wasm core, loaded in Node.

import { handle } from '../../../extension/worker/router.js';
import { startPipeline } from '../../../extension/worker/pipeline.js';
import { forget } from '../../../extension/worker/session.js';
import { nodeHost } from './node_host.js';

/** The program driving the browser owns it, as the person owns theirs: the router's caller with full reach. */
const OWNER = /** @type {const} */ ({ kind: 'panel' });

/**
 * The commands on one page. Tabs, navigation and subscriptions are the
 * extension's (chrome.tabs, ports): a program holding the page has its own
 * (page.goto, browser.newPage, its own loop).
 */
const PAGE_COMMANDS = new Set(['ping', 'snapshot', 'act', 'resolve', 'wait_for', 'reset']);

/** A failed request: the protocol's stable `code`, its message, and any facts it carries (`details`). */
export class AxsnapError extends Error {
  /** @param {{code: string, message: string, [k: string]: unknown}} error */
  constructor(error) {
    super(error.message);
    this.name = 'AxsnapError';
    const { code, message: _, ...details } = error;
    this.code = code;
    this.details = details;
  }
}

/** @type {ReturnType<typeof nodeHost>|null} */
let host = null;

/** The one transport of this process, started with the first attach. */
function started() {
  if (!host) {
    host = nodeHost();
    startPipeline(host);
  }
  return host;
}

/** The page's own CDPSession: Playwright's (context.newCDPSession) or Puppeteer's (page.createCDPSession). */
async function sessionOf(page) {
  if (typeof page.context === 'function' && typeof page.context().newCDPSession === 'function') return page.context().newCDPSession(page);
  if (typeof page.createCDPSession === 'function') return page.createCDPSession();
  if (typeof page.target === 'function') return page.target().createCDPSession();
  throw new TypeError('attach() takes a Playwright or Puppeteer page');
}

/**
 * Attaches axsnap to a page.
 * @param {any} page  a Playwright Page or a Puppeteer Page
 */
export async function attach(page) {
  const h = started();
  const cdp = await sessionOf(page);
  const tabId = await h.add(cdp);
  let detached = false;
  const gone = () => {
    h.remove(tabId);
    forget(tabId, 'closed').catch(() => {});
  };
  page.once?.('close', gone);

  /** One protocol request on this page; the answer's result, or an AxsnapError. */
  const request = async (msg) => {
    if (detached) throw new AxsnapError({ code: 'detached', message: 'this page was detached from axsnap: attach it again' });
    if (!PAGE_COMMANDS.has(msg?.cmd)) {
      throw new AxsnapError({ code: 'bad_request', message: `${msg?.cmd} is not a command on one page: use ${[...PAGE_COMMANDS].join(', ')}; navigate and open pages with Playwright or Puppeteer (page.goto, newPage)` });
    }
    const answer = /** @type {any} */ (await handle({ ...msg, tabId }, OWNER));
    if (!answer.ok) throw new AxsnapError(answer.error);
    const { ok: _ok, tabId: _t, ...result } = answer;
    return result;
  };

  return {
    /** The page as the protocol's SnapshotResult: {text, refs, page, stats, diff?}. */
    snapshot: (options = {}) => request({ cmd: 'snapshot', options }),
    /** An action on a ref (or on the page, without one), with the extension's checks and settling. */
    act: (ref, action, value, more = {}) => request({ cmd: 'act', action, ...(ref == null ? {} : { ref }), ...(value === undefined ? {} : { value }), ...more }),
    /** What a ref names: role, name, frame, backend node. */
    resolve: (ref) => request({ cmd: 'resolve', ref }),
    /** Waits for text, a URL or a ref's end (protocol wait_for). */
    waitFor: (condition) => request({ cmd: 'wait_for', ...condition }),
    /** Forgets the refs held for this page. */
    reset: () => request({ cmd: 'reset' }),
    /** Any protocol request on this page, as written (`tabId` is this page's). */
    request,
    /** Ends axsnap's hold on the page; the page itself stays open. */
    async detach() {
      if (detached) return;
      detached = true;
      page.off?.('close', gone);
      h.remove(tabId);
      await forget(tabId, 'closed');
      await cdp.detach().catch(() => {});
    },
  };
}
