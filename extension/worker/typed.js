// What the person typed into secret fields, as fingerprints, so that the core
// can cut it out wherever the page echoes it ("Wrong password: hunter2", a
// card number in a summary, a password in the URL after a form sent with
// GET), also once the field was cleared or turned into text
// (crates/axsnap-core/src/secrets/typed.rs says how they are matched).
//
// Values never leave the page: the fingerprints are made there, in an
// isolated world the page's scripts cannot see (`WORLD`), when the field
// facts are read at each snapshot (secrets.js) and, between snapshots, on
// every `input` event of a field found secret (or of type=password).
// A fingerprint is SipHash-2-4, keyed by a random salt of the tab, of the
// value as printed, trimmed, ASCII letters lower-cased; and of its digits
// alone when it is a number. The worker keeps the salt and the fingerprints
// with the tab's state, for the top frame's document they were typed in and
// the one after it (where a form's answer shows what was sent), at most
// `MAX_PRINTS`; the tab's record saves them, never a value.

import { send } from './cdp.js';
import { scrubTyped } from '../pkg/axsnap_wasm.js';

/** The isolated world of the page's observer; a name of its own, so no other world shares its globals. */
export const WORLD = 'axsnap-typed';
/** Fingerprints a tab keeps per document. */
export const MAX_PRINTS = 128;

/**
 * @typedef {{salt: string, doc: string, prints: string[], before: string[]}} TypedMemory
 *   doc: the top frame's document the prints were typed in; before: those of the document before
 */

/** A new tab's memory, with a salt of its own. */
export function newMemory() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return { salt: [...bytes].map((b) => b.toString(16).padStart(2, '0')).join(''), doc: '', prints: [], before: [] };
}

/**
 * Adds fingerprints to the memory; `topDoc`, when known, is the top
 * frame's document now (a snapshot reads it, Page.frameNavigated tells it):
 * a new one keeps the last document's prints as `before` and drops older
 * ones; the same one keeps them all.
 * @param {TypedMemory} m  @param {string|undefined} topDoc  @param {string[]} prints
 */
export function learn(m, topDoc, prints) {
  if (topDoc && topDoc !== m.doc) {
    // A document left with nothing typed in it (a redirect after a form was sent) keeps the one before.
    if (m.prints.length) m.before = m.prints;
    m.prints = [];
    m.doc = topDoc;
  }
  for (const p of prints) {
    if (typeof p === 'string' && !m.prints.includes(p)) m.prints.push(p);
  }
  if (m.prints.length > MAX_PRINTS) m.prints.splice(0, m.prints.length - MAX_PRINTS);
}

/** What the core takes: `{salt, prints}`, or undefined when nothing was typed. */
export function typedFor(m) {
  return m && (m.prints.length || m.before.length) ? { salt: m.salt, prints: [...m.prints, ...m.before] } : undefined;
}

/**
 * The fingerprints of a value, made as the core makes them
 * (`Typed::prints_of`). Runs in the page: it must reference nothing
 * outside itself.
 */
export function typedKit() {
  const M = (1n << 64n) - 1n;
  const rotl = (/** @type {bigint} */ x, /** @type {bigint} */ b) => ((x << b) | (x >> (64n - b))) & M;
  const sip = (k0, k1, bytes) => {
    let v0 = k0 ^ 0x736f6d6570736575n;
    let v1 = k1 ^ 0x646f72616e646f6dn;
    let v2 = k0 ^ 0x6c7967656e657261n;
    let v3 = k1 ^ 0x7465646279746573n;
    const round = () => {
      v0 = (v0 + v1) & M; v1 = rotl(v1, 13n); v1 ^= v0; v0 = rotl(v0, 32n);
      v2 = (v2 + v3) & M; v3 = rotl(v3, 16n); v3 ^= v2;
      v0 = (v0 + v3) & M; v3 = rotl(v3, 21n); v3 ^= v0;
      v2 = (v2 + v1) & M; v1 = rotl(v1, 17n); v1 ^= v2; v2 = rotl(v2, 32n);
    };
    const word = (at, n) => {
      let m = 0n;
      for (let j = n - 1; j >= 0; j--) m = (m << 8n) | BigInt(bytes[at + j]);
      return m;
    };
    const end = bytes.length - (bytes.length % 8);
    for (let i = 0; i < end; i += 8) {
      const m = word(i, 8);
      v3 ^= m; round(); round(); v0 ^= m;
    }
    const last = (BigInt(bytes.length & 0xff) << 56n) | word(end, bytes.length - end);
    v3 ^= last; round(); round(); v0 ^= last;
    v2 ^= 0xffn; round(); round(); round(); round();
    return (v0 ^ v1 ^ v2 ^ v3) & M;
  };
  const MIN = 4;
  const MAX = 256;
  const encoder = new TextEncoder();
  /** As printed (whitespace runs as one space, invisible characters gone), trimmed, ASCII lower-cased. */
  const normalise = (v) => v.replace(/[\u200B\uFEFF\u00AD\u2060]/g, '').split(/[\s\u0085]+/).filter(Boolean).join(' ')
    .replace(/[A-Z]/g, (c) => c.toLowerCase());
  return {
    normalise,
    /** @param {string} value @param {string} salt 32 hex digits */
    prints(value, salt) {
      const k0 = BigInt(`0x${salt.slice(0, 16) || '0'}`);
      const k1 = BigInt(`0x${salt.slice(16, 32) || '0'}`);
      const print = (kind, s, n) => `${kind}${n}.${sip(k0, k1, encoder.encode(s)).toString(16).padStart(16, '0')}`;
      const out = [];
      const text = normalise(String(value));
      const chars = [...text].length;
      if (chars >= MIN && chars <= MAX) out.push(print('t', text, chars));
      if (/^\d+([ ./-]\d+)*$/.test(text)) {
        const digits = text.replace(/\D/g, '');
        if (digits.length >= MIN && digits.length <= MAX) out.push(print('d', digits, digits.length));
      }
      return out;
    },
  };
}

/**
 * The page's observer, in the isolated world: fingerprints the values of
 * the fields marked secret (and of every type=password field) as they are
 * typed, so that a value typed and cleared between two snapshots is known.
 * A value's prints are kept when it is replaced by a shorter one (cleared,
 * or deleted back) or the field is left (`change`), and at `take`; so the
 * stages of a value typed on (`h`, `hu`, …) are not. Only prints and a
 * length are kept here, never a value.
 * @param {ReturnType<typeof typedKit>} kit  @param {string} salt
 */
function installTyped(kit, salt) {
  const marked = new Set();
  /** element → {prints, length} of its value as last typed */
  const latest = new Map();
  let seen = [];
  const keep = (prints) => {
    for (const p of prints) if (!seen.includes(p) && seen.length < 256) seen.push(p);
  };
  const secret = (el) => marked.has(el) || (el.localName === 'input' && el.type === 'password');
  const onEdit = (e) => {
    const el = e.composedPath()[0];
    if (!el || typeof el.value !== 'string' || !secret(el)) return;
    const was = latest.get(el);
    if (was && (e.type === 'change' || el.value.length < was.length)) keep(was.prints);
    if (latest.size < 256 || latest.has(el)) latest.set(el, { prints: kit.prints(el.value, salt), length: el.value.length });
  };
  document.addEventListener('input', onEdit, true);
  document.addEventListener('change', onEdit, true);
  return {
    salt,
    prints: (value) => kit.prints(value, salt),
    mark(el) {
      if (marked.size < 256) marked.add(el);
    },
    /** The prints seen since the last take, and those of the secret fields' values now. */
    take() {
      for (const { prints } of latest.values()) keep(prints);
      latest.clear();
      for (const el of marked) if (el.isConnected && typeof el.value === 'string') keep(kit.prints(el.value, salt));
      for (const el of document.querySelectorAll('input[type=password]')) keep(kit.prints(/** @type {HTMLInputElement} */ (el).value, salt));
      const out = seen;
      seen = [];
      return out;
    },
    stop() {
      document.removeEventListener('input', onEdit, true);
      document.removeEventListener('change', onEdit, true);
    },
  };
}

/**
 * The observer of the calling world, installed for this salt if it is not
 * yet. Runs in the page.
 * @param {string} salt
 */
function ensureTyped(salt, kit, install) {
  const g = /** @type {any} */ (globalThis);
  if (g.axsnapTyped && g.axsnapTyped.salt === salt) return g.axsnapTyped;
  if (g.axsnapTyped) g.axsnapTyped.stop();
  g.axsnapTyped = install(kit(), salt);
  return g.axsnapTyped;
}

/** Source of an expression, in the page, for the observer of `salt` (a variable of the function it is put in). */
export const OBSERVER = `(${ensureTyped})(salt, ${typedKit}, ${installTyped})`;

/**
 * The frame's isolated world (Chrome keeps one per name and frame, so
 * asking again answers the same), or undefined when it cannot be made.
 * @returns {Promise<number|undefined>}
 */
export async function worldOf(tabId, sessionId, frameId) {
  try {
    const r = await send(tabId, sessionId || undefined, 'Page.createIsolatedWorld', { frameId, worldName: WORLD });
    return r.executionContextId;
  } catch {
    return undefined;
  }
}

/**
 * Marks fields the core found secret in the page's observer, so that
 * their input is fingerprinted from now on.
 * @param {number} tabId
 * @param {Record<string, string|null>} frameSessions
 * @param {Array<{frame: string, backendNodeId: number}>} fields
 * @param {string} salt
 */
export async function markSecret(tabId, frameSessions, fields, salt) {
  const byFrame = new Map();
  for (const f of fields) byFrame.set(f.frame, [...(byFrame.get(f.frame) || []), f.backendNodeId]);
  await Promise.all([...byFrame].map(async ([frame, ids]) => {
    const session = frameSessions[frame] || undefined;
    const contextId = await worldOf(tabId, session, frame);
    if (contextId === undefined) return;
    const objects = (await Promise.all(ids.map((backendNodeId) => send(tabId, session, 'DOM.resolveNode', { backendNodeId, executionContextId: contextId, objectGroup: WORLD })
      .then((r) => r.object.objectId, () => null)))).filter(Boolean);
    if (!objects.length) return;
    await send(tabId, session, 'Runtime.callFunctionOn', {
      objectId: objects[0], returnByValue: true,
      functionDeclaration: `function (salt, ...els) { const t = ${OBSERVER}; for (const el of els) t.mark(el); }`,
      arguments: [{ value: salt }, ...objects.map((objectId) => ({ objectId }))],
    }).catch(() => {});
    send(tabId, session, 'Runtime.releaseObjectGroup', { objectGroup: WORLD }).catch(() => {});
  }));
}

/**
 * Before an action: the prints the observers of the frames holding secret
 * fields gathered, and those of the values in the fields now, so that what
 * the action sends away (a form, to a new document that may echo it) is
 * known.
 * @param {number} tabId
 * @param {import('./session.js').TabSession} session
 */
export async function gather(tabId, session) {
  const frames = Object.keys(session.secrets || {}).filter((key) => key in session.frameSessions);
  const found = await Promise.all(frames.map(async (frame) => {
    const sessionId = session.frameSessions[frame] || undefined;
    const contextId = await worldOf(tabId, sessionId, frame);
    if (contextId === undefined) return [];
    const r = await send(tabId, sessionId, 'Runtime.evaluate', {
      contextId, returnByValue: true, expression: 'globalThis.axsnapTyped ? globalThis.axsnapTyped.take() : []',
    }).catch(() => null);
    return r && Array.isArray(r.result?.value) ? r.result.value : [];
  }));
  const prints = found.flat();
  if (!prints.length) return;
  learn(session.typed, undefined, prints);
  await session.save();
}

/**
 * Cuts every typed value out of the strings of `answer` (anything the
 * extension says: errors, dialog messages, titles, URLs, snapshots), in
 * place, by the fingerprints of each tab that has some: what is typed in one
 * tab may show up in another.
 * @template T
 * @param {T} answer
 * @param {TypedMemory[]} memories
 * @returns {T}
 */
export function scrubAnswer(answer, memories) {
  const sets = memories.map(typedFor).filter(Boolean);
  if (!sets.length) return answer;
  /** @type {Array<[any, string|number]>} */
  const slots = [];
  const walk = (v, depth) => {
    if (!v || typeof v !== 'object' || depth > 32) return;
    for (const k of Object.keys(v)) {
      if (typeof v[k] === 'string') slots.push([v, k]);
      else walk(v[k], depth + 1);
    }
  };
  if (typeof answer === 'string') return /** @type {T} */ (/** @type {unknown} */ (scrubTexts([answer], sets)[0]));
  walk(answer, 0);
  const clean = scrubTexts(slots.map(([o, k]) => o[k]), sets);
  slots.forEach(([o, k], i) => { o[k] = clean[i]; });
  return answer;
}

function scrubTexts(texts, sets) {
  let out = texts;
  for (const set of sets) {
    const cut = scrubTyped(out, set);
    out = out.map((t, i) => (cut[i] === null || cut[i] === undefined ? t : cut[i]));
  }
  return out;
}
