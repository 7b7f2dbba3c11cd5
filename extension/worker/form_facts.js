// The facts of the forms a snapshot's refs belong to: how each submits,
// where to (its URL and site), and whether it holds a password, card or
// one-time-code field. Read through the DOM agent (DOM.describeNode), which
// no page script can change, never through the page's own getters.
//
// Where a form sends its contents is resolved against its frame's URL; a
// `<base href>` is not read here, so this is what a guard asks about first,
// and the extension judges the request itself again when it goes out.

import { send } from './cdp.js';
import { siteOf } from '../../protocol/site.js';

/** `autocomplete` tokens of fields whose contents are secrets: the one list (forms.js takes it into the page). */
export const SECRET_AUTOCOMPLETE = ['current-password', 'new-password', 'one-time-code', 'cc-number', 'cc-csc', 'cc-exp', 'cc-exp-month', 'cc-exp-year'];

/** Does an `autocomplete` attribute hold one of those tokens (its tokens are whitespace-separated, any case)? */
const secretAutocomplete = (value) => String(value || '').toLowerCase().split(/\s+/).some((t) => SECRET_AUTOCOMPLETE.includes(t));

/**
 * A form element's facts from its DOM node (attributes and subtree), pure.
 * @param {{attributes?: string[], children?: any[], localName?: string}} node  as DOM.describeNode gives it with depth -1
 * @param {string} base  its frame's URL
 * @returns {{method: 'get'|'post'|'dialog', url: string, site: string, secret: boolean}}
 */
export function readForm(node, base) {
  const attr = (n, name) => {
    const list = n.attributes || [];
    for (let i = 0; i + 1 < list.length; i += 2) if (list[i].toLowerCase() === name) return list[i + 1];
    return null;
  };
  const m = String(attr(node, 'method') || 'get').toLowerCase();
  const method = m === 'post' || m === 'dialog' ? m : 'get';
  let url = '';
  try {
    // An empty or missing action submits to the document itself.
    url = new URL(attr(node, 'action') || base, base).href;
  } catch { /* no URL: judged as leaving for nowhere known */ }
  let secret = false;
  const walk = (n) => {
    if (secret || !n) return;
    if (n.localName === 'input' && (String(attr(n, 'type')).toLowerCase() === 'password' || secretAutocomplete(attr(n, 'autocomplete')))) secret = true;
    for (const c of n.children || []) walk(c);
  };
  walk(node);
  return { method, url, site: siteOf(url), secret };
}

/**
 * The `form` fact of each ref that sits in a form, added to `refs` in place.
 * A form counts as holding a secret also when the core found one of its
 * fields secret (a field the DOM does not mark).
 * @param {number} tabId
 * @param {Array<{key: string, url?: string}>} frames
 * @param {Record<string, string|null>} frameSessions  frame key → session (null: the tab itself)
 * @param {Array<{frame: string, formNodeId?: number, secret?: string}>} list  the core's ref facts
 * @returns {Promise<Map<string, object>>} `${frame} ${formNodeId}` → the form's facts
 */
export async function formFacts(tabId, frames, frameSessions, list) {
  const wanted = new Map();
  for (const r of list) {
    if (r.formNodeId === undefined) continue;
    const key = `${r.frame} ${r.formNodeId}`;
    const w = wanted.get(key) || { frame: r.frame, id: r.formNodeId, secret: false };
    w.secret ||= Boolean(r.secret);
    wanted.set(key, w);
  }
  const urls = new Map(frames.map((f) => [f.key, f.url || '']));
  const out = new Map();
  await Promise.all([...wanted].map(async ([key, w]) => {
    try {
      const { node } = await send(tabId, frameSessions[w.frame] || undefined, 'DOM.describeNode', { backendNodeId: w.id, depth: -1 });
      const form = readForm(node, urls.get(w.frame) || '');
      out.set(key, { ...form, secret: form.secret || w.secret });
    } catch { /* gone since the tree was read: no fact, and the guards judge it as unknown */ }
  }));
  return out;
}
