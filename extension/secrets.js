// Secret fields, found from the DOM of every frame and session (the
// accessibility tree does not mark them): password inputs and inputs whose
// autocomplete says password, one-time code or card data, shadow roots
// included. DOMSnapshot.captureSnapshot reads a whole process's frames in
// one call and includes shadow trees.

import { send } from './cdp.js';

/** autocomplete token → reason */
function reasonFor(type, autocomplete, nameish) {
  const tokens = (autocomplete || '').toLowerCase().split(/\s+/);
  if (tokens.includes('new-password')) return 'new-password';
  if (tokens.includes('current-password')) return 'current-password';
  if ((type || '').toLowerCase() === 'password') return 'password';
  if (tokens.includes('one-time-code')) return 'one-time-code';
  if (tokens.some((t) => t.startsWith('cc-') && t !== 'cc-name' && t !== 'cc-type')) return 'credit-card';
  // Fields named like card security codes, whatever their autocomplete says.
  if (/^(cvv|cvc|csc|cvv2|card[-_]?(number|cvc|cvv))$/i.test(nameish || '')) return 'credit-card';
  return null;
}

/**
 * @param {number} tabId
 * @param {Array<string|undefined>} sessionIds  undefined = the tab itself
 * @returns {Promise<Array<{frame:string, backendNodeId:number, reason:string}>>}
 */
export async function findSecrets(tabId, sessionIds) {
  const lists = await Promise.all(sessionIds.map(async (s) => {
    const snap = await send(tabId, s, 'DOMSnapshot.captureSnapshot', { computedStyles: [] }).catch(() => null);
    return snap ? scan(snap) : [];
  }));
  return lists.flat();
}

/** Exposed for unit tests of the scan over a captured snapshot. */
export function scan(snap) {
  const strings = snap.strings;
  const out = [];
  for (const doc of snap.documents) {
    const frame = strings[doc.frameId];
    const n = doc.nodes;
    const names = n.nodeName || [];
    for (let i = 0; i < names.length; i++) {
      if (strings[names[i]] !== 'INPUT' && strings[names[i]] !== 'TEXTAREA') continue;
      const attrs = (n.attributes && n.attributes[i]) || [];
      let type = '', autocomplete = '', nameish = '';
      for (let a = 0; a + 1 < attrs.length; a += 2) {
        const k = strings[attrs[a]].toLowerCase();
        const v = strings[attrs[a + 1]];
        if (k === 'type') type = v;
        else if (k === 'autocomplete') autocomplete = v;
        else if ((k === 'name' || k === 'id') && !nameish) nameish = v;
      }
      const reason = reasonFor(type, autocomplete, nameish);
      if (reason) out.push({ frame, backendNodeId: n.backendNodeId[i], reason });
    }
  }
  return out;
}
