// Which actions the person must confirm before the co-pilot takes them.
// Decided here, in code, from what the action would touch, never from what
// the model says about it: a model that obeys a hostile page still cannot
// buy, send, delete, publish, leave the site or use another tab unasked.

import { siteOf } from '../../protocol/site.js';

/**
 * Words in a control's name that make a click consequential (whole words,
 * any case). The person can edit the list in the panel's settings
 * (chrome.storage.local key `confirmWords`).
 */
export const DEFAULT_CONFIRM_WORDS = [
  'buy', 'purchase', 'order', 'checkout', 'check out', 'pay', 'payment', 'donate', 'subscribe', 'transfer',
  'send', 'submit payment', 'reply', 'forward', 'share', 'invite',
  'delete', 'remove', 'erase', 'discard', 'destroy', 'close account', 'cancel order',
  'publish', 'post', 'tweet',
];

/** Actions that only look, never change the page. */
const HARMLESS = new Set(['hover', 'focus', 'scroll']);
/**
 * Roles whose click may trigger something (links only navigate: the site
 * rule covers them); `clickable` and `droptarget` are the snapshot's words
 * for elements the page made actionable without a role.
 */
const PRESSABLE = /^(button|link|menuitem|menuitemcheckbox|menuitemradio|tab|option|switch|checkbox|radio|img|generic|text|summary|clickable|droptarget)$/;

/** Matches any word of the list as a whole word in a name. */
export function consequentialWord(name, words = DEFAULT_CONFIRM_WORDS) {
  const text = ` ${String(name || '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  return words.find((w) => {
    const word = w.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    return word && text.includes(` ${word} `);
  }) || null;
}

/**
 * @typedef {{startTab:number, sites:Set<string>, tabs:Set<number>}} TaskScope
 *   sites: sites the task may use without asking (where it started, and those the person allowed);
 *   tabs: tabs it may use without asking (where it started, those it opened, and those the person allowed)
 * @typedef {{kind:'tab'|'site'|'word'|'secret-form', reason:string}} Ask
 */

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
  return { kind: 'site', reason: `it leaves the site the task started on for ${site}` };
}

/**
 * An `act` on an element described by its snapshot fact (null when the ref
 * is not in any snapshot the agent saw: judged as sensitive as the page allows).
 * A drag is judged as a click on what it drags (it ends in a press and a
 * release), and by where it drops: onto "Trash" or "Delete" is asked
 * whatever that element's role.
 * @param {{action:string, value?:string, fact:import('./page-text.js').RefFact|null, toFact?:import('./page-text.js').RefFact|null,
 *   pageHasSecret:boolean, linkUrl?:string|null, scope:TaskScope, words?:string[]}} a
 * @returns {Ask|null}
 */
export function checkAct({ action, value, fact, toFact = null, pageHasSecret, linkUrl, scope, words }) {
  if (HARMLESS.has(action)) return null;
  if (linkUrl && action === 'click') {
    const off = checkSite(scope, linkUrl);
    if (off) return off;
  }
  const pointer = action === 'click' || action === 'drag';
  const submits = pointer || (action === 'press' && value === 'Enter');
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
  if (submits) {
    const sensitive = fact ? fact.inSensitiveForm : pageHasSecret;
    const field = fact && /^(textbox|searchbox|combobox|spinbutton)$/.test(fact.role);
    if (sensitive && (action === 'press' || !field)) return { kind: 'secret-form', reason: 'it may submit a form holding a password, card or code' };
  }
  return null;
}
