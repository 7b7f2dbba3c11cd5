// What an action DOES, judged from facts the DOM holds (forms.js), never
// from what a control's words say: whether a click, an Enter or a drag may
// submit a form to another site, follow a link there, or open a window on
// it. And, at the network edge (edge.js), whether a document request the
// action caused goes to a site the caller may not reach. Pure: every rule is
// unit-tested in Node (tests/unit/judge.test.mjs).
//
// "Allowed" is a set of sites (registrable domains, protocol/site.js): the
// ones the task or the desktop agent may reach, plus the page's own site.

import { siteOf } from '../../protocol/site.js';

/**
 * @typedef {{url: string, method: string, target: string}} Submission  a form submission: absolute action URL,
 *   `get`/`post`/`dialog`, and the browsing context it goes to (`''` = the form's own)
 * @typedef {{url: string, target: string}} Link
 * @typedef {{link?: Link, submit?: Submission, enter?: Submission, form?: Submission & {secret: boolean}}} FormFacts
 *   link: where activating the element follows a link; submit: what activating it submits;
 *   enter: what Enter in it submits (implicit submission, or its own activation); form: its form owner
 * @typedef {{kind: 'form'|'navigation'|'popup', url: string, site: string, method: string}} Ask
 */

/** A target that may put the document in a new window (named ones may, when no such window exists). */
export const opensWindow = (target) => {
  const t = String(target || '').toLowerCase();
  return t !== '' && t !== '_self' && t !== '_parent' && t !== '_top';
};

/** Schemes whose URLs send a request somewhere; `javascript:`, `mailto:` and the like do not reach a site. */
const REQUESTING = /^(https?|wss?|ftp):$/i;

/**
 * Whether `url` is a site the caller may not reach: the ask, else null.
 * @param {string} url @param {Iterable<string>} allowed @param {Ask['kind']} kind @param {string} [method]
 * @returns {Ask|null}
 */
export function judgeUrl(url, allowed, kind, method = 'get') {
  let u;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (!REQUESTING.test(u.protocol)) return null;
  const site = siteOf(u);
  if (!site || new Set(allowed).has(site)) return null;
  return { kind, url: u.href, site, method: method.toLowerCase() };
}

/** What activating (clicking, pressing Enter on a button or a link) the element leads to. */
function activation(facts) {
  if (facts.submit) return { sub: facts.submit };
  if (facts.link) return { link: facts.link };
  return null;
}

/**
 * What the element leads to for `action`: the form it would submit or the
 * link it would follow, or null. A drag ends in a press and a release, like a
 * click on what it drags; Enter in a field submits its form implicitly;
 * Enter or Space on a button activates it, Enter on a link follows it.
 */
function leadsTo(action, value, facts) {
  if (!facts) return null;
  const enter = (action === 'press' && value === 'Enter') || (action === 'type' && /[\r\n]/.test(String(value)));
  const space = action === 'press' && (value === 'Space' || value === ' ');
  if (action === 'click' || action === 'drag' || action === 'check' || action === 'uncheck') return activation(facts);
  if (enter) return facts.enter ? { sub: facts.enter } : activation(facts);
  if (space) return facts.submit ? { sub: facts.submit } : null;
  return null;
}

/**
 * Asks before an action that may submit a form to a site not allowed, follow
 * a link to one or open a window on one; null when it does none of that (as
 * far as the DOM says: what the page's scripts do is the network edge's).
 * @param {{action: string, value?: any, facts: FormFacts|null|undefined, pageUrl?: string, allowed: Iterable<string>}} a
 * @returns {Ask|null}
 */
export function judgeAct({ action, value, facts, pageUrl, allowed }) {
  const to = leadsTo(action, value, facts);
  if (!to) return null;
  const sites = withPage(allowed, pageUrl);
  if (to.sub) {
    if (String(to.sub.method).toLowerCase() === 'dialog') return null;
    return judgeUrl(to.sub.url, sites, opensWindow(to.sub.target) ? 'popup' : 'form', to.sub.method);
  }
  return judgeUrl(to.link.url, sites, opensWindow(to.link.target) ? 'popup' : 'navigation');
}

/**
 * A document request seen at the network edge while an action runs: asked
 * about when it leaves the allowed sites and is a navigation of the top
 * frame, a new window, or a form sent into a frame (not GET). A frame
 * loading another site's document by GET is how pages embed videos and
 * maps: let through.
 * @param {{url: string, method?: string, top: boolean, popup?: boolean, pageUrl?: string, allowed: Iterable<string>}} r
 * @returns {Ask|null}
 */
export function judgeRequest({ url, method = 'GET', top, popup = false, pageUrl, allowed }) {
  const get = String(method).toUpperCase() === 'GET';
  if (!top && !popup && get) return null;
  return judgeUrl(url, withPage(allowed, pageUrl), popup ? 'popup' : get ? 'navigation' : 'form', method);
}

/** The allowed sites, and the page's own. */
export function withPage(allowed, pageUrl) {
  const sites = new Set(allowed);
  const own = pageUrl ? siteOf(pageUrl) : '';
  if (own) sites.add(own);
  return sites;
}

/** How the person is told what an ask is about, in one line. */
export function askLine(ask, who) {
  const what = {
    form: `send a form (${ask.method.toUpperCase()}) to ${ask.site}`,
    navigation: `go to ${ask.site}`,
    popup: `open a window on ${ask.site}`,
  }[ask.kind];
  return `${who} wants to ${what}: ${ask.url}`;
}
