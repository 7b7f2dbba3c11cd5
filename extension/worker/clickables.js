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
// else a drag could be dropped onto). Each fact carries its box's area, for
// the core to tell a card's own small control (a favourite heart) from
// the card's label. Only
// elements with a box of some size are reported: what cannot be seen
// cannot be clicked. `<html>` and `<body>` never are: a listener there is
// the page's, not a control's.

import { BEHIND_TREE_MS, send } from './cdp.js';

const CLICK_EVENTS = new Set(['click', 'mousedown', 'pointerdown']);
const DROP_EVENTS = new Set(['drop', 'dragover', 'dragenter']);
const ELEMENT = 1;
const DOCUMENT_ELEMENTS = new Set(['HTML', 'BODY']);

/**
 * One document of a DOMSnapshot: its elements with a box, by backend id, and
 * whether each set `cursor: pointer` itself.
 * @param {any} doc  @param {string[]} strings
 * @returns {{frameId:string, boxed: Map<number, {pointer: boolean, area: number}>}}  backend id → its own pointer, its box's area
 */
export function readDocument(doc, strings) {
  const { parentIndex, nodeType, nodeName, backendNodeId } = doc.nodes;
  /** node index → cursor of its box */
  const cursor = new Map();
  /** node index → area of its box, when it has some size */
  const sized = new Map();
  doc.layout.nodeIndex.forEach((ni, li) => {
    const style = doc.layout.styles[li];
    cursor.set(ni, style && style.length ? strings[style[0]] : '');
    const b = doc.layout.bounds[li];
    if (b && b[2] > 0 && b[3] > 0) sized.set(ni, areaOf(b[2], b[3]));
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
  for (const [ni, area] of sized) {
    if (nodeType[ni] !== ELEMENT || DOCUMENT_ELEMENTS.has(strings[nodeName[ni]])) continue;
    boxed.set(backendNodeId[ni], { pointer: cursor.get(ni) === 'pointer' && inherited(ni) !== 'pointer', area });
  }
  return { frameId: strings[doc.frameId], boxed };
}

/** A box's area in whole square pixels, at least 1 (a box of some size has some). */
export const areaOf = (width, height) => Math.max(1, Math.round(width * height));

/**
 * The facts of one session's documents, per frame.
 * @param {{documents:any[], strings:string[]}} snap  a DOMSnapshot.captureSnapshot answer
 * @param {number[]} listening  backend ids of elements with a click listener
 * @param {number[]} [dropping]  backend ids of elements with a drop listener
 * @returns {Map<string, ClickFact[]>}
 */
export function clickFacts(snap, listening, dropping = []) {
  const listens = new Set(listening);
  const drops = new Set(dropping);
  const out = new Map();
  for (const doc of snap.documents) {
    const { frameId, boxed } = readDocument(doc, snap.strings);
    const facts = [];
    for (const [backendNodeId, { pointer, area }] of boxed) {
      const fact = clickFact(backendNodeId, pointer, area, listens, drops);
      if (fact) facts.push(fact);
    }
    out.set(frameId, facts);
  }
  return out;
}

/** @typedef {{backendNodeId:number, pointer:boolean, listener:boolean, area:number, drop?:boolean}} ClickFact */

/**
 * The fact of an element with a box of some size, or null when it says nothing.
 * @param {number} backendNodeId  @param {boolean} pointer  @param {number} area
 * @param {Set<number>} listens  @param {Set<number>} drops
 * @returns {ClickFact|null}
 */
function clickFact(backendNodeId, pointer, area, listens, drops) {
  const listener = listens.has(backendNodeId);
  // Said only where true: most pages have no drop targets, and every fact crosses into the Wasm.
  if (drops.has(backendNodeId)) return { backendNodeId, pointer, listener, area, drop: true };
  if (pointer || listener) return { backendNodeId, pointer, listener, area };
  return null;
}

/**
 * A changed element's fact as the watcher codes it (incremental.js): 0
 * without a box of some size; else its box's area times 4, plus 1, or
 * plus 2 when it sets cursor: pointer itself.
 * @param {number} code
 */
export function decodeFact(code) {
  return code > 0 ? { pointer: code % 4 === 2, area: Math.floor(code / 4) } : null;
}

/**
 * @typedef {{key: string, document?: string, facts: Map<number, ClickFact>,
 *   positions: Map<number, any>, clicks: Set<number>, drops: Set<number>, boxes?: Map<number, number[]>|null}} KeptFacts
 *   the tab's only frame's facts at its last look, for the next look to update where the page changed;
 *   boxes: its elements' boxes (x, y, width, height in document coordinates), when that look read them
 */

/**
 * The facts of the tab's only frame now, from those kept at the last look
 * and what changed since (incremental.js): the changed elements' own,
 * every other element's as kept, its listeners read again for the whole
 * page. Null when that cannot tell: an element outside the changes began to
 * listen (its box is not known here). Pure.
 * @param {KeptFacts} kept
 * @param {Map<number, {code: number, attributes: string[]}>} changed
 * @param {{clicks: number[], drops: number[]}} now  the listeners now
 * @returns {KeptFacts|null}
 */
export function updateFacts(kept, changed, now) {
  const listens = new Set(now.clicks);
  const drops = new Set(now.drops);
  for (const [ids, before] of [[listens, kept.clicks], [drops, kept.drops]]) {
    for (const id of ids) if (!before.has(id) && !changed.has(id)) return null;
  }
  const facts = new Map();
  for (const [id, f] of kept.facts) {
    if (changed.has(id)) continue;
    const fact = clickFact(id, f.pointer, f.area, listens, drops);
    if (fact) facts.set(id, fact);
  }
  const positions = new Map([...kept.positions].filter(([id]) => !changed.has(id)));
  for (const [id, { code, attributes }] of changed) {
    const box = decodeFact(code);
    const fact = box ? clickFact(id, box.pointer, box.area, listens, drops) : null;
    if (fact) facts.set(id, fact);
    const place = positionOf(id, attributes);
    if (place) positions.set(id, place);
  }
  return { key: kept.key, document: kept.document, facts, positions, clicks: listens, drops };
}

/** Two boxes are the same one laid out again when they differ by less than this (CSS pixels). */
const SAME_BOX = 0.05;

/**
 * The frame's element boxes now, from those kept at the last look and what changed since: the changed
 * elements' own, every other element's as kept. Null when others may have moved: a changed place that
 * is not where and as large as it was (what is around it then moves), a list whose children came or
 * went (those after them move), or what the watcher says moves elements with no mutation (a web font
 * arriving, an animation of where or how large an element is). Pure.
 * @param {Map<number, number[]>} kept
 * @param {{changed: Map<number, {box: number[]|null}>, places: number[], kids: number, boxesDoubt: string|null}} changes
 * @returns {Map<number, number[]>|null}
 */
export function updateBoxes(kept, changes) {
  if (changes.boxesDoubt || changes.kids) return null;
  for (const id of changes.places) {
    const before = kept.get(id), now = changes.changed.get(id)?.box;
    if (!before || !now || before.some((v, k) => Math.abs(v - now[k]) >= SAME_BOX)) return null;
  }
  const boxes = new Map(kept);
  for (const [id, { box }] of changes.changed) {
    if (box) boxes.set(id, box);
    else boxes.delete(id);
  }
  return boxes;
}

/** Boxes flat, as the core takes them: `[backendNodeId, x, y, width, height, …]`. */
function flatBoxes(boxes) {
  const out = [];
  for (const [id, b] of boxes) out.push(id, b[0], b[1], b[2], b[3]);
  return out;
}

/** Flat boxes (readBoxes) by backend id. */
function boxesById(flat) {
  const out = new Map();
  for (let i = 0; i + 4 < flat.length; i += 5) out.set(flat[i], flat.slice(i + 1, i + 5));
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
    const fact = list ? positionOf(backendNodeId[i], list, (s) => strings[s]) : null;
    if (fact) out.push(fact);
  });
  return out;
}

/**
 * An element's place in a long list from its attributes (name, value, …), or null.
 * `text` reads one entry (a DOMSnapshot gives string indices): the list is
 * not copied, since every element of a large page passes here.
 * @template T
 * @param {number} backendNodeId  @param {T[]} attributes  @param {(a: T) => string} [text]
 * @returns {{backendNodeId:number, count?:number, index?:number}|null}
 */
export function positionOf(backendNodeId, attributes, text = (a) => /** @type {any} */ (a)) {
  let fact = null;
  for (let k = 0; k + 1 < attributes.length; k += 2) {
    const name = text(attributes[k]);
    const key = COUNTS.has(name) ? 'count' : INDICES.has(name) ? 'index' : null;
    if (!key) continue;
    const v = Number.parseInt(text(attributes[k + 1]), 10);
    if (v > 0) (fact ||= { backendNodeId })[key] = v;
  }
  return fact;
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

/**
 * Pages from this many accessibility nodes have their click facts updated where they changed; below it
 * their DOMSnapshot is small (10-40 ms on a small React app) and they are read whole.
 */
export const UPDATE_FROM_NODES = 3000;

/**
 * Backend ids of the elements of a session's documents that listen for
 * clicks, and of those that listen for drops.
 * @param {number} tabId  @param {string|undefined} session  @param {{timeoutMs?: number}} [first]  how its first call is sent
 * @returns {Promise<{clicks:number[], drops:number[]}>}
 */
async function listeners(tabId, session, first = {}) {
  // The document is asked for outside any object group: Chrome wraps every listener's handler (its source
  // text as the description) for a document in a group, which on a React page is most of the answer.
  const { result } = await send(tabId, session, 'Runtime.evaluate', { expression: 'document' }, first);
  try {
    const { listeners: list } = await send(tabId, session, 'DOMDebugger.getEventListeners', { objectId: result.objectId, depth: -1, pierce: true });
    const of = (/** @type {Set<string>} */ events) => list.filter((l) => events.has(l.type) && l.backendNodeId).map((l) => l.backendNodeId);
    return { clicks: of(CLICK_EVENTS), drops: of(DROP_EVENTS) };
  } finally {
    send(tabId, session, 'Runtime.releaseObject', { objectId: result.objectId }).catch(() => {});
  }
}

/**
 * How many nodes of the page's document lie in shadow trees of its own: every element, text and comment
 * counted through its shadow roots, open or closed (DOM.performSearch with an empty query matches each; the
 * browser's own shadow trees left out), less those the watcher counted without them (`light`). A closed
 * shadow root attached with no other change is what no watcher of the document sees. One pass over the
 * document in the page, and a count back: the page's heap, where a script's shadow roots could be counted
 * too, is searched only after collecting its garbage (hundreds of ms on a large page). A closed root left
 * empty is not counted (it holds no node); what is put into it is.
 * @param {number} tabId  @param {number} light
 */
async function shadowNodes(tabId, light) {
  await send(tabId, undefined, 'DOM.enable');
  const { searchId, resultCount } = await send(tabId, undefined, 'DOM.performSearch', { query: '', includeUserAgentShadowDOM: false });
  send(tabId, undefined, 'DOM.discardSearchResults', { searchId }).catch(() => {});
  return resultCount - light;
}

/**
 * One session's DOMSnapshot (the computed styles readDocument and
 * readScrollers read, and the rects readScrollers reads) and listeners.
 * @param {number} tabId  @param {string|undefined} session  @param {{timeoutMs?: number}} [o]  how the calls are sent
 * @returns {Promise<[any, {clicks:number[], drops:number[]}]>}
 */
function readSession(tabId, session, o = {}) {
  return Promise.all([
    send(tabId, session, 'DOMSnapshot.captureSnapshot', { computedStyles: ['cursor', 'overflow-y'], includeDOMRects: true }, o),
    listeners(tabId, session, o).catch(() => ({ clicks: [], drops: [] })),
  ]);
}

/**
 * A snapshot's reads of its sessions' click facts, each started (`start`, as
 * frames.js's `whole`) as soon as the whole trees of the session's frames are
 * asked for. Chrome answers a page's calls one at a time: asked then, the
 * DOMSnapshot is built right after the trees while their answers travel to
 * the worker and are read there, instead of after. `take` answers the reads
 * of a session, started ones when they were started for all of `frameIds`,
 * else new ones; reads never taken are dropped.
 * @param {number} tabId
 */
export function clickReads(tabId) {
  /** session key ('' the tab's) → the frames it was started for and its reads */
  const started = new Map();
  return {
    /** @param {string|undefined} session  @param {string[]} frameIds */
    start(session, frameIds) {
      // Chrome answers them once it has built the trees.
      const reads = readSession(tabId, session, { timeoutMs: BEHIND_TREE_MS });
      reads.catch(() => {});
      started.set(session || '', { frames: new Set(frameIds), reads });
    },
    /** @param {string|undefined} session  @param {string[]} frameIds */
    take(session, frameIds) {
      const s = started.get(session || '');
      return s && frameIds.every((id) => s.frames.has(id)) ? s.reads : readSession(tabId, session);
    },
  };
}

/**
 * Adds `clickables` and `positions` to each frame read, and with `boxes`
 * the main frame's element `boxes` and `viewport` (the part of the document
 * on screen, from the same snapshot and one Page.getLayoutMetrics). A
 * session whose documents cannot be read leaves its frames without: the
 * snapshot then has what the tree gives. Answers whether the documents hold
 * shadow roots of their own (or could not be read).
 * @param {number} tabId
 * @param {Array<{key:string, parent?:string|null, document?:string, partial?:boolean, nodes:any[], clickables?:any[], positions?:any[], boxes?:number[], viewport?:any}>} frames
 * @param {Record<string, string|null>} frameSessions  frame key → session (null: the tab itself)
 * @param {{boxes?: boolean}} [want]
 * @param {{kept?: KeptFacts|null, changes?: import('./incremental.js').FactChanges}} [since]  the facts of the
 *   tab's only frame at its last look, and what changed since (an incremental read): then updated, not read again
 * @param {ReturnType<typeof clickReads>} [reads]  the sessions' reads, some perhaps started during the fetch
 * @returns {Promise<{shadow: boolean, kept: KeptFacts|null, updated: boolean}>}  kept: the facts for the next look to
 *   update; updated: they were updated from the last look's, not read for the whole page
 */
export async function collectClickables(tabId, frames, frameSessions, want = {}, since = {}, reads = clickReads(tabId)) {
  const main = frames.find((f) => !f.parent);
  // The tab's only frame, read incrementally: its facts are updated where it changed, and so are its
  // boxes unless something else may have moved (updateBoxes).
  const only = frames.length === 1 && main && !main.partial && !frameSessions[main.key] ? main : null;
  const kept = since.kept && only && since.kept.key === only.key && since.kept.document === only.document ? since.kept : null;
  const changes = since.changes && 'changed' in since.changes ? since.changes : null;
  const layout = want.boxes && main && !main.partial && !frameSessions[main.key]
    ? send(tabId, undefined, 'Page.getLayoutMetrics', {}).catch(() => null) : null;
  const boxes = kept && changes && kept.boxes ? updateBoxes(kept.boxes, changes) : null;
  if (kept && changes && (boxes || !want.boxes) && only.nodes.length >= UPDATE_FROM_NODES) {
    const [now, shadows, metrics] = await Promise.all([listeners(tabId, undefined).catch(() => null), shadowNodes(tabId, changes.nodes).catch(() => -1), layout]);
    const next = now && shadows === 0 && updateFacts(kept, changes.changed, now);
    const v = metrics && metrics.cssVisualViewport;
    if (next && (v || !want.boxes)) {
      setFacts(only, [...next.facts.values()], [...next.positions.values()]);
      next.boxes = boxes;
      if (want.boxes) {
        only.boxes = flatBoxes(boxes);
        only.viewport = { x: v.pageX, y: v.pageY, width: v.clientWidth, height: v.clientHeight };
      }
      return { shadow: false, kept: next, updated: true };
    }
  }
  // A very large frame is read as a window (frames.js): a snapshot of its
  // whole DOM would cost what the window saves, so its session gets none.
  const huge = new Set(frames.filter((f) => f.partial).map((f) => frameSessions[f.key] || undefined));
  const sessions = [...new Set(frames.map((f) => frameSessions[f.key] || undefined))].filter((s) => !huge.has(s));
  const perSession = await Promise.all(sessions.map(async (session) => {
    try {
      const [snap, listening] = await reads.take(session, frames.filter((f) => (frameSessions[f.key] || undefined) === session).map((f) => f.key));
      const positions = new Map(snap.documents.map((d) => [snap.strings[d.frameId], mergeFacts(readPositions(d, snap.strings), readScrollers(d, snap.strings))]));
      const mainDoc = layout && !session ? snap.documents.find((d) => snap.strings[d.frameId] === main.key) : null;
      if (mainDoc) main.boxes = readBoxes(mainDoc, snap.strings);
      return { clicks: clickFacts(snap, listening.clicks, listening.drops), positions, listening, shadow: snap.documents.some((d) => hasShadowRoot(d, snap.strings)) };
    } catch {
      return { clicks: new Map(), positions: new Map(), listening: null, shadow: true };
    }
  }));
  const metrics = await layout;
  const v = metrics && metrics.cssVisualViewport;
  const mainBoxes = main && !main.partial && main.boxes ? boxesById(main.boxes) : null;
  if (v && main.boxes) main.viewport = { x: v.pageX, y: v.pageY, width: v.clientWidth, height: v.clientHeight };
  // A window's boxes were measured as it was read (large.js).
  else if (main && !main.partial) delete main.boxes;
  const clicks = new Map(perSession.flatMap((m) => [...m.clicks]));
  const positions = new Map(perSession.flatMap((m) => [...m.positions]));
  for (const f of frames) setFacts(f, clicks.get(f.key), positions.get(f.key));
  const shadow = perSession.some((m) => m.shadow);
  const listening = perSession.length === 1 && perSession[0].listening;
  /** @type {KeptFacts|null} */
  const keep = only && listening && !shadow ? {
    key: only.key, document: only.document, clicks: new Set(listening.clicks), drops: new Set(listening.drops),
    facts: new Map((clicks.get(only.key) || []).map((f) => [f.backendNodeId, f])),
    positions: new Map((positions.get(only.key) || []).map((f) => [f.backendNodeId, f])),
    boxes: mainBoxes,
  } : null;
  return { shadow, kept: keep, updated: false };
}

function setFacts(f, facts, places) {
  if (facts && facts.length) f.clickables = facts;
  if (places && places.length) f.positions = places;
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
