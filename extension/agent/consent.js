// Which actions the person must confirm before the co-pilot takes them.
// Decided here, in code, from the typed facts the extension sends with every
// answer (protocol REF_FACT: a ref's role, name, link URL, secret kind and the
// form it belongs to, with the site that form posts to), never from what the
// model says about an action and never from the printed text: a model that
// obeys a hostile page still cannot buy, send, delete, post data to another
// site, leave the site or use another tab unasked. Where a press or Enter
// sends a form, and any navigation it sets off, is judged by the extension
// (extension/worker/guard.js) for the co-pilot and desktop agents alike, from
// facts read at the moment of acting and at the network edge: the co-pilot
// sends it the sites the task may reach (`guard`).

import { siteOf } from '../../protocol/site.js';

/**
 * Words in a control's name that make a click consequential (whole words,
 * any case): one more signal beside the facts, never the only guard. The
 * person can edit the list in the panel's settings (chrome.storage.local key
 * `confirmWords`).
 */
export const DEFAULT_CONFIRM_WORDS = [
  'buy', 'purchase', 'order', 'checkout', 'check out', 'pay', 'payment', 'donate', 'subscribe', 'transfer',
  'send', 'submit payment', 'reply', 'forward', 'share', 'invite',
  'delete', 'remove', 'erase', 'discard', 'destroy', 'close account', 'cancel order',
  'publish', 'post', 'tweet',
  // Who may do what: a change of rights is as consequential as a payment.
  'admin', 'grant', 'approve', 'authorize', 'authorise', 'merge', 'deploy', 'role', 'permission', 'permissions', 'access',
];

/** How much the co-pilot asks: `site` asks once per site and task (and for the listed cases); `every` asks before every action. */
export const ASK_MODES = ['site', 'every'];

/** Actions that only look, never change the page. */
const HARMLESS = new Set(['hover', 'focus', 'scroll']);
/**
 * Roles whose click may trigger something (links only navigate: the site
 * rule covers them); `clickable` and `droptarget` are the snapshot's words
 * for elements the page made actionable without a role.
 */
const PRESSABLE = /^(button|link|menuitem|menuitemcheckbox|menuitemradio|tab|option|switch|checkbox|radio|img|image|generic|text|summary|clickable|droptarget)$/;
/** Roles where Enter submits the form they are in. */
const FIELD = /^(textbox|searchbox|combobox|spinbutton)$/;

/**
 * @typedef {import('../../protocol/axsnap-protocol').RefFact & {ref: string}} Fact
 *   a ref's facts as the extension sent them, with the ref
 * @typedef {{startTab:number, current:number, sites:Set<string>, tabs:Set<number>, permitted?:Set<string>,
 *   mode?:'site'|'every', always?:Set<string>}} TaskScope
 *   sites: sites the task may reach without asking (where it started, and those the person allowed);
 *   tabs: tabs it may use without asking (where it started, those it opened, and those the person allowed);
 *   permitted: sites the person let it act on in this task; always: sites the person lets it act on in every task
 * @typedef {{kind:'tab'|'site'|'word'|'secret-form'|'permission'|'every', reason:string, site?:string}} Ask
 */

/** Matches any word of the list as a whole word in a name. */
export function consequentialWord(name, words = DEFAULT_CONFIRM_WORDS) {
  const text = ` ${String(name || '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  return words.find((w) => {
    const word = w.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    return word && text.includes(` ${word} `);
  }) || null;
}

/** Reading or acting on a tab outside the task asks first.
 * @returns {Ask|null} */
export function checkTab(scope, tabId) {
  if (scope.tabs.has(tabId)) return null;
  return { kind: 'tab', reason: 'it is not the tab the task started on' };
}

/** Going to a site the task has not been on asks first.
 * @returns {Ask|null} */
export function checkSite(scope, url) {
  const site = siteOf(url);
  if (!site || scope.sites.has(site)) return null;
  return { kind: 'site', site, reason: `it leaves the site the task started on for ${site}` };
}

/**
 * The first action on a site in a task asks "Act on example.com?" (once,
 * for this task, always for this site); in the mode `every`, every action
 * asks.
 * @param {TaskScope} scope  @param {string} site  the site of the page acted on
 * @returns {Ask|null}
 */
export function checkPermission(scope, site) {
  if (scope.mode === 'every') return { kind: 'every', site, reason: 'you asked to be asked before every action' };
  if (!site || scope.permitted?.has(site) || scope.always?.has(site)) return null;
  return { kind: 'permission', site, reason: `the co-pilot has not acted on ${site} in this task yet` };
}

/**
 * An `act` on an element described by its facts (null when the ref is in no
 * answer the agent saw: judged as sensitive as the page allows).
 * A drag is judged as a click on what it drags (it ends in a press and a
 * release), and by where it drops: onto "Trash" or "Delete" is asked
 * whatever that element's role.
 * @param {{action:string, value?:string, fact:Fact|null, toFact?:Fact|null,
 *   pageHasSecret:boolean, scope:TaskScope, words?:string[]}} a
 * @returns {Ask|null}
 */
export function checkAct({ action, value, fact, toFact = null, pageHasSecret, scope, words }) {
  if (HARMLESS.has(action)) return null;
  const pointer = action === 'click' || action === 'drag';
  const enter = action === 'press' && value === 'Enter';
  if (fact?.url && action === 'click') {
    const off = checkSite(scope, fact.url);
    if (off) return off;
  }
  if (pointer && fact && PRESSABLE.test(fact.role)) {
    const word = consequentialWord(fact.name, words);
    if (word) return { kind: 'word', reason: `its name says “${word}”` };
  }
  if (action === 'drag') {
    const word = toFact && consequentialWord(toFact.name, words);
    if (word) return { kind: 'word', reason: `where it drops says “${word}”` };
  }
  if (action === 'select' || action === 'check' || action === 'uncheck') {
    const word = fact && consequentialWord(fact.name, words);
    if (word) return { kind: 'word', reason: `its name says “${word}”` };
  }
  if (pointer || enter) {
    const sensitive = fact ? Boolean(fact.form?.secret) : pageHasSecret;
    const field = fact && FIELD.test(fact.role);
    if (sensitive && (enter || !field)) return { kind: 'secret-form', reason: 'it may submit a form holding a password, card or code' };
  }
  return null;
}
