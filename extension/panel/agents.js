// The side panel's "Desktop agents" section: the switch that allows agents
// (and disconnects them at once when turned off), pairing with axsnap-mcp,
// who is connected and what they do, and which tabs the person shares with
// them. It talks to the service worker only through chrome.storage
// (../worker/agent_setting.js): the worker acts on the setting and reports.

import { SETTINGS, SHARED, STATUS, STEPS, DEFAULT_URL } from '../worker/agent_setting.js';
import { fingerprint } from '../worker/channel.js';

const STEPS_SHOWN = 12;

const root = document.getElementById('desktop-agents');

/** Builds an element: el('p', {class: 'x'}, 'text', child). Text is always text, never HTML. */
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === undefined) continue;
    if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  e.append(...children.filter((c) => c !== null && c !== undefined));
  return e;
}

const allow = /** @type {HTMLInputElement} */ (el('input', { type: 'checkbox', role: 'switch', id: 'agents-allow' }));
const url = /** @type {HTMLInputElement} */ (el('input', { id: 'agents-url', autocomplete: 'off', spellcheck: 'false', placeholder: DEFAULT_URL }));
const token = /** @type {HTMLInputElement} */ (el('input', { id: 'agents-token', type: 'password', autocomplete: 'off', spellcheck: 'false', 'aria-describedby': 'agents-token-hint' }));
const status = el('p', { id: 'agents-status', role: 'status' });
const print = el('p', { id: 'agents-fingerprint', class: 'hint' });
const summary = el('span', { id: 'agents-summary', class: 'agents-summary' });
const steps = el('ol', { id: 'agents-steps', class: 'agents-steps', 'aria-label': 'What agents did' });
const shared = el('ul', { id: 'agents-shared', class: 'agents-shared', 'aria-label': 'Tabs shared with agents' });
const shareThis = el('button', { type: 'button', id: 'agents-share' }, 'Share this tab');

async function setting() {
  return /** @type {any} */ (await chrome.storage.local.get(SETTINGS))[SETTINGS] || {};
}

async function save(change) {
  await chrome.storage.local.set({ [SETTINGS]: { ...(await setting()), ...change } });
}

async function sharedTabs() {
  const got = /** @type {any} */ (await chrome.storage.local.get(SHARED))[SHARED];
  return Array.isArray(got) ? got : [];
}

/** The tab "this tab" means: the one the panel is pinned to (`?tab=<id>`, as the co-pilot reads it), else its window's active tab. */
async function thisTab() {
  const pinned = Number(new URLSearchParams(location.search).get('tab'));
  if (Number.isInteger(pinned) && pinned > 0) return chrome.tabs.get(pinned).catch(() => undefined);
  const [tab] = await chrome.tabs.query({ active: true, currentWindow: true });
  return tab;
}

root.replaceChildren(
  el('summary', {}, 'Desktop agents ', summary),
  el('p', { class: 'row' }, el('label', {}, allow, ' Allow desktop agents')),
  el('p', { class: 'hint' }, 'Agents such as Claude Code or Cursor run axsnap-mcp and act in the tabs they open and the tabs you share here.'),
  el('form', {
    id: 'agents-pairing',
    onsubmit: async (/** @type {Event} */ e) => {
      e.preventDefault();
      await save({ url: url.value.trim() || DEFAULT_URL, token: token.value.trim() });
    },
  },
  el('label', { for: 'agents-token' }, 'Pairing token'),
  token,
  el('p', { id: 'agents-token-hint', class: 'hint' }, 'Run axsnap-mcp token in a terminal and paste what it prints.'),
  print,
  el('label', { for: 'agents-url' }, 'Server'),
  url,
  el('p', { class: 'row' }, el('button', { type: 'submit', id: 'agents-pair' }, 'Pair'))),
  status,
  el('h3', {}, 'Tabs shared with agents'),
  shared,
  el('p', { class: 'row' }, shareThis),
  el('h3', {}, 'What agents did'),
  steps,
);

allow.addEventListener('change', () => save({ enabled: allow.checked }));

shareThis.addEventListener('click', async () => {
  const tab = await thisTab();
  if (!tab || tab.id === undefined) return;
  const list = await sharedTabs();
  const next = list.includes(tab.id) ? list.filter((t) => t !== tab.id) : [...list, tab.id];
  await chrome.storage.local.set({ [SHARED]: next });
});

async function unshare(tabId) {
  await chrome.storage.local.set({ [SHARED]: (await sharedTabs()).filter((t) => t !== tabId) });
}

async function render() {
  const s = await setting();
  const st = /** @type {any} */ (await chrome.storage.session.get([STATUS, STEPS]));
  const state = st[STATUS] || { on: false, agents: [] };
  allow.checked = s.enabled === true;
  if (document.activeElement !== url) url.value = s.url || DEFAULT_URL;
  if (document.activeElement !== token) token.value = s.token || '';
  // axsnap-mcp logs this fingerprint, never the token: the person compares the two.
  print.textContent = s.token ? `Token fingerprint: ${await fingerprint(s.token)} (axsnap-mcp names the same when it starts).` : '';

  const agents = state.agents || [];
  let line;
  if (!s.enabled) line = 'Off: no agent can connect.';
  else if (!s.token) line = 'On, not paired: enter the token that axsnap-mcp prints.';
  else if (agents.length) line = `Connected: ${agents.map((a) => `${a.name} (port ${a.port})`).join(', ')}.`;
  else line = `Waiting for an agent on ports ${state.ports ? state.ports.join('–') : '…'}.`;
  status.textContent = state.problem && s.enabled ? `${line} ${state.problem}` : line;
  status.className = state.problem && s.enabled ? 'agents-problem' : '';
  summary.textContent = !s.enabled ? 'off' : agents.length ? `${agents.map((a) => a.name).join(', ')} connected` : 'on';

  const list = /** @type {any[]} */ (st[STEPS] || []).slice(-STEPS_SHOWN);
  steps.replaceChildren(...list.map((x) => el('li', { class: `step ${x.state}` },
    `${x.agent}: ${x.line}${x.state === 'failed' ? ` (${x.error})` : x.state === 'running' ? ' …' : ''}`)));

  const ids = await sharedTabs();
  const tabs = (await chrome.tabs.query({})).filter((t) => ids.includes(t.id));
  shared.replaceChildren(...(tabs.length ? tabs.map((t) => el('li', {}, `${t.title || t.url} `,
    el('button', { type: 'button', 'aria-label': `Stop sharing ${t.title || t.url}`, onclick: () => unshare(t.id) }, 'Stop sharing')))
    : [el('li', { class: 'hint' }, 'None.')]));
  const here = await thisTab();
  shareThis.textContent = here && ids.includes(here.id) ? 'Stop sharing this tab' : 'Share this tab';
}

chrome.storage.onChanged.addListener((changes) => {
  if (SETTINGS in changes || SHARED in changes || STATUS in changes || STEPS in changes) render();
});
chrome.tabs.onActivated.addListener(() => render());
chrome.tabs.onUpdated.addListener((_, change) => {
  if (change.title) render();
});
render();
