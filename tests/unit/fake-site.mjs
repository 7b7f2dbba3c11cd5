// A tiny stand-in for the extension's protocol over a scripted site, for
// unit tests of the agent loop's logic in Node (the real extension is
// tested end to end in Chromium). Its snapshots follow the real format.

/** @typedef {{title:string, url:string, lines:(s:any)=>string[], act?:(s:any, ref:string, action:string, value?:string)=>string|void}} FakePage */

export function fakeSite(pages, start) {
  const state = { page: start, fields: {}, log: [], history: [], tabs: [{ tabId: 1, title: '', url: '', active: true }] };
  const snap = () => {
    const p = pages[state.page];
    return `page "${p.title}" ${p.url}\n${p.lines(state).join('\n')}`;
  };
  const browser = {
    state,
    async call(msg) {
      state.log.push(msg);
      const p = pages[state.page];
      switch (msg.cmd) {
        case 'snapshot':
          if (msg.options?.diff) return { ok: false, error: { code: 'bad_options', message: 'unknown option "diff": known are mode, format' } };
          return { ok: true, tabId: msg.tabId, text: snap(), stats: {} };
        case 'act': {
          const next = p.act?.(state, msg.ref, msg.action, msg.value);
          if (next === 'stale') return { ok: false, error: { code: 'stale_ref', message: `${msg.ref} is gone: take a new snapshot` } };
          if (next) { state.history.push(state.page); state.page = next; }
          return { ok: true, action: msg.action, ref: msg.ref };
        }
        case 'resolve': {
          const line = snap().split('\n').find((l) => l.includes(` ${msg.ref}`));
          const link = line && line.match(/\[([^\]]*)\]\(([^)]*)\)/);
          return line ? { ok: true, ref: msg.ref, role: link ? 'link' : 'button', name: link ? link[1] : '', ...(link ? { url: new URL(link[2], p.url).href } : {}) } : { ok: false, error: { code: 'unknown_ref', message: 'never issued' } };
        }
        case 'navigate':
          state.navigated = msg.url;
          return { ok: true };
        case 'back':
          state.page = state.history.pop() || state.page;
          return { ok: true };
        case 'tabs':
          return { ok: true, tabs: state.tabs.map((t) => ({ ...t, windowId: 1, title: pages[state.page].title, url: pages[state.page].url })) };
        default:
          return { ok: false, error: { code: 'unknown_command', message: msg.cmd } };
      }
    },
  };
  return browser;
}

/** A host that answers every question the same way and records them. */
export function fakeHost({ confirm = true, secret = null, answer = 'yes' } = {}) {
  const asked = [];
  return {
    asked,
    confirm: async (r) => { asked.push({ type: 'confirm', ...r }); return confirm; },
    askSecret: async (r) => { asked.push({ type: 'secret', ...r }); return secret !== null; },
    ask: async (r) => { asked.push({ type: 'ask', ...r }); return answer; },
  };
}
