// Facts about elements the page makes clickable without an interactive role,
// and about those that take HTML5 drops, for the core to decide which get
// refs (crates/axsnap-core/src/rules/clickable.rs), and the positions long lists state (aria-rowcount,
// aria-setsize, aria-rowindex, aria-posinset: Chrome's tree does not carry
// them), for the core to say how much of a list is shown (extent.rs).
// Nothing here judges an element.
//
// Per debugger session (the tab, and each out-of-process frame), two calls
// for the whole document, whatever its size: DOMSnapshot.captureSnapshot
// with the computed `cursor` of every box (an element whose cursor is
// `pointer` while its parent's is not set it itself), and
// DOMDebugger.getEventListeners over the document, shadow roots and
// same-process frames included (`click`, `mousedown`, `pointerdown`; `drop`,
// `dragover`, `dragenter` for drops: an empty board column shows nothing
// else a drag could be dropped onto). Only
// elements with a box of some size are reported: what cannot be seen
// cannot be clicked. `<html>` and `<body>` never are: a listener there is
// the page's, not a control's.

import { send } from './cdp.js';

const CLICK_EVENTS = new Set(['click', 'mousedown', 'pointerdown']);
const DROP_EVENTS = new Set(['drop', 'dragover', 'dragenter']);
const ELEMENT = 1;
const DOCUMENT_ELEMENTS = new Set(['HTML', 'BODY']);

/**
 * One document of a DOMSnapshot: its elements with a box, by backend id, and
 * whether each set `cursor: pointer` itself.
 * @param {any} doc  @param {string[]} strings
 * @returns {{frameId:string, boxed: Map<number, boolean>}}  backend id → pointer
 */
export function readDocument(doc, strings) {
  const { parentIndex, nodeType, nodeName, backendNodeId } = doc.nodes;
  /** node index → cursor of its box */
  const cursor = new Map();
  /** node index → box has some size */
  const sized = new Map();
  doc.layout.nodeIndex.forEach((ni, li) => {
    const style = doc.layout.styles[li];
    cursor.set(ni, style && style.length ? strings[style[0]] : '');
    const b = doc.layout.bounds[li];
    if (b && b[2] > 0 && b[3] > 0) sized.set(ni, true);
  });
  // The cursor a node would inherit: its nearest ancestor with a box (a
  // shadow root or a display:contents element has none).
  const inherited = (i) => {
    for (let p = parentIndex[i]; p !== undefined && p >= 0; p = parentIndex[p]) {
      if (cursor.has(p)) return cursor.get(p);
    }
    return '';
  };
  const boxed = new Map();
  for (const ni of sized.keys()) {
    if (nodeType[ni] !== ELEMENT || DOCUMENT_ELEMENTS.has(strings[nodeName[ni]])) continue;
    boxed.set(backendNodeId[ni], cursor.get(ni) === 'pointer' && inherited(ni) !== 'pointer');
  }
  return { frameId: strings[doc.frameId], boxed };
}

/**
 * The facts of one session's documents, per frame.
 * @param {{documents:any[], strings:string[]}} snap  a DOMSnapshot.captureSnapshot answer
 * @param {number[]} listening  backend ids of elements with a click listener
 * @param {number[]} [dropping]  backend ids of elements with a drop listener
 * @returns {Map<string, Array<{backendNodeId:number, pointer:boolean, listener:boolean, drop?:boolean}>>}
 */
export function clickFacts(snap, listening, dropping = []) {
  const listens = new Set(listening);
  const drops = new Set(dropping);
  const out = new Map();
  for (const doc of snap.documents) {
    const { frameId, boxed } = readDocument(doc, snap.strings);
    const facts = [];
    for (const [backendNodeId, pointer] of boxed) {
      const listener = listens.has(backendNodeId);
      // Said only where true: most pages have no drop targets, and every fact crosses into the Wasm.
      if (drops.has(backendNodeId)) facts.push({ backendNodeId, pointer, listener, drop: true });
      else if (pointer || listener) facts.push({ backendNodeId, pointer, listener });
    }
    out.set(frameId, facts);
  }
  return out;
}

const COUNTS = new Set(['aria-rowcount', 'aria-setsize']);
const INDICES = new Set(['aria-rowindex', 'aria-posinset']);

/**
 * Where the items of a long list sit: every element of a DOMSnapshot
 * document with `aria-rowcount` / `aria-setsize` (its `count`) or
 * `aria-rowindex` / `aria-posinset` (its `index`), positive numbers only
 * (`-1`, an unknown total, says nothing).
 * @param {any} doc  @param {string[]} strings
 * @returns {Array<{backendNodeId:number, count?:number, index?:number}>}
 */
export function readPositions(doc, strings) {
  const out = [];
  const { attributes, backendNodeId } = doc.nodes;
  (attributes || []).forEach((list, i) => {
    let fact = null;
    for (let k = 0; list && k + 1 < list.length; k += 2) {
      const name = strings[list[k]];
      const key = COUNTS.has(name) ? 'count' : INDICES.has(name) ? 'index' : null;
      if (!key) continue;
      const v = Number.parseInt(strings[list[k + 1]], 10);
      if (v > 0) (fact ||= { backendNodeId: backendNodeId[i] })[key] = v;
    }
    if (fact) out.push(fact);
  });
  return out;
}

/**
 * The boxes of a DOMSnapshot document's elements, flat
 * `[backendNodeId, x, y, width, height, …]` in document coordinates, for the
 * core to tell what is on screen (viewport.rs).
 * @param {any} doc  @param {string[]} strings
 * @returns {number[]}
 */
export function readBoxes(doc, strings) {
  const { nodeType, backendNodeId } = doc.nodes;
  const out = [];
  doc.layout.nodeIndex.forEach((ni, li) => {
    const b = doc.layout.bounds[li];
    if (nodeType[ni] === ELEMENT && b && b[2] > 0 && b[3] > 0) out.push(backendNodeId[ni], b[0], b[1], b[2], b[3]);
  });
  return out;
}

const SCROLLS = new Set(['auto', 'scroll']);
const TEXT = 3;

/**
 * Elements of a DOMSnapshot document (taken with `includeDOMRects` and the
 * computed `overflow-y` second) that scroll and hold at least twice what they
 * show: `{backendNodeId, scroll: {top, height, client, contentTop,
 * contentBottom}}`, the last two where the first and the last text inside
 * lie, in the element's content coordinates (for extent.rs).
 * @param {any} doc  @param {string[]} strings
 */
export function readScrollers(doc, strings) {
  const { parentIndex, nodeType, nodeName, backendNodeId } = doc.nodes;
  const { nodeIndex, bounds, styles, scrollRects, clientRects } = doc.layout;
  if (!scrollRects || !clientRects) return [];
  /** node index → {fact, top of its content box in the document} */
  const scrollers = new Map();
  nodeIndex.forEach((ni, li) => {
    const s = scrollRects[li], c = clientRects[li], style = styles[li];
    if (nodeType[ni] !== ELEMENT || DOCUMENT_ELEMENTS.has(strings[nodeName[ni]]) || !s || !c || c[3] <= 0 || s[3] < 2 * c[3]) return;
    if (!style || !SCROLLS.has(strings[style[1]])) return;
    const scroll = { top: s[1], height: s[3], client: c[3], contentTop: Infinity, contentBottom: -Infinity };
    scrollers.set(ni, { fact: { backendNodeId: backendNodeId[ni], scroll }, top: bounds[li][1] + c[1] });
  });
  if (!scrollers.size) return [];
  nodeIndex.forEach((ni, li) => {
    const b = bounds[li];
    if (nodeType[ni] !== TEXT || !b || b[3] <= 0) return;
    for (let p = parentIndex[ni]; p !== undefined && p >= 0; p = parentIndex[p]) {
      const s = scrollers.get(p);
      if (!s) continue;
      const y = b[1] - s.top + s.fact.scroll.top;
      s.fact.scroll.contentTop = Math.min(s.fact.scroll.contentTop, y);
      s.fact.scroll.contentBottom = Math.max(s.fact.scroll.contentBottom, y + b[3]);
    }
  });
  return [...scrollers.values()].map((s) => s.fact).filter((f) => Number.isFinite(f.scroll.contentTop));
}

/** One fact per element: a list's count and its scrolling, when one element has both. */
function mergeFacts(...lists) {
  const by = new Map();
  for (const f of lists.flat()) by.set(f.backendNodeId, { ...by.get(f.backendNodeId), ...f });
  return [...by.values()];
}

let groups = 0;

/**
 * Backend ids of the elements of a session's documents that listen for
 * clicks, and of those that listen for drops.
 * @returns {Promise<{clicks:number[], drops:number[]}>}
 */
async function listeners(tabId, session) {
  const objectGroup = `axsnap-clicks-${++groups}`;
  try {
    const { result } = await send(tabId, session, 'Runtime.evaluate', { expression: 'document', objectGroup });
    const { listeners: list } = await send(tabId, session, 'DOMDebugger.getEventListeners', { objectId: result.objectId, depth: -1, pierce: true });
    const of = (/** @type {Set<string>} */ events) => list.filter((l) => events.has(l.type) && l.backendNodeId).map((l) => l.backendNodeId);
    return { clicks: of(CLICK_EVENTS), drops: of(DROP_EVENTS) };
  } finally {
    send(tabId, session, 'Runtime.releaseObjectGroup', { objectGroup }).catch(() => {});
  }
}

/**
 * Adds `clickables` and `positions` to each frame read, and with `boxes`
 * the main frame's element `boxes` and `viewport` (the part of the document
 * on screen, from the same snapshot and one Page.getLayoutMetrics). A
 * session whose documents cannot be read leaves its frames without: the
 * snapshot then has what the tree gives. Answers whether the documents hold
 * shadow roots of their own (or could not be read).
 * @param {number} tabId
 * @param {Array<{key:string, parent?:string|null, partial?:boolean, clickables?:any[], positions?:any[], boxes?:number[], viewport?:any}>} frames
 * @param {Record<string, string|null>} frameSessions  frame key → session (null: the tab itself)
 * @param {{boxes?: boolean}} [want]
 */
export async function collectClickables(tabId, frames, frameSessions, want = {}) {
  const main = frames.find((f) => !f.parent);
  const layout = want.boxes && main && !main.partial && !frameSessions[main.key]
    ? send(tabId, undefined, 'Page.getLayoutMetrics', {}).catch(() => null) : null;
  // A very large frame is read as a window (frames.js): a snapshot of its
  // whole DOM would cost what the window saves, so its session gets none.
  const huge = new Set(frames.filter((f) => f.partial).map((f) => frameSessions[f.key] || undefined));
  const sessions = [...new Set(frames.map((f) => frameSessions[f.key] || undefined))].filter((s) => !huge.has(s));
  const perSession = await Promise.all(sessions.map(async (session) => {
    try {
      const [snap, listening] = await Promise.all([
        send(tabId, session, 'DOMSnapshot.captureSnapshot', { computedStyles: ['cursor', 'overflow-y'], includeDOMRects: true }),
        listeners(tabId, session).catch(() => ({ clicks: [], drops: [] })),
      ]);
      const positions = new Map(snap.documents.map((d) => [snap.strings[d.frameId], mergeFacts(readPositions(d, snap.strings), readScrollers(d, snap.strings))]));
      const mainDoc = layout && !session ? snap.documents.find((d) => snap.strings[d.frameId] === main.key) : null;
      if (mainDoc) main.boxes = readBoxes(mainDoc, snap.strings);
      return { clicks: clickFacts(snap, listening.clicks, listening.drops), positions, shadow: snap.documents.some((d) => hasShadowRoot(d, snap.strings)) };
    } catch {
      return { clicks: new Map(), positions: new Map(), shadow: true };
    }
  }));
  const metrics = await layout;
  const v = metrics && metrics.cssVisualViewport;
  if (v && main.boxes) main.viewport = { x: v.pageX, y: v.pageY, width: v.clientWidth, height: v.clientHeight };
  else if (main) delete main.boxes;
  const clicks = new Map(perSession.flatMap((m) => [...m.clicks]));
  const positions = new Map(perSession.flatMap((m) => [...m.positions]));
  for (const f of frames) {
    const facts = clicks.get(f.key);
    if (facts && facts.length) f.clickables = facts;
    const places = positions.get(f.key);
    if (places && places.length) f.positions = places;
  }
  return { shadow: perSession.some((m) => m.shadow) };
}

/**
 * Whether a DOMSnapshot document holds a shadow root of the page's own (open
 * or closed; not the browser's inside its controls): what changes inside one
 * no watcher of the document sees (incremental.js).
 */
export function hasShadowRoot(doc, strings) {
  const types = doc.nodes.shadowRootType;
  return Boolean(types && types.value.some((v) => strings[v] === 'open' || strings[v] === 'closed'));
}
