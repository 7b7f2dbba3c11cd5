// A tiny stand-in for the extension's protocol over a scripted site, for
// unit tests of the agent loop's logic in Node (the real extension is
// tested end to end in Chromium). Its answers have the real shape: the
// printed text, and the typed facts of its refs and its page.

import { siteOf } from '../../protocol/site.js';

/**
 * A page line: plain text, or an element made by `el` (its text and its facts).
 * @typedef {string | {text:string, ref:string, fact:object}} FakeLine
 * @typedef {{title:string, url:string, lines:(s:any)=>FakeLine[], act?:(s:any, ref:string, action:string, value?:string)=>string|void}} FakePage
 */

/** An element's line and facts: `el('button', 'A7', 'Buy now')` prints `button A7 "Buy now"`. */
export function el(role, ref, name, { filled = false, value = '', ...facts } = {}, indent = '') {
  const link = role === 'link' && facts.url;
  const text = link ? `${indent}${ref} [${name}](${facts.url})` : `${indent}${role} ${ref} "${name}"${value ? `: ${value}` : ''}${facts.secret ? ` secret=${facts.secret}` : ''}${filled ? ' filled' : ''}`;
  return { text, ref, fact: { role, name, ...facts } };
}

/** A real PNG of one pixel: what the stand-in's `screenshot` answers. */
export const ONE_PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

export function fakeSite(pages, start) {
  const state = { page: start, fields: {}, log: [], history: [], tabs: [{ tabId: 1, title: '', url: '', active: true }] };
  const answer = (tabId, extra = {}) => {
    const p = pages[state.page];
    const lines = p.lines(state);
    const text = `page "${p.title}" ${p.url}\n${lines.map((l) => (typeof l === 'string' ? l : l.text)).join('\n')}`;
    const refs = Object.fromEntries(lines.filter((l) => typeof l !== 'string').map((l) => [l.ref, l.fact]));
    return { ok: true, tabId, text, refs, page: { title: p.title, url: p.url, site: siteOf(p.url) }, stats: {}, ...extra };
  };
  const browser = {
    state,
    async call(msg) {
      state.log.push(msg);
      const p = pages[state.page];
      switch (msg.cmd) {
        case 'snapshot':
          return answer(msg.tabId, msg.options?.diff ? { diff: { full: true, reason: 'a stand-in sends the whole page' } } : {});
        case 'act': {
          const next = p.act?.(state, msg.ref, msg.action, msg.value);
          if (next === 'stale') return { ok: false, error: { code: 'stale_ref', message: `${msg.ref} is gone: take a new snapshot` } };
          if (next) { state.history.push(state.page); state.page = next; }
          const done = { action: msg.action, ref: msg.ref };
          return msg.snapshot ? answer(msg.tabId, { ...done, settled: { ms: 1, navigated: Boolean(next), quiet: true }, diff: { full: true, reason: 'a stand-in sends the whole page' } }) : { ok: true, ...done };
        }
        case 'resolve': {
          const fact = answer(msg.tabId).refs[msg.ref];
          return fact ? { ok: true, ref: msg.ref, role: fact.role, name: fact.name, ...(fact.url ? { url: new URL(fact.url, p.url).href } : {}) } : { ok: false, error: { code: 'unknown_ref', message: 'never issued' } };
        }
        case 'wait_for': {
          const there = answer(msg.tabId).text.includes(msg.text ?? msg.textGone);
          return there === (msg.text !== undefined) ? { ok: true, waitedMs: 0 } : { ok: false, error: { code: 'timeout', message: 'not in time' } };
        }
        case 'navigate':
          state.navigated = msg.url;
          return { ok: true };
        case 'back':
          state.page = state.history.pop() || state.page;
          return { ok: true };
        case 'screenshot':
          return { ok: true, tabId: msg.tabId, ...(msg.ref ? { ref: msg.ref } : {}), mimeType: 'image/png', data: ONE_PIXEL_PNG, width: 1, height: 1, masked: 0, clipped: false };
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
export function fakeHost({ confirm = true, secret = null, answer = 'yes', permit = 'task' } = {}) {
  const asked = [];
  return {
    asked,
    confirm: async (r) => { asked.push({ type: 'confirm', ...r }); return confirm; },
    permit: async (r) => { asked.push({ type: 'permit', ...r }); return permit; },
    askSecret: async (r) => { asked.push({ type: 'secret', ...r }); return secret !== null; },
    ask: async (r) => { asked.push({ type: 'ask', ...r }); return answer; },
  };
}
