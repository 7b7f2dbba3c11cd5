// Every frame of a tab: in-process frames through Page.getFrameTree on the
// tab's own connection, out-of-process frames (cross-site iframes) through
// the flat sessions Target.setAutoAttach gives us. Produces the core's
// multi-frame input: [{key: frameId, parent, owner, document, url, nodes}],
// where `document` is Chrome's loaderId: a new one for every document the
// frame loads, the same across history-API URL changes. The frame sessions
// are kept in the tab's session (session.js).

import { send, ensureAttached, stillAttached } from './cdp.js';
import { tabSession, forget } from './session.js';
import { onDialogEvent, forgetDialog, openDialog, refuseIfDialog } from './dialogs.js';
import { FULL_READ_MAX, measure, readWindow, readWindowWithin } from './large.js';
import { arm, keep, readChanges } from './incremental.js';

/** Auto-attach to out-of-process frames, on flat sessions, without pausing them. */
const autoAttach = (on) => ({ autoAttach: on, waitForDebuggerOnStart: false, flatten: true });
/** How long a snapshot waits for the sessions of cross-site frames it can see but not read yet. */
const FRAME_WAIT_MS = 1500;
const IFRAME_ROLES = new Set(['Iframe', 'IframePresentational']);

/** Called from the worker's top-level chrome.debugger.onEvent listener. */
export function onDebuggerEvent(source, method, params) {
  const tabId = source.tabId;
  if (tabId === undefined) return;
  if (method === 'Target.attachedToTarget' && params.targetInfo && params.targetInfo.type === 'iframe') {
    tabSession(tabId).then((s) => {
      s.oopifs.set(params.sessionId, { targetId: params.targetInfo.targetId, url: params.targetInfo.url });
      s.save();
    });
    // Cross-site frames inside this one get their own sessions too.
    send(tabId, params.sessionId, 'Target.setAutoAttach', autoAttach(true)).catch(() => {});
  } else if (method === 'Target.detachedFromTarget') {
    tabSession(tabId).then((s) => {
      if (s.oopifs.delete(params.sessionId)) s.save();
    });
  } else if (method === 'Page.frameNavigated' && !source.sessionId && params.frame && !params.frame.parentId) {
    // The top frame shows a new document (or the same one again): the session knows which.
    forget(tabId, 'document', { document: params.frame.loaderId }).catch(() => {});
  } else if (method.startsWith('Page.javascriptDialog') && !source.sessionId) {
    // Chrome reports every frame's dialogs on the tab's own session.
    onDialogEvent(tabId, method, params);
  }
}

/**
 * Attaches to the tab if needed and sets it up: cross-site frames
 * auto-attached, dialogs reported. One set-up at a time per tab, so two
 * first requests in parallel both see every frame. Each request checks
 * (with the browser) that the connection is still there: one detached
 * behind the worker's back is attached again. Then refuses with
 * `dialog_open` while the tab shows a dialog, unless the request answers it.
 * @param {number} tabId
 * @param {{allowDialog?: boolean}} [o]
 */
export async function attachTab(tabId, o = {}) {
  const s = await tabSession(tabId);
  while (!(s.ready && (await stillAttached(tabId)))) {
    s.ready = false;
    const running = s.readying;
    if (running) {
      await running.catch(() => {});
      continue;
    }
    const job = setUpTab(tabId).finally(() => { s.readying = null; });
    s.readying = job;
    // A page showing a dialog cannot be set up; answering it needs only the connection.
    if (!(await job)) break;
  }
  if (!o.allowDialog) await refuseIfDialog(tabId);
}

/** @returns {Promise<boolean>} false when a dialog holds the page (set up after it is answered) */
async function setUpTab(tabId) {
  const fresh = await ensureAttached(tabId);
  // A new connection has seen no dialog (one open already shows as
  // page_busy); an inherited one may have, before the worker stopped, and
  // then Page events are on already.
  const s = await tabSession(tabId);
  if (fresh) forgetDialog(s);
  else if (await openDialog(tabId)) return false;
  if (!fresh) {
    // An inherited connection's frame sessions may be stale: off and on
    // again, auto-attach announces every frame anew.
    s.oopifs.clear();
    await send(tabId, undefined, 'Target.setAutoAttach', autoAttach(false));
  }
  await send(tabId, undefined, 'Target.setAutoAttach', autoAttach(true));
  s.announce = false;
  s.save();
  await send(tabId, undefined, 'Page.enable');
  s.ready = true;
  return true;
}

function flatten(tree, out = [], parentId = undefined) {
  const f = tree.frame;
  out.push({ frameId: f.id, parentId: f.parentId || parentId, url: f.url, origin: f.securityOrigin, document: f.loaderId });
  for (const c of tree.childFrames || []) flatten(c, out, f.id);
  return out;
}

/**
 * The tab's frames as Chrome has them now: where each is read (its session),
 * its origin (for the policy's frame rules) and the document it shows.
 * @returns {Promise<Array<{frameId:string, parentId?:string, origin?:string, url?:string, document?:string, sessionId?:string, root:boolean}>>}
 */
export async function listFrames(tabId) {
  const map = (await tabSession(tabId)).oopifs;
  const all = [undefined, ...map.keys()];
  /** frameId → where it is read */
  const where = new Map();
  const trees = await Promise.all(all.map((s) => send(tabId, s, 'Page.getFrameTree').catch((e) => {
    // A frame session that went away between listing and asking.
    if (s && e.code !== 'timeout' && e.code !== 'page_busy' && e.code !== 'dialog_open') {
      map.delete(s);
      return null;
    }
    throw e;
  })));
  trees.forEach((t, i) => {
    if (!t) return;
    const list = flatten(t.frameTree);
    for (const f of list) {
      // A frame is read where it renders: its own session wins (a cross-site frame is listed only there).
      if (!where.has(f.frameId) || all[i]) where.set(f.frameId, { ...f, sessionId: all[i], root: f === list[0] });
    }
  });
  return [...where.values()];
}

/**
 * Where a frame is now: the session to reach it and the document it shows.
 * @returns {Promise<{sessionId?: string, document?: string, url?: string, parentId?: string}|null>}
 */
export async function locateFrame(tabId, frameId) {
  return (await listFrames(tabId)).find((f) => f.frameId === frameId) || null;
}

/**
 * Fetches the accessibility tree of every frame, or of the frames `keep`
 * picks (a frame whose parent is left out becomes a root). Waits (up to
 * FRAME_WAIT_MS) for the sessions of cross-site frames whose <iframe> is in
 * a tree already read; a frame still missing then is named in `failed`.
 * Each frame's document is read before its tree: a navigation in between
 * makes refs stale, never wrong. A very large frame is read as a window
 * (large.js), from `start` when that element is in it; its child frames
 * outside the window are left out with it.
 * @param {number} tabId
 * @param {(frames: Awaited<ReturnType<typeof listFrames>>) => Set<string>|null} [keep]
 * @param {{frame: string, backendNodeId: number}} [start]  where a window starts (a `root` ref's element)
 * @param {{fresh?: boolean, whole?: (sessionId: string|undefined, frameIds: string[]) => void}} [o]  fresh: read every
 *   tree whole, whatever was kept; whole: called once per session (undefined: the tab's own) as soon as the whole
 *   trees of all its frames read this look are asked for (not for a frame read incrementally or as a window),
 *   with those frames: what else the session is asked then queues behind the trees in Chrome
 * @returns {Promise<{frames: Array<{key:string,parent?:string,owner?:number,document?:string,url?:string,nodes:any[]}>,
 *   frameSessions: Record<string, string|null>, failed: string[],
 *   partial: Array<{frame: string, elements: number, read: number, above: number, below: number}>,
 *   fetch: {incremental: boolean, reason?: string, changed?: number, nodesRead?: number, clickFacts?: string},
 *   changes?: import('./incremental.js').FactChanges}>}  changes: with an incremental read, the click facts of what changed
 */
export async function collectFrames(tabId, keep = () => null, start = undefined, o = {}) {
  const until = Date.now() + FRAME_WAIT_MS;
  /** frameId → the frame's input, or null when it could not be read */
  const read = new Map();
  /** frameId → the backend id of its <iframe> in its parent */
  const owners = new Map();
  const failed = [];
  /** frameId → the window read of a very large frame */
  const windows = new Map();
  let listed = [];
  let kept = null;
  let missing = [];
  /** @type {{incremental: boolean, reason?: string, fresh: boolean, changed?: number, nodesRead?: number, next?: string, changes?: any}} */
  const fetch = { incremental: false, reason: o.fresh ? 'asked for a full read' : undefined, fresh: Boolean(o.fresh) };
  /** frameIds whose whole tree has been asked for, and the sessions said to be read whole (by key, '' the tab's) */
  const asked = new Set();
  const told = new Set();
  /** The whole tree of `f` is asked for: when it is the last of its session's frames read this look, `o.whole` hears it. */
  const wholeAsked = (f) => {
    asked.add(f.frameId);
    if (!o.whole || told.has(f.sessionId || '')) return;
    const same = listed.filter((g) => g.sessionId === f.sessionId && (!kept || kept.has(g.frameId)));
    if (!same.every((g) => asked.has(g.frameId))) return;
    told.add(f.sessionId || '');
    o.whole(f.sessionId, same.map((g) => g.frameId));
  };
  for (;;) {
    listed = await listFrames(tabId);
    const where = new Map(listed.map((f) => [f.frameId, f]));
    kept = keep(listed);
    const unknown = listed.filter((f) => f.parentId && !owners.has(f.frameId));
    const fresh = listed.filter((f) => !read.has(f.frameId) && (!kept || kept.has(f.frameId)));
    await Promise.all([
      ...unknown.map(async (f) => owners.set(f.frameId, await ownerOf(tabId, f, where))),
      ...fresh.map(async (f) => read.set(f.frameId, await readTree(tabId, f, failed, windows, start, listed.length === 1 ? fetch : null, wholeAsked))),
    ]);
    missing = unread(read, listed, owners);
    if (!missing.length || Date.now() > until) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  for (const m of missing) failed.push(`${m.frame}: an iframe (node ${m.owner}) whose document could not be reached`);
  const byId = new Map(listed.map((f) => [f.frameId, f]));
  const outside = outsideWindows(read, byId, owners, windows);
  const frames = [];
  for (const [frameId, nodes] of read) {
    const f = byId.get(frameId);
    if (!nodes || !f || outside.has(frameId)) continue;
    const parent = f.parentId && (!kept || kept.has(f.parentId)) ? f.parentId : undefined;
    const frame = { key: frameId, parent, owner: parent ? owners.get(frameId) : undefined, document: f.document, url: f.url, partial: windows.has(frameId), nodes };
    // The top frame read as a window: the places of its elements near the view, measured as it was read.
    const places = !parent && windows.get(frameId)?.places;
    frames.push(places ? { ...frame, boxes: places.boxes, viewport: places.viewport } : frame);
  }
  /** @type {Record<string, string|null>} */
  const frameSessions = {};
  for (const w of listed) frameSessions[w.frameId] = w.sessionId || null;
  const partial = [...windows].filter(([k]) => !outside.has(k)).map(([frame, { places: _, ...w }]) => ({ frame, ...w }));
  if (!fetch.incremental && !fetch.reason) fetch.reason = 'more than one frame';
  const { fresh: _, changes, ...said } = fetch;
  return { frames, frameSessions, failed, partial, fetch: said, changes };
}

/**
 * The frame's accessibility nodes (of a window of it, when it is very
 * large), or null (named in `failed`); a page that does not answer fails the snapshot.
 * `fetch` (the tab's only frame): read only what changed since the tree kept
 * in the tab's session where incremental.js can, and say how it was read.
 * `asked(f)` is called once its whole tree is asked for.
 */
async function readTree(tabId, f, failed, windows, start, fetch, asked) {
  const session = await tabSession(tabId);
  const kept = session.axTree;
  // Whatever happens below, a tree kept before it is no longer the page's.
  session.axTree = null;
  const mine = fetch && !f.parentId && !f.sessionId;
  try {
    if (mine) {
      const nodes = await readSpliced(tabId, f, kept, fetch, session);
      if (nodes) return nodes;
    }
    // A frame that cannot be measured is read whole, within the deadline.
    const measured = await measure(tabId, f.sessionId, f.frameId).catch((e) => {
      if (e.code === 'timeout' || e.code === 'page_busy' || e.code === 'dialog_open') throw e;
      return null;
    });
    if (measured && measured.elements > FULL_READ_MAX) {
      const from = start && start.frame === f.frameId ? start.backendNodeId : undefined;
      // The window turns the Accessibility domain off: node ids kept from before mean nothing after it.
      const { nodes, window, places } = await readWindowWithin((until) => readWindow(tabId, f.sessionId, f.frameId, measured, from, until),
        { main: !f.parentId, elements: measured.elements });
      windows.set(f.frameId, { ...window, places });
      return nodes;
    }
    if (mine) return await readKept(tabId, f, fetch, session, asked);
    const tree = send(tabId, f.sessionId, 'Accessibility.getFullAXTree', { frameId: f.frameId });
    asked(f);
    return (await tree).nodes;
  } catch (e) {
    if (e.code === 'timeout' || e.code === 'page_busy' || e.code === 'dialog_open') throw e;
    failed.push(`${f.frameId}: ${e.message}`);
    return null;
  }
}

/**
 * The top frame's tree, the only one of the tab, spliced from the kept tree
 * and what changed since; null when it must be read whole (`fetch.reason` says why).
 */
async function readSpliced(tabId, f, kept, fetch, session) {
  let why = fetch.reason;
  if (!why && !kept) why = 'no tree kept from a previous look';
  else if (!why && (kept.frameId !== f.frameId || kept.document !== f.document)) why = 'a new document';
  if (!why) {
    try {
      const r = await readChanges(tabId, f, kept);
      if ('nodes' in r) {
        session.axTree = r.kept;
        Object.assign(fetch, { incremental: true, changed: r.roots, nodesRead: r.read, changes: r.facts });
        return r.nodes;
      }
      why = r.doubt;
    } catch (e) {
      if (e.code === 'timeout' || e.code === 'page_busy' || e.code === 'dialog_open') throw e;
      why = `a CDP error: ${e.message}`;
    }
  }
  fetch.reason = why;
  return null;
}

/** The whole tree, read with the watcher armed first (so nothing changing meanwhile goes unseen), and kept. */
async function readKept(tabId, f, fetch, session, asked) {
  const watcher = await arm(tabId, f.frameId).catch((e) => {
    if (e.code === 'timeout' || e.code === 'page_busy' || e.code === 'dialog_open') throw e;
    return null;
  });
  const tree = send(tabId, undefined, 'Accessibility.getFullAXTree', { frameId: f.frameId });
  // After the watcher is armed: what the page reads next about its elements misses no change since.
  asked(f);
  const { nodes } = await tree;
  // A page the watcher cannot follow is read whole next time too: nothing is kept.
  if (watcher && !watcher.doubt && nodes.length) session.axTree = keep(f.frameId, f.document, watcher.token, nodes);
  else fetch.next = watcher ? watcher.doubt : 'the watcher could not start';
  return nodes;
}

/** The backend id of a frame's <iframe>, asked where its parent renders. */
async function ownerOf(tabId, f, where) {
  const session = f.root && f.sessionId ? where.get(f.parentId)?.sessionId : f.sessionId;
  try {
    return (await send(tabId, session, 'DOM.getFrameOwner', { frameId: f.frameId })).backendNodeId;
  } catch {
    return undefined;
  }
}

/** Frames below a window's edge: their <iframe> is not among the nodes read, nor is that of a frame above them. */
function outsideWindows(read, byId, owners, windows) {
  const out = new Set();
  if (!windows.size) return out;
  const shown = new Map();
  const has = (frameId, backendId) => {
    if (!shown.has(frameId)) shown.set(frameId, new Set((read.get(frameId) || []).map((n) => n.backendDOMNodeId)));
    return shown.get(frameId).has(backendId);
  };
  const left = (frameId, seen = new Set()) => {
    const f = byId.get(frameId);
    if (!f || !f.parentId || seen.has(frameId)) return false;
    seen.add(frameId);
    if (windows.has(f.parentId) && !has(f.parentId, owners.get(frameId))) return true;
    return left(f.parentId, seen);
  };
  for (const frameId of read.keys()) if (left(frameId)) out.add(frameId);
  return out;
}

/** <iframe> elements in the trees read whose frame Chrome has not listed yet (its session is still coming). */
function unread(read, listed, owners) {
  const children = new Map();
  for (const f of listed) {
    if (!f.parentId) continue;
    const c = children.get(f.parentId) || { known: new Set(), unknown: 0 };
    const o = owners.get(f.frameId);
    if (o === undefined) c.unknown++;
    else c.known.add(o);
    children.set(f.parentId, c);
  }
  const out = [];
  for (const [frameId, nodes] of read) {
    if (!nodes) continue;
    const c = children.get(frameId) || { known: new Set(), unknown: 0 };
    let spare = c.unknown;
    for (const n of nodes) {
      if (n.ignored || !IFRAME_ROLES.has(n.role?.value) || n.backendDOMNodeId === undefined || c.known.has(n.backendDOMNodeId)) continue;
      if (spare > 0) spare--;
      else out.push({ frame: frameId, owner: n.backendDOMNodeId });
    }
  }
  return out;
}
