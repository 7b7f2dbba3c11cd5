// The panel's "Sites" section: a site's request for access, answered with
// "Allow once", "Always allow" or "Deny", and the list of sites the person
// answered, with Revoke, Forget, and sharing the panel's tab with a site.
// What it writes is the grant store (extension/worker/grants.js); the worker
// reads it on every request and closes a revoked site's ports.

import { readStores, readPrompts, grantOf, answer, ask, PROMPTS, KEY } from '../worker/grants.js';
import { requestHostAccess } from '../bridge/register.js';

const WHAT = {
  snapshot: 'read the page in its tab', act: 'act in the page in its tab', resolve: 'look up elements in its tab',
  tabs: 'list the tabs it may use', hello: 'connect', reset: 'use its tab',
};

/** @param {{currentTab: () => chrome.tabs.Tab|null}} o */
export function bindConsent({ currentTab }) {
  const prompts = /** @type {HTMLElement} */ (document.getElementById('site-prompts'));
  const list = /** @type {HTMLElement} */ (document.getElementById('site-list'));
  const render = () => renderAll(prompts, list, currentTab()).catch(() => {});
  chrome.storage.onChanged.addListener((changes) => {
    if (changes[KEY] || changes[PROMPTS]) render();
  });
  // A site on the open web has no way to ask before it has the bridge: the person starts from its tab.
  document.getElementById('site-connect')?.addEventListener('click', () => {
    const tab = currentTab();
    const origin = originOf(tab?.url);
    if (!origin || tab?.id === undefined) return;
    ask({ origin, tabId: tab.id, url: tab.url || origin, cmd: 'hello', at: Date.now() });
  });
  render();
  return render;
}

/** The origin of an http(s) page, or null. */
function originOf(url) {
  try {
    const u = new URL(url || '');
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/** @returns {any} */
function el(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

function button(text, onClick, label) {
  const b = el('button', { type: 'button', textContent: text });
  if (label) b.setAttribute('aria-label', label);
  b.addEventListener('click', onClick);
  return b;
}

async function tabTitle(tabId) {
  try {
    const t = await chrome.tabs.get(tabId);
    return `“${t.title || t.url}”`;
  } catch {
    return `tab ${tabId}`;
  }
}

/** Page-provided text, shortened: a title can say anything ("click Allow once to continue"). */
const PAGE_WORDS_MAX = 60;

/** The asking tab's title, set apart as the page's own words, never as the prompt's. */
async function pageWords(tabId) {
  let title = '';
  try {
    title = (await chrome.tabs.get(tabId)).title || '';
  } catch { /* the tab closed: its prompt goes with it */ }
  if (!title) return el('p', { className: 'page-words', textContent: `In tab ${tabId} (no title).` });
  const short = title.length > PAGE_WORDS_MAX ? `${title.slice(0, PAGE_WORDS_MAX)}…` : title;
  return el('p', { className: 'page-words' }, `In tab ${tabId}, whose title the page sets itself (not axsnap's words): `, el('q', { textContent: short }));
}

/**
 * When each waiting prompt was first shown where it is now: its buttons work
 * only a moment later, so a prompt that just appeared or moved (one above it
 * was answered or its tab closed) cannot take a click meant for another.
 */
const shownAt = new Map();
const ARM_MS = 500;

async function renderAll(promptsBox, listBox, current) {
  const [{ always, session }, waiting] = await Promise.all([readStores(), readPrompts()]);

  // Oldest first, in the order they came (grants.js): a new ask waits below, it never takes a place.
  const now = Date.now();
  const seen = new Map();
  const asks = await Promise.all(waiting.map(async (p, i) => {
    const key = `${i} ${p.origin} ${p.tabId} ${p.at}`;
    const since = shownAt.get(key) ?? now;
    seen.set(key, since);
    const group = el('div', { className: 'prompt site-prompt' });
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', `${p.origin} asks for access`);
    group.dataset.origin = p.origin;
    const buttons = [
      // permissions.request (requestHostAccess) must run in the click itself, before any await: Chrome asks only during a gesture.
      button('Allow once', () => { requestHostAccess(p.origin); answer(p.origin, { kind: 'once', tabId: p.tabId }); }),
      button('Always allow', () => { requestHostAccess(p.origin); answer(p.origin, { kind: 'always' }); }),
      // Deny too: a site off localhost hears `denied` only through the bridge, which needs its host's access;
      // refused in Chrome's prompt, the site hears nothing, which denies it as well.
      button('Deny', () => { requestHostAccess(p.origin); answer(p.origin, { kind: 'deny' }); }),
    ];
    const wait = since + ARM_MS - now;
    if (wait > 0) {
      for (const b of buttons) b.disabled = true;
      setTimeout(() => { for (const b of buttons) b.disabled = false; }, wait);
    }
    group.append(
      el('p', {}, el('strong', { textContent: p.origin }), ` asks to use axsnap: to ${WHAT[p.cmd] || p.cmd}. It reaches only its own tab (there, only frames from its own origin) unless you share a tab with it.`),
      await pageWords(p.tabId),
      el('div', { className: 'row' }, ...buttons),
    );
    return group;
  }));
  shownAt.clear();
  for (const [k, v] of seen) shownAt.set(k, v);
  promptsBox.replaceChildren(...asks);
  promptsBox.hidden = asks.length === 0;

  const origins = [...new Set([...Object.keys(always), ...Object.keys(session)])].sort();
  const rows = await Promise.all(origins.map(async (origin) => {
    const g = grantOf(origin, always, session);
    if (g.access === 'none' && !g.shared.length) return null;
    const li = el('li', { className: 'site' });
    li.dataset.origin = origin;
    li.dataset.access = g.access;
    const says = { once: 'allowed once', always: 'always allowed', denied: 'denied', revoked: 'revoked', none: 'not answered' }[g.access];
    const tabs = g.access === 'once' ? `in ${(await Promise.all(g.tabs.map(tabTitle))).join(', ')}` : g.access === 'always' ? 'in its own tabs' : '';
    const shared = g.shared.length ? `; shared: ${(await Promise.all(g.shared.map(tabTitle))).join(', ')}` : '';
    li.append(el('span', { textContent: `${origin}: ${says} ${tabs}${shared}` }));
    const row = el('div', { className: 'row' });
    if (g.access === 'once' || g.access === 'always') {
      row.append(button('Revoke', () => answer(origin, { kind: 'revoke' }), `Revoke ${origin}`));
      const tab = current;
      if (tab?.id !== undefined && !g.shared.includes(tab.id)) {
        row.append(button('Share this tab', () => answer(origin, { kind: 'share', tabId: tab.id }), `Share ${tab.title || 'this tab'} with ${origin}`));
      }
      for (const id of g.shared) row.append(button('Stop sharing', () => answer(origin, { kind: 'unshare', tabId: id }), `Stop sharing ${await tabTitle(id)} with ${origin}`));
    } else {
      row.append(button('Forget', () => answer(origin, { kind: 'forget' }), `Forget ${origin}: it may ask again`));
    }
    li.append(row);
    return li;
  }));
  listBox.replaceChildren(...rows.filter(Boolean));
  if (!listBox.childElementCount) listBox.append(el('li', { className: 'hint', textContent: 'No site has asked yet.' }));
}
