// Secret fields, found from the DOM (the accessibility tree does not mark
// them): inputs of type password and inputs whose autocomplete says
// password, one-time code or card data. The candidates are the text fields
// the accessibility trees already list, in every frame and session; their
// DOM attributes come from DOM.describeNode, which sees through open and
// closed shadow roots alike. On the largest corpus page this took ~10 ms
// where DOMSnapshot.captureSnapshot took ~490 ms and
// DOM.getDocument({pierce:true}) ~240 ms.

import { send } from './cdp.js';

const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);

/** What makes a field secret, or null. */
export function reasonFor(type, autocomplete, nameish) {
  const tokens = (autocomplete || '').toLowerCase().split(/\s+/);
  if (tokens.includes('new-password')) return 'new-password';
  if (tokens.includes('current-password')) return 'current-password';
  if ((type || '').toLowerCase() === 'password') return 'password';
  if (tokens.includes('one-time-code')) return 'one-time-code';
  if (tokens.some((t) => t.startsWith('cc-') && t !== 'cc-name' && t !== 'cc-type')) return 'credit-card';
  // Fields named like card numbers or security codes, whatever their autocomplete says.
  if (/^(cvv|cvc|csc|cvv2|card[-_]?(number|num|no|cvc|cvv))$/i.test(nameish || '')) return 'credit-card';
  return null;
}

function isCandidate(node) {
  if (node.ignored || node.backendDOMNodeId === undefined) return false;
  const role = node.role && node.role.value;
  if (FIELD_ROLES.has(role)) return true;
  const props = node.properties || [];
  const has = (name) => props.some((p) => p.name === name && p.value && p.value.value && p.value.value !== 'false');
  return has('editable') && has('focusable');
}

/**
 * @param {number} tabId
 * @param {Array<{key:string, nodes:any[]}>} frames
 * @param {Record<string, string|null>} frameSessions  frame key → session (null: the tab itself)
 * @returns {Promise<Array<{frame:string, backendNodeId:number, reason:string}>>}
 */
export async function findSecrets(tabId, frames, frameSessions) {
  const checks = [];
  for (const f of frames) {
    const session = frameSessions[f.key] || undefined;
    for (const node of f.nodes) {
      if (!isCandidate(node)) continue;
      checks.push(send(tabId, session, 'DOM.describeNode', { backendNodeId: node.backendDOMNodeId, depth: 0 }).then(
        ({ node: dom }) => {
          if (dom.nodeName !== 'INPUT' && dom.nodeName !== 'TEXTAREA') return null;
          const attrs = dom.attributes || [];
          let type = '', autocomplete = '', nameish = '';
          for (let i = 0; i + 1 < attrs.length; i += 2) {
            const k = attrs[i].toLowerCase();
            if (k === 'type') type = attrs[i + 1];
            else if (k === 'autocomplete') autocomplete = attrs[i + 1];
            else if ((k === 'name' || k === 'id') && !nameish) nameish = attrs[i + 1];
          }
          const reason = reasonFor(type, autocomplete, nameish);
          return reason ? { frame: f.key, backendNodeId: node.backendDOMNodeId, reason } : null;
        },
        // A field that vanished since the tree was read cannot leak from it.
        () => null,
      ));
    }
  }
  return (await Promise.all(checks)).filter(Boolean);
}
