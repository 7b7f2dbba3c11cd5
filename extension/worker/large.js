// Very large frames are read as a window. Chrome builds and serialises a
// frame's whole accessibility tree in one answer, at about 0.1 ms a node on
// a quiet machine and five times that on a busy one: a page of 100,000 links
// (600,000 nodes) took four minutes, froze the page all along, and would
// have put hundreds of megabytes in the worker. So each frame's elements are
// counted first (one script in an isolated world, which the page's scripts
// cannot see or change); a frame of more than FULL_READ_MAX elements is read
// in part: the elements from the first one in view (or from the element a
// `root` ref names) onwards, WINDOW_ELEMENTS at most, in blocks (subtrees of
// at most BLOCK_ELEMENTS, one Accessibility.queryAXTree each), plus each
// larger element above them (one getPartialAXTree each, without relatives).
// A note at the top of the frame says how much was read and what was left
// out above and below, one at the bottom where the window ends; scrolling
// (or a `root` ref) and snapshotting again reads elsewhere. Refs stay stable
// across windows: the same document, the same nodes.

import { send, DEADLINE_MS } from './cdp.js';
import { AxError } from './errors.js';

/** A frame with at most this many elements is read whole (the largest page of the corpus has 14,810). */
export const FULL_READ_MAX = 30000;
/** Elements a window holds at most. */
export const WINDOW_ELEMENTS = 4000;
/** Elements one block (one call) holds at most. */
const BLOCK_ELEMENTS = 400;
/** Calls a window makes at most (a list of tiny items is a block per item). */
const WINDOW_CALLS = 1000;
/** Calls in flight at once: enough to hide the round trips, few enough not to flood the page. */
const PARALLEL = 32;
/** After this long, blocks not asked for yet are left out (and counted as such). */
const WINDOW_MS = 10000;
/** Picking the window, and building the frame's accessibility tree before the first answer, grow with the page. */
const BUILD_MS = 30000;
/**
 * A window read, its second try included, ends by then (and waits at most 5 s more for the page to let its
 * accessibility tree go): a snapshot then still answers (a window or a typed error) within the 60 s an MCP
 * client's call waits, with time left for counting the frame's elements first (5 s at most).
 */
export const WINDOW_READ_MS = 48000;
/** Elements near the view whose places the window reads at most (a screen of small links is a few hundred). */
const PLACES_MAX = 1500;
const WORLD = 'axsnap';
const GROUP = 'axsnap-window';

/**
 * How many elements the frame has (open shadow trees included), counted in
 * an isolated world: the page's scripts cannot change what the count sees.
 * Chrome keeps one world of a name per frame, so asking again costs nothing.
 * @returns {Promise<{contextId: number, elements: number}>}
 */
export async function measure(tabId, sessionId, frameId) {
  const { executionContextId: contextId } = await send(tabId, sessionId, 'Page.createIsolatedWorld', { frameId, worldName: WORLD });
  const { result } = await send(tabId, sessionId, 'Runtime.evaluate', { contextId, returnByValue: true, expression: `(${count})()` });
  return { contextId, elements: Number(result.value) || 0 };
}

/** Runs in the isolated world. */
function count() {
  let n = 0;
  const walk = (root) => {
    const all = root.querySelectorAll('*');
    n += all.length;
    for (const e of all) if (e.shadowRoot) walk(e.shadowRoot);
  };
  walk(document);
  return n;
}

/**
 * Picks the window: blocks (subtrees small enough for one call) in document
 * order from the first one in view or from `start`, and the larger elements
 * above them. Runs in the isolated world; keeps the chosen elements in
 * `globalThis.axsnapWindow` (only this world sees it) for the calls after.
 * @param {number} windowElements  @param {number} blockElements  @param {number} maxCalls  @param {number} maxPlaces
 * @param {Element} [start]
 */
function pick(windowElements, blockElements, maxCalls, maxPlaces, start) {
  const body = document.body || document.documentElement;
  const all = [body, ...body.getElementsByTagName('*')];
  const size = new Map();
  for (let i = all.length - 1; i >= 0; i--) {
    const e = all[i];
    const s = (size.get(e) || 0) + 1;
    size.set(e, s);
    const p = e.parentElement;
    if (p && e !== body) size.set(p, (size.get(p) || 0) + s);
  }
  const blocks = [];
  const walk = (e) => {
    if (size.get(e) <= blockElements) blocks.push(e);
    else for (const c of e.children) walk(c);
  };
  walk(body);
  let first = -1;
  if (start && start.nodeType === 1) {
    first = blocks.findIndex((b) => b === start || b.contains(start) || (start.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING));
  }
  if (first < 0) first = blocks.findIndex((b) => b.getBoundingClientRect().bottom > 0);
  if (first < 0) first = 0;
  const chosen = [];
  let read = 0;
  for (let i = first; i < blocks.length && read < windowElements && chosen.length < maxCalls; i++) {
    chosen.push(blocks[i]);
    read += size.get(blocks[i]);
  }
  const above = new Set();
  for (const b of chosen) {
    for (let a = b.parentElement; a && !above.has(a); a = a.parentElement) above.add(a);
  }
  let before = 0;
  for (let i = 0; i < first; i++) before += size.get(blocks[i]);
  globalThis.axsnapWindow = [...above, ...chosen];
  // The places of the window's elements within a screen of the view, so
  // the snapshot keeps what is on screen when it must cut.
  const view = document.documentElement;
  const [top, height] = [0, view.clientHeight];
  const near = [];
  const rects = [];
  for (const b of chosen) {
    for (const e of [b, ...b.getElementsByTagName('*')]) {
      const r = e.getBoundingClientRect();
      if (r.width <= 0 || r.height <= 0 || r.bottom < top - height || r.top > top + 2 * height) continue;
      near.push(e);
      rects.push(r.x + scrollX, r.y + scrollY, r.width, r.height);
      if (near.length >= maxPlaces) break;
    }
    if (near.length >= maxPlaces) break;
  }
  globalThis.axsnapNear = near;
  const viewport = { x: scrollX, y: scrollY, width: view.clientWidth, height };
  return { ancestors: above.size, sizes: chosen.map((b) => size.get(b)), before, total: all.length, rects, viewport };
}

const fmt = (n) => n.toLocaleString('en-US');

/**
 * The element boxes `pick` measured near the view, as the core takes them
 * (`[backendNodeId, x, y, width, height, …]` in document coordinates), and
 * the part of the document in view; null when they cannot be had.
 * @returns {Promise<{boxes: number[], viewport: {x: number, y: number, width: number, height: number}}|null>}
 */
async function places(call, contextId, w) {
  try {
    const { result: list } = await call('Runtime.evaluate', { contextId, expression: 'globalThis.axsnapNear', objectGroup: GROUP });
    const { result: props } = await call('Runtime.getProperties', { objectId: list.objectId, ownProperties: true });
    const elements = props.filter((p) => /^\d+$/.test(p.name)).sort((a, b) => a.name - b.name).map((p) => p.value.objectId);
    const ids = [];
    for (let i = 0; i < elements.length; i += PARALLEL) {
      ids.push(...(await Promise.all(elements.slice(i, i + PARALLEL).map((objectId) => call('DOM.describeNode', { objectId }).then((r) => r.node.backendNodeId, () => 0)))));
    }
    const boxes = ids.flatMap((id, i) => (id ? [id, ...w.rects.slice(4 * i, 4 * i + 4)] : []));
    return boxes.length ? { boxes, viewport: w.viewport } : null;
  } catch {
    return null;
  }
}

/** A line of text the core prints where the frame's content starts or ends. */
const note = (id, text) => ({ nodeId: id, ignored: false, role: { type: 'role', value: 'StaticText' }, name: { type: 'computedString', value: text }, childIds: [] });

/**
 * The accessibility nodes of a window of a large frame, with notes saying
 * what was left out.
 * @param {number} tabId  @param {string|undefined} sessionId  @param {string} frameId
 * @param {{contextId: number, elements: number}} measured
 * @param {number} [startNode]  the backend id of the element to start from (a `root` ref's)
 * @param {number} [until]  when its calls end at the latest (ms since the epoch)
 * @returns {Promise<{nodes: any[], window: {elements: number, read: number, above: number, below: number}, places: {boxes: number[], viewport: any}|null}>}
 */
export async function readWindow(tabId, sessionId, frameId, measured, startNode, until = Date.now() + WINDOW_READ_MS) {
  const { contextId } = measured;
  // Every call ends by `until`, however long its own deadline: a page too busy to answer in time fails the read.
  const call = (method, params, opts = {}) => send(tabId, sessionId, method, params,
    { ...opts, timeoutMs: Math.max(1, Math.min(opts.timeoutMs ?? DEADLINE_MS, until - Date.now())) });
  // Node ids agree across the calls below only while the domain is on.
  await call('Accessibility.enable');
  try {
    let startArg = [];
    if (startNode !== undefined) {
      const r = await call('DOM.resolveNode', { backendNodeId: startNode, executionContextId: contextId, objectGroup: GROUP }).catch(() => null);
      if (r) startArg = [{ objectId: r.object.objectId }];
    }
    // Picking walks every element of the frame once (and lays it out, after a scroll): more than a quick question.
    const { result: picked } = await call('Runtime.callFunctionOn', {
      executionContextId: contextId, functionDeclaration: pick.toString(), returnByValue: true,
      arguments: [{ value: WINDOW_ELEMENTS }, { value: BLOCK_ELEMENTS }, { value: WINDOW_CALLS }, { value: PLACES_MAX }, ...startArg],
    }, { timeoutMs: BUILD_MS });
    const w = picked.value;
    const { result: list } = await call('Runtime.evaluate', { contextId, expression: 'globalThis.axsnapWindow', objectGroup: GROUP });
    const { result: props } = await call('Runtime.getProperties', { objectId: list.objectId, ownProperties: true });
    const elements = props.filter((p) => /^\d+$/.test(p.name)).sort((a, b) => a.name - b.name).map((p) => p.value.objectId);
    // The first answer waits for Chrome to build the frame's whole tree.
    const { node: root } = await call('Accessibility.getRootAXNode', { frameId }, { timeoutMs: BUILD_MS });
    const stop = Math.min(Date.now() + WINDOW_MS, until);
    const parts = [];
    let asked = 0;
    for (; asked < elements.length && Date.now() < stop; asked += PARALLEL) {
      parts.push(...(await Promise.all(elements.slice(asked, asked + PARALLEL).map((objectId, k) => (asked + k < w.ancestors
        ? call('Accessibility.getPartialAXTree', { objectId, fetchRelatives: false })
        : call('Accessibility.queryAXTree', { objectId })).then((r) => r.nodes, () => [])))));
    }
    asked = Math.min(asked, elements.length);
    const readBlocks = w.sizes.slice(0, Math.max(0, asked - w.ancestors));
    const read = readBlocks.reduce((a, b) => a + b, 0) + Math.min(asked, w.ancestors);
    const below = Math.max(0, w.total - w.before - read);
    const byId = new Map([[root.nodeId, { ...root }]]);
    for (const n of parts.flat()) if (!byId.has(n.nodeId)) byId.set(n.nodeId, n);
    // An element above the window lists all its children: only those read
    // are kept (the notes count the rest), so the core gets no dangling ids.
    for (const n of byId.values()) if (n.childIds) n.childIds = n.childIds.filter((c) => byId.has(c));
    const top = byId.get(root.nodeId);
    const head = `… a very large frame (${fmt(w.total)} elements): this snapshot read ${fmt(read)} of them`
      + `${startArg.length ? ', from the element asked for' : ', from the first in view'};`
      + ` ${fmt(w.before)} above and ${fmt(below)} below were not read. Scroll (or ask for a subtree by ref) and snapshot again to read them.`;
    const tail = `… ${fmt(below)} elements below were not read: scroll down and snapshot again to read them.`;
    byId.set('axsnap-window-head', note('axsnap-window-head', head));
    byId.set('axsnap-window-tail', note('axsnap-window-tail', tail));
    // Each note goes where the window starts or ends (beside the first or
    // last block read), so a subtree snapshot of the list holding them says
    // it too; at the frame's top or bottom when that place is unknown.
    const blocks = parts.slice(w.ancestors).filter((p) => p.length);
    const place = (id, block, after) => {
      const parent = block && byId.get(block[0].parentId);
      const at = parent ? parent.childIds.indexOf(block[0].nodeId) : -1;
      if (at < 0) top.childIds = after ? [...top.childIds, id] : [id, ...top.childIds];
      else parent.childIds.splice(after ? at + 1 : at, 0, id);
    };
    place('axsnap-window-head', blocks[0], false);
    place('axsnap-window-tail', blocks[blocks.length - 1], true);
    return { nodes: [...byId.values()], window: { elements: w.total, read, above: w.before, below }, places: await places(call, contextId, w) };
  } finally {
    call('Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => {});
    call('Runtime.evaluate', { contextId, expression: 'delete globalThis.axsnapWindow; delete globalThis.axsnapNear' }).catch(() => {});
    // Accessibility left on slows the page down (and sends events) for as
    // long as it stays on. Turning it off takes the page a while, and the
    // next request would wait behind it: waited for here.
    await send(tabId, sessionId, 'Accessibility.disable', {}, { timeoutMs: Math.max(DEADLINE_MS, until - Date.now()) }).catch(() => {});
  }
}

const PAGE_FAILURES = new Set(['timeout', 'page_busy', 'dialog_open']);

/**
 * A window read (`read(until)`, whose calls end by `until`) within `ms`: read once more when a part of it
 * failed (a call the busy page dropped), by the same deadline, since a second full budget would outlast the
 * caller's wait. The page's own failures (a timeout, a busy page, a dialog) are not read again. A read that
 * still fails, or has not answered when the deadline passes, fails the tab's own page (`main`) with a typed
 * `timeout`: without it the answer would be a page line and nothing of what is on screen. A frame's read
 * fails with what it failed with (the snapshot goes on without that frame). Pure: `read` does the reading.
 * @template T
 * @param {(until: number) => Promise<T>} read
 * @param {{main: boolean, elements: number, ms?: number}} o  elements: the frame's, for the message
 * @returns {Promise<T>}
 */
export async function readWindowWithin(read, { main, elements, ms = WINDOW_READ_MS }) {
  const until = Date.now() + ms;
  const why = (detail) => new AxError('timeout', `the page is very large (${elements.toLocaleString('en-US')} elements) and the part of it`
    + ` in view could not be read ${detail}: try again, or snapshot a part of it with root`);
  let timer;
  // Its calls end by the deadline; should one not, the answer does not wait for it.
  const late = new Promise((_, reject) => { timer = setTimeout(() => reject(why(`within ${ms / 1000} s`)), ms + 1000); });
  const attempt = () => Promise.race([read(until), late]);
  try {
    try {
      return await attempt();
    } catch (e) {
      if (PAGE_FAILURES.has(e.code)) throw e;
      try {
        return await attempt();
      } catch (again) {
        if (!main || PAGE_FAILURES.has(again.code)) throw again;
        throw why(`twice (${again.message})`);
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
