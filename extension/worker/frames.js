// Every frame of a tab: in-process frames through Page.getFrameTree on the
// tab's own connection, out-of-process frames (cross-site iframes) through
// the flat sessions Target.setAutoAttach gives us. Produces the core's
// multi-frame input: [{key: frameId, parent, owner, nodes}]. The frame
// sessions are kept in the tab's session (session.js).

import { send, ensureAttached } from './cdp.js';
import { tabSession } from './session.js';

/** Auto-attach to out-of-process frames, on flat sessions, without pausing them. */
const autoAttach = (on) => ({ autoAttach: on, waitForDebuggerOnStart: false, flatten: true });

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
  }
}

/** Attaches to the tab if needed; a fresh attachment starts watching its out-of-process frames. */
export async function attachTab(tabId) {
  if (await ensureAttached(tabId)) {
    await send(tabId, undefined, 'Target.setAutoAttach', autoAttach(true));
  }
}

/** The tab's frame sessions, as restored from storage after a worker restart. */
async function knownSessions(tabId) {
  const s = await tabSession(tabId);
  if (s.announce) {
    // Attached before a restart but nothing saved: re-announce the frames.
    s.announce = false;
    await send(tabId, undefined, 'Target.setAutoAttach', autoAttach(false)).catch(() => {});
    await send(tabId, undefined, 'Target.setAutoAttach', autoAttach(true));
    await new Promise((r) => setTimeout(r, 50));
  }
  return s.oopifs;
}

function flatten(tree, out = [], parentId = undefined) {
  const f = tree.frame;
  out.push({ frameId: f.id, parentId: f.parentId || parentId, url: f.url, origin: f.securityOrigin, loaderId: f.loaderId });
  for (const c of tree.childFrames || []) flatten(c, out, f.id);
  return out;
}

/**
 * The tab's frames as Chrome has them now: where each is read (its session)
 * and its origin (for the policy's frame rules).
 * @returns {Promise<Array<{frameId:string, parentId?:string, origin?:string, url?:string, loaderId?:string, sessionId?:string, root:boolean}>>}
 */
export async function listFrames(tabId) {
  const map = await knownSessions(tabId);
  const all = [undefined, ...map.keys()];
  /** frameId → where it is read */
  const where = new Map();
  const trees = await Promise.all(all.map((s) => send(tabId, s, 'Page.getFrameTree').catch((e) => {
    // A frame session that went away between listing and asking.
    if (s) { map.delete(s); return null; }
    throw e;
  })));
  trees.forEach((t, i) => {
    if (!t) return;
    const list = flatten(t.frameTree);
    for (const f of list) {
      // A frame is read where it renders: its own session wins.
      if (!where.has(f.frameId) || all[i]) where.set(f.frameId, { ...f, sessionId: all[i], root: f === list[0] });
    }
  });
  return [...where.values()];
}

/**
 * Fetches the accessibility tree of every frame, or of the frames `keep`
 * picks (a frame whose parent is left out becomes a root).
 * @param {number} tabId
 * @param {(frames: Awaited<ReturnType<typeof listFrames>>) => Set<string>|null} [keep]
 * @returns {Promise<{frames: Array<{key:string,parent?:string,owner?:number,document?:string,nodes:any[]}>,
 *   frameSessions: Record<string, string|null>, failed: string[]}>}
 */
export async function collectFrames(tabId, keep = () => null) {
  const listed = await listFrames(tabId);
  const where = new Map(listed.map((f) => [f.frameId, f]));
  const kept = keep(listed);
  const wanted = kept ? listed.filter((f) => kept.has(f.frameId)) : listed;
  const failed = [];
  const frames = await Promise.all(wanted.map(async (w) => {
    const { frameId } = w;
    const ownerSession = w.root && w.sessionId ? parentSession(where, w.parentId) : w.sessionId;
    const parent = w.parentId && (!kept || kept.has(w.parentId)) ? w.parentId : undefined;
    const [tree, owner] = await Promise.all([
      send(tabId, w.sessionId, 'Accessibility.getFullAXTree', { frameId }).catch((e) => {
        failed.push(`${frameId}: ${e.message}`);
        return null;
      }),
      parent
        ? send(tabId, ownerSession, 'DOM.getFrameOwner', { frameId }).then((r) => r.backendNodeId, () => undefined)
        : Promise.resolve(undefined),
    ]);
    if (!tree) return null;
    // The document is Chrome's loader id: refs and remembered secrets belong to it.
    return { key: frameId, parent, owner, document: w.loaderId, nodes: tree.nodes };
  }));
  /** @type {Record<string, string|null>} */
  const frameSessions = {};
  for (const w of listed) frameSessions[w.frameId] = w.sessionId || null;
  return { frames: frames.filter(Boolean), frameSessions, failed };
}

function parentSession(where, parentId) {
  const p = parentId && where.get(parentId);
  return p ? p.sessionId : undefined;
}
