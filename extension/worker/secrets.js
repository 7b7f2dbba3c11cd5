// Facts about the page's text fields, for the core to decide which are
// secret (crates/axsnap-core/src/secrets): nothing here judges a field.
//
// For every text field the accessibility trees list, in every frame and
// session, and for every node a label or description points at that the
// tree leaves out: its tag, its attributes, its computed
// -webkit-text-security and whether it is filled, read in one script call
// per frame. Plus the memory of the fields the core found secret earlier in
// the same document, so that a field a "show password" button turned into
// type=text stays secret. The memory holds node ids and reasons, never a
// value; it lives in the tab's saved state (it survives a service-worker
// restart) and is dropped when the frame shows a new document.
//
// A value is read only for a field the tree leaves out (hidden, yet named
// by a label that points at it), where Chrome's names may hold it but the
// tree does not: it is passed to the core for that one call, never stored
// or logged. A password field's value never leaves the page: Chrome puts
// bullets in names, never the value. Of every field's value the core gets
// fingerprints (typed.js), made in the page, which it uses if it finds the
// field secret. The facts are read in an isolated world, where the page's
// scripts cannot change what the reading sees, and where the observer of
// typed values lives: the same call marks the fields remembered secret
// and hands over what it fingerprinted since the last look.

import { send } from './cdp.js';
import { OBSERVER, worldOf } from './typed.js';

const FIELD_ROLES = new Set(['textbox', 'searchbox', 'combobox', 'spinbutton']);
const RELATIONS = new Set(['labelledby', 'describedby']);
/** Bounds on the memory: fields per frame, frames per tab. */
export const MEMORY_FIELDS = 256;
export const MEMORY_FRAMES = 32;

/**
 * @typedef {{key:string, document?:string, nodes:any[]}} Frame  document: Chrome's loader id
 * @typedef {Record<string, {doc:string, fields:Record<string, string>}>} Memory  frame key → document and backendNodeId → reason
 * @typedef {{frame:string, backendNodeId:number, reason:string}} SecretField
 */

function isField(node) {
  const role = node.role && node.role.value;
  if (FIELD_ROLES.has(role)) return true;
  const props = node.properties || [];
  const has = (name) => props.some((p) => p.name === name && p.value && p.value.value && p.value.value !== 'false');
  return has('editable') && has('focusable');
}

/**
 * The nodes of one frame's tree worth facts: its text fields, and the nodes
 * labels and descriptions point at that the tree leaves out (`hidden`: their
 * values may sit in names, so they are read).
 * @param {any[]} nodes
 * @returns {{fields:number[], hidden:number[]}}
 */
export function candidates(nodes) {
  const shown = new Set();
  const fields = [];
  for (const n of nodes) {
    if (n.backendDOMNodeId === undefined || n.ignored) continue;
    shown.add(n.backendDOMNodeId);
    if (isField(n)) fields.push(n.backendDOMNodeId);
  }
  const hidden = new Set();
  for (const n of nodes) {
    for (const p of n.properties || []) {
      if (!RELATIONS.has(p.name)) continue;
      for (const r of (p.value && p.value.relatedNodes) || []) {
        if (r.backendDOMNodeId !== undefined && !shown.has(r.backendDOMNodeId)) hidden.add(r.backendDOMNodeId);
      }
    }
  }
  return { fields, hidden: [...hidden] };
}

/**
 * The reasons remembered for a frame's current document.
 * @param {Memory} memory  @param {Frame} frame
 * @returns {Record<string, string>}
 */
export function recall(memory, frame) {
  const m = memory && memory[frame.key];
  return m && m.doc === (frame.document || '') ? m.fields : {};
}

/**
 * The memory after a snapshot: the secret fields the core found join what
 * this document's frames remembered; a frame showing a new document starts
 * afresh; frames not read this time keep theirs, up to the bounds.
 * @param {Memory} memory  @param {Frame[]} frames  @param {SecretField[]} secrets
 * @returns {Memory}
 */
export function remember(memory, frames, secrets) {
  /** @type {Memory} */
  const next = {};
  for (const f of frames) next[f.key] = { doc: f.document || '', fields: { ...recall(memory, f) } };
  for (const s of secrets) {
    const m = next[s.frame];
    if (m && Object.keys(m.fields).length < MEMORY_FIELDS) m.fields[s.backendNodeId] = s.reason;
  }
  for (const [key, m] of Object.entries(memory || {})) {
    if (Object.keys(next).length >= MEMORY_FRAMES) break;
    if (!(key in next)) next[key] = m;
  }
  for (const [key, m] of Object.entries(next)) if (!Object.keys(m.fields).length) delete next[key];
  return next;
}

/**
 * Runs in the page, on the fields of one frame: what the core decides from.
 * Attributes come as DOM.describeNode lists them (name, value, …), the
 * `value` attribute excepted, bounded. With `typed` (the observer, see
 * typed.js): each value's fingerprints, and remembered fields marked.
 * @this {Element}
 * @param {any} typed
 * @param {boolean[]} wantValue
 * @param {boolean[]} secret  remembered secret
 * @param {...any} els
 */
function readFacts(typed, wantValue, secret, ...els) {
  return els.map((el, i) => {
    if (!el || el.nodeType !== 1) return null;
    const attributes = [];
    for (let k = 0; k < el.attributes.length && k < 48; k++) {
      const a = el.attributes[k];
      if (a.name !== 'value') attributes.push(a.name.slice(0, 64), a.value.slice(0, 256));
    }
    const value = typeof el.value === 'string' && el.localName !== 'select' ? el.value : '';
    const fact = {
      tag: el.localName,
      attributes,
      textSecurity: getComputedStyle(el).getPropertyValue('-webkit-text-security'),
      filled: value !== '',
    };
    if (wantValue[i] && value && el.type !== 'password') fact.value = value.slice(0, 10000);
    if (typed && value) fact.typed = typed.prints(value);
    if (typed && secret[i]) typed.mark(el);
    return fact;
  });
}

/** readFacts with the frame's observer; `salt` is empty where there is no isolated world. */
const READ = `function (salt, ...args) {
  const typed = salt ? ${OBSERVER} : null;
  const facts = (${readFacts}).call(this, typed, ...args);
  return { facts, seen: typed ? typed.take() : [] };
}`;

let calls = 0;

/**
 * Facts of some nodes of one frame, and the fingerprints its observer
 * gathered (`seen`). A node gone since the tree was read has none; if the
 * page's script fails, attributes are read without it.
 * @returns {Promise<{facts: Array<object|null>, seen: string[]}>}
 */
async function frameFacts(tabId, session, frameId, ids, wantValue, secret, salt) {
  // One object group per call: frames of a session are read in parallel.
  const objectGroup = `axsnap-facts-${++calls}`;
  try {
    const executionContextId = salt && ids.length ? await worldOf(tabId, session, frameId) : undefined;
    const objects = await Promise.all(ids.map((backendNodeId) => send(tabId, session, 'DOM.resolveNode', { backendNodeId, objectGroup, executionContextId })
      .then((r) => r.object.objectId, () => null)));
    const live = ids.map((_, i) => i).filter((i) => objects[i]);
    const facts = ids.map(() => null);
    if (!live.length) return { facts, seen: [] };
    const r = await send(tabId, session, 'Runtime.callFunctionOn', {
      objectId: objects[live[0]], functionDeclaration: READ, returnByValue: true,
      arguments: [{ value: executionContextId === undefined ? '' : salt }, { value: live.map((i) => wantValue[i]) }, { value: live.map((i) => secret[i]) },
        ...live.map((i) => ({ objectId: objects[i] }))],
    }).catch(() => null);
    const got = r && !r.exceptionDetails && r.result.value;
    if (got && Array.isArray(got.facts)) {
      live.forEach((i, k) => { facts[i] = got.facts[k]; });
      return { facts, seen: Array.isArray(got.seen) ? got.seen : [] };
    }
    return { facts: await Promise.all(ids.map((id, i) => (objects[i] ? describe(tabId, session, id) : null))), seen: [] };
  } finally {
    send(tabId, session, 'Runtime.releaseObjectGroup', { objectGroup }).catch(() => {});
  }
}

/** Attributes from the DOM agent, which no page script can change. */
async function describe(tabId, session, backendNodeId) {
  try {
    const { node } = await send(tabId, session, 'DOM.describeNode', { backendNodeId, depth: 0 });
    const list = node.attributes || [];
    const attributes = [];
    for (let i = 0; i + 1 < list.length; i += 2) if (list[i].toLowerCase() !== 'value') attributes.push(list[i], list[i + 1]);
    return { tag: String(node.localName || node.nodeName || '').toLowerCase(), attributes };
  } catch {
    return null;
  }
}

/**
 * The facts of every candidate field of every frame, with what the memory
 * holds for it, and the fingerprints the frames' observers gathered. A
 * remembered field is sent even when it cannot be read.
 * @param {number} tabId
 * @param {Frame[]} frames
 * @param {Record<string, string|null>} frameSessions  frame key → session (null: the tab itself)
 * @param {Memory} memory
 * @param {string} salt  the tab's, for fingerprints (typed.js)
 * @returns {Promise<{facts: any[], seen: string[]}>}
 */
export async function collectFacts(tabId, frames, frameSessions, memory, salt) {
  const seen = [];
  const perFrame = frames.map(async (f) => {
    const { fields, hidden } = candidates(f.nodes);
    const remembered = recall(memory, f);
    const ids = [...fields, ...hidden];
    const read = await frameFacts(tabId, frameSessions[f.key] || undefined, f.key, ids, ids.map((_, i) => i >= fields.length),
      ids.map((id) => Boolean(remembered[id])), salt);
    const facts = read.facts;
    seen.push(...read.seen);
    const out = [];
    ids.forEach((backendNodeId, i) => {
      const reason = remembered[backendNodeId];
      if (facts[i] || reason) out.push({ ...(facts[i] || {}), frame: f.key, backendNodeId, ...(reason ? { reason } : {}) });
    });
    const sent = new Set(ids);
    for (const [id, reason] of Object.entries(remembered)) {
      if (!sent.has(Number(id))) out.push({ frame: f.key, backendNodeId: Number(id), reason });
    }
    return out;
  });
  return { facts: (await Promise.all(perFrame)).flat(), seen };
}
