// Every frame of a tab: in-process frames through Page.getFrameTree on the
// tab's own connection, out-of-process frames (cross-site iframes) through
// the flat sessions Target.setAutoAttach gives us. Produces the core's
// multi-frame input: [{key: frameId, parent, owner, nodes}].

import { send, ensureAttached } from './cdp.js';

/** Auto-attach to out-of-process frames, on flat sessions, without pausing them. */
const autoAttach = (on) => ({ autoAttach: on, waitForDebuggerOnStart: false, flatten: true });

const SESSIONS_KEY = (tabId) => `sessions:${tabId}`;
/** tabId → Map(sessionId → {targetId, url}) */
const sessions = new Map();

/** Called from the worker's top-level chrome.debugger.onEvent listener. */
export function onDebuggerEvent(source, method, params) {
  const tabId = source.tabId;
  if (tabId === undefined) return;
  if (method === 'Target.attachedToTarget' && params.targetInfo && params.targetInfo.type === 'iframe') {
    const map = sessions.get(tabId) || new Map();
    map.set(params.sessionId, { targetId: params.targetInfo.targetId, url: params.targetInfo.url });
    sessions.set(tabId, map);
    persist(tabId);
    // Cross-site frames inside this one get their own sessions too.
    send(tabId, params.sessionId, 'Target.setAutoAttach', autoAttach(true)).catch(() => {});
  } else if (method === 'Target.detachedFromTarget') {
    const map = sessions.get(tabId);
    if (map && map.delete(params.sessionId)) persist(tabId);
  }
}

function persist(tabId) {
  const map = sessions.get(tabId) || new Map();
  chrome.storage.session.set({ [SESSIONS_KEY(tabId)]: [...map] }).catch(() => {});
}

export function forgetSessions(tabId) {
  sessions.delete(tabId);
  chrome.storage.session.remove(SESSIONS_KEY(tabId)).catch(() => {});
}

/** Attaches to the tab if needed; a fresh attachment starts watching its out-of-process frames. */
export async function attachTab(tabId) {
  if (await ensureAttached(tabId)) {
    sessions.set(tabId, new Map());
    await send(tabId, undefined, 'Target.setAutoAttach', autoAttach(true));
  }
}

/** The tab's frame sessions, restored from storage after a worker restart. */
async function knownSessions(tabId) {
  if (!sessions.has(tabId)) {
    const stored = /** @type {any} */ (await chrome.storage.session.get(SESSIONS_KEY(tabId)));
    const saved = stored[SESSIONS_KEY(tabId)];
    if (saved) {
      sessions.set(tabId, new Map(saved));
    } else {
      // Attached before a restart but nothing saved: re-announce the frames.
      sessions.set(tabId, new Map());
      await send(tabId, undefined, 'Target.setAutoAttach', autoAttach(false)).catch(() => {});
      await send(tabId, undefined, 'Target.setAutoAttach', autoAttach(true));
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return sessions.get(tabId);
}

function flatten(tree, out = [], parentId = undefined) {
  const f = tree.frame;
  out.push({ frameId: f.id, parentId: f.parentId || parentId, url: f.url });
  for (const c of tree.childFrames || []) flatten(c, out, f.id);
  return out;
}

/**
 * Fetches the accessibility tree of every frame.
 * @returns {Promise<{frames: Array<{key:string,parent?:string,owner?:number,nodes:any[]}>,
 *   frameSessions: Record<string, string|null>, failed: string[], mainFrameId: string}>}
 */
export async function collectFrames(tabId) {
  const map = await knownSessions(tabId);
  const all = [undefined, ...map.keys()];
  /** frameId → {sessionId, parentId} */
  const where = new Map();
  const trees = await Promise.all(all.map((s) => send(tabId, s, 'Page.getFrameTree').catch((e) => {
    // A frame session that went away between listing and asking.
    if (s) { map.delete(s); return null; }
    throw e;
  })));
  let mainFrameId = '';
  trees.forEach((t, i) => {
    if (!t) return;
    const list = flatten(t.frameTree);
    if (i === 0) mainFrameId = list[0].frameId;
    for (const f of list) {
      // A frame is read where it renders: its own session wins.
      if (!where.has(f.frameId) || all[i]) where.set(f.frameId, { sessionId: all[i], parentId: f.parentId, root: f === list[0] });
    }
  });
  const failed = [];
  const frames = await Promise.all([...where].map(async ([frameId, w]) => {
    const ownerSession = w.root && w.sessionId ? parentSession(where, w.parentId) : w.sessionId;
    const [tree, owner] = await Promise.all([
      send(tabId, w.sessionId, 'Accessibility.getFullAXTree', { frameId }).catch((e) => {
        failed.push(`${frameId}: ${e.message}`);
        return null;
      }),
      w.parentId
        ? send(tabId, ownerSession, 'DOM.getFrameOwner', { frameId }).then((r) => r.backendNodeId, () => undefined)
        : Promise.resolve(undefined),
    ]);
    if (!tree) return null;
    return { key: frameId, parent: w.parentId, owner, nodes: tree.nodes };
  }));
  /** @type {Record<string, string|null>} */
  const frameSessions = {};
  for (const [frameId, w] of where) frameSessions[frameId] = w.sessionId || null;
  return { frames: frames.filter(Boolean), frameSessions, failed, mainFrameId };
}

function parentSession(where, parentId) {
  const p = parentId && where.get(parentId);
  return p ? p.sessionId : undefined;
}
