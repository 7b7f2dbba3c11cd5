// The side panel: a chat with the co-pilot about the tab in front of the
// person. It hosts the agent loop (extension/agent/) and plugs in the
// browser (the extension's message protocol) and the person (confirmations,
// secrets, questions). Opened as a page with ?tab=<id> it stays on that tab;
// with ?window=<id> it follows that window's active tab.

import { run, compact } from '../agent/loop.js';
import { browserTools } from '../agent/tools.js';
import { createModel, describeError, checkSettings, acceptsImages } from '../agent/provider.js';
import { instructions } from '../agent/prompt.js';
import { siteOf } from '../../protocol/site.js';
import { renderMarkdown } from './markdown.js';
import { stepWords, askWords } from './step-words.js';
import { load, save, remove, empty, shownIn, show, titleOf } from './conversation.js';
import { bindHistory } from './history.js';
import { bindSettings, loadSettings, allowAlways, modelLabel } from './settings.js';
import { PRESETS, listModels } from '../agent/models.js';
import { bindDeveloper } from './developer.js';
import { bindConsent } from './consent.js';
import { bindConfirms } from './confirm.js';

const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
const input = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
/** @param {object} msg */
const send = (msg) => chrome.runtime.sendMessage(msg);

const params = new URLSearchParams(location.search);
const pinnedTab = params.has('tab') ? Number(params.get('tab')) : null;

const state = {
  windowId: /** @type {number} */ (-1),
  /** @type {chrome.tabs.Tab|null} */
  tab: null,
  conv: empty(),
  /** The id of the conversation shown (conversation.js). */
  convId: '',
  /** @type {AbortController|null} */
  running: null,
  /** Settles when the running task has ended and saved its conversation. */
  /** @type {Promise<void>} */
  ran: Promise.resolve(),
  /** The person's answer to an ask_user question, when one is pending. */
  /** @type {((text:string)=>void)|null} */
  answer: null,
  /** Secrets the person typed in this panel: scrubbed from anything sent to the model. Memory only. */
  secrets: new Set(),
  /** The step running now (tools run one at a time): what a question about it is worded from. */
  /** @type {{name:string, input?:any, targets?:any}|null} */
  step: null,
  /** Messages sent while a task runs: shown, and sent one by one when it ends. */
  /** @type {string[]} */
  queue: [],
};

// ---- what the person sees

function announce(text) {
  // Re-setting the same text would not be announced again.
  $('announce').textContent = '';
  setTimeout(() => { $('announce').textContent = text; }, 30);
}

function scrollDown() {
  const log = $('log');
  log.scrollTop = log.scrollHeight;
}

/** @param {import('./conversation.js').Entry} e */
function renderEntry(e) {
  if (e.kind === 'step') {
    // In words; the details hold the step as the model wrote it and the page it saw.
    const d = document.createElement('details');
    d.className = `step${e.ok === false ? ' failed' : ''}`;
    const s = document.createElement('summary');
    s.textContent = e.what ? stepWords(e.what, e.ok) : e.line + (e.ok === null ? ' …' : '');
    const line = Object.assign(document.createElement('code'), { className: 'step-line', textContent: e.line });
    const pre = document.createElement('pre');
    pre.textContent = e.detail;
    d.append(s, line, pre);
    return d;
  }
  const div = document.createElement('div');
  div.className = `msg ${e.kind}`;
  if (e.kind === 'assistant') renderMarkdown(div, e.text);
  else div.textContent = e.text;
  if (e.kind === 'error') div.append(errorActions());
  if (e.kind === 'user') div.prepend(Object.assign(document.createElement('span'), { className: 'visually-hidden', textContent: 'You: ' }));
  return div;
}

/** What to do about an error: fix the settings, or send the last message again. */
function errorActions() {
  const row = document.createElement('div');
  row.className = 'row';
  row.append(
    button('Open Settings', () => showSettings(true)),
    button('Retry', () => {
      const last = /** @type {any} */ ([...state.conv.entries].reverse().find((x) => x.kind === 'user'));
      if (last && !state.running) start(last.text);
    }),
  );
  return row;
}

/** Adds an entry to the conversation and the log; returns its element. */
function add(e) {
  state.conv.entries.push(e);
  const el = renderEntry(e);
  $('log').append(el);
  scrollDown();
  return { entry: e, el };
}

function renderAll() {
  $('log').replaceChildren(...state.conv.entries.map(renderEntry));
  scrollDown();
}

/** A panel pinned to a tab shows that tab's conversation; a side panel its window's. */
const key = () => (pinnedTab !== null ? `tab:${pinnedTab}` : `window:${state.windowId}`);
const persist = () => save(state.convId, state.conv);

/** The sign of life while a task runs: what the co-pilot is doing now (thinking, a step, waiting for the person). */
function working(text) {
  $('working').hidden = !text;
  if (text) $('working-text').textContent = text;
}

function renderQueue() {
  $('queue-box').hidden = state.queue.length === 0;
  $('queue').replaceChildren(...state.queue.map((text, i) => {
    const li = document.createElement('li');
    const remove = button('Remove', () => { state.queue.splice(i, 1); renderQueue(); input('message').focus(); });
    remove.setAttribute('aria-label', `Remove queued message ${i + 1}`);
    li.append(Object.assign(document.createElement('span'), { textContent: text }), remove);
    return li;
  }));
}

function setRunning(on) {
  $('stop').hidden = !on;
  working(on ? 'Thinking…' : '');
  if (!on) $('prompt').hidden = true;
  // For tests and styles: busy while a task runs.
  document.body.dataset.busy = String(on);
}

function describeTab(t) {
  if (!t) return 'no tab';
  return `“${t.title || t.url || `tab ${t.id}`}”`;
}

async function bind(tabId, announceIt) {
  try {
    state.tab = await chrome.tabs.get(tabId);
  } catch {
    state.tab = null;
  }
  $('bound').textContent = state.tab ? `Working in ${describeTab(state.tab)}` : 'No tab';
  if (announceIt && state.tab) {
    add({ kind: 'notice', text: `Now working in ${describeTab(state.tab)}${state.running ? ' (the running task stays on its own tab)' : ''}.` });
    announce(`Now working in ${describeTab(state.tab)}`);
    persist();
  }
}

// ---- the person, as the agent's host

/** Shows a prompt (a question the co-pilot needs answered) and resolves with the person's answer. */
function showPrompt(build, signal) {
  return new Promise((resolve) => {
    const box = $('prompt');
    const finish = (value) => {
      box.hidden = true;
      box.replaceChildren();
      if (state.running) working('Thinking…');
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
      input('message').focus();
    };
    const onAbort = () => finish(false);
    signal?.addEventListener('abort', onAbort, { once: true });
    box.replaceChildren(...build(finish));
    box.hidden = false;
    working('Waiting for you…');
    scrollDown();
  });
}

function button(text, onClick, className = '') {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  if (className) b.className = className;
  b.addEventListener('click', onClick);
  return b;
}

/**
 * A question and its answers as buttons, the first one focused; resolves with
 * the answer chosen (false when the task stops).
 * @template T
 * @param {string} question @param {Array<[string, T]>} answers @param {AbortSignal} [signal]
 * @returns {Promise<T|false>}
 */
function choose(question, answers, signal) {
  return showPrompt((finish) => {
    const p = Object.assign(document.createElement('p'), { id: 'prompt-question', textContent: question });
    const group = document.createElement('div');
    group.setAttribute('role', 'group');
    group.setAttribute('aria-labelledby', 'prompt-question');
    group.className = 'row';
    const buttons = answers.map(([text, value], i) => button(text, () => finish(value), i === 0 ? 'primary' : ''));
    group.append(...buttons);
    setTimeout(() => buttons[0].focus(), 0);
    return [p, group];
  }, signal);
}

const lower = (s) => s.charAt(0).toLowerCase() + s.slice(1);
const upper = (s) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * What the co-pilot asks to do, in words: "Click “Buy now” on shop.test",
 * "Read the page in “Notes”" (another tab). Refs stay in the step's details.
 */
async function asked(r) {
  const what = state.step ? askWords(state.step) : r.summary;
  // A destination (go to, open) says its own site.
  if (['navigate', 'tabs'].includes(state.step?.name)) return what;
  const t = r.tabId === state.tab?.id ? state.tab : await chrome.tabs.get(r.tabId).catch(() => null);
  if (r.tabId !== state.tab?.id) return `${what} in ${t ? describeTab(t) : `tab ${r.tabId}`}`;
  const site = t?.url ? siteOf(t.url) : '';
  return site ? `${what} on ${site}` : what;
}

const host = {
  /** @param {import('../agent/tools.js').ConfirmRequest} r */
  async confirm(r) {
    const what = await asked(r);
    const question = `${what}? ${upper(r.reason)}.`;
    announce(question);
    const ok = await choose(question, [['Allow', true], ['Decline', false]], r.signal);
    add({ kind: 'notice', text: `${ok ? 'You allowed' : 'You declined'}: ${lower(what)}.` });
    return ok;
  },

  /** "Act on example.com?": once, for this task, or always for this site. */
  async permit(r) {
    const what = state.step ? askWords(state.step) : r.summary;
    const question = r.site ? `Let the co-pilot act on ${r.site}? It wants to ${lower(what)}.` : `${await asked(r)}?`;
    announce(question);
    // In the mode "ask before every action" (no site) each answer is for this action alone.
    /** @type {Array<[string, import('../agent/tools.js').Permit]>} */
    const answers = r.site ? [['Allow once', 'once'], ['For this task', 'task'], [`Always for ${r.site}`, 'always']] : [['Allow once', 'once']];
    const answer = await choose(question, [...answers, ['Decline', false]], r.signal);
    if (answer === 'always') await allowAlways(r.site);
    const said = { once: 'You allowed it once', task: `You allowed it on ${r.site} for this task`, always: `You allowed it on ${r.site} always (Settings lists it)` }[answer] || 'You declined';
    add({ kind: 'notice', text: `${said}: ${lower(what)}.` });
    return answer;
  },

  /** The person types a secret into the panel; the panel fills the page with it through the extension. */
  async askSecret(r) {
    const label = `Type the ${r.reason.replace(/-/g, ' ')} for “${r.name}”. It goes straight into the page; the co-pilot never sees it.`;
    announce(label);
    return showPrompt((finish) => {
      const form = document.createElement('form');
      const id = 'secret-value';
      const l = Object.assign(document.createElement('label'), { htmlFor: id, textContent: label });
      const field = Object.assign(document.createElement('input'), { id, type: 'password', autocomplete: 'off' });
      const error = Object.assign(document.createElement('p'), { className: 'hint', role: 'alert' });
      const row = document.createElement('div');
      row.className = 'row';
      const fillIn = Object.assign(document.createElement('button'), { type: 'submit', textContent: 'Fill in', className: 'primary' });
      row.append(fillIn, button('Cancel', () => { field.value = ''; finish(false); }));
      form.append(l, field, row, error);
      form.addEventListener('submit', async (ev) => {
        ev.preventDefault();
        const value = field.value;
        field.value = '';
        if (!value) { error.textContent = 'Type the value first, or Cancel.'; return; }
        state.secrets.add(value);
        // The one path by which the person's secret reaches the page.
        const res = await send({ cmd: 'act', tabId: r.tabId, ref: r.ref, action: 'fill', value });
        if (!res?.ok) { error.textContent = `Could not fill it in: ${res?.error?.message || 'no answer'}`; return; }
        add({ kind: 'notice', text: `You filled in “${r.name}”.` });
        finish(true);
      });
      setTimeout(() => field.focus(), 0);
      return [form];
    }, r.signal);
  },

  /** A question for the person, answered through the message box. */
  async ask(r) {
    add({ kind: 'assistant', text: r.question });
    announce(`The co-pilot asks: ${r.question}`);
    persist();
    input('message').focus();
    return new Promise((resolve, reject) => {
      state.answer = (text) => { state.answer = null; resolve(text); };
      r.signal?.addEventListener('abort', () => { state.answer = null; reject(r.signal.reason); }, { once: true });
    });
  },

  redact(text) {
    let out = text;
    for (const s of state.secrets) if (s.length >= 3) out = out.split(s).join('[secret]');
    return out;
  },
};

/** The browser as the agent sees it: the message protocol (the extension waits for pages itself). */
const browser = { call: send };

// ---- a task

async function start(goal) {
  const settings = await loadSettings();
  const problem = checkSettings(settings.provider);
  if (problem) {
    add({ kind: 'error', text: `Set up a model first (Settings): ${problem}` });
    announce('Set up a model first');
    return;
  }
  if (!state.tab) await bind(pinnedTab ?? (await activeTab()), false);
  if (!state.tab) { add({ kind: 'error', text: 'There is no tab to work in.' }); return; }
  const tab = state.tab;
  state.conv.site ??= siteOf(tab.url);
  add({ kind: 'user', text: goal });
  persist();
  const controller = new AbortController();
  state.running = controller;
  let ran = () => {};
  state.ran = new Promise((resolve) => { ran = resolve; });
  setRunning(true);
  const scope = {
    startTab: tab.id, current: tab.id, sites: new Set([siteOf(tab.url)]), tabs: new Set([tab.id]),
    mode: settings.askMode, always: new Set(settings.alwaysSites), permitted: new Set(),
  };
  /** @type {{entry:any, el:HTMLElement}|null} */
  let bubble = null;
  let frame = 0;
  const steps = new Map();
  /** The element a step acts on, outlined in the page while the step runs (and while it waits for the person). */
  let outlined = /** @type {number|null} */ (null);
  const outline = (e) => {
    const ref = e.input?.ref || e.input?.secret_ref;
    if (!ref || !['act', 'resolve', 'ask_user'].includes(e.name)) return;
    outlined = Number.isInteger(e.input.tab) ? e.input.tab : scope.current;
    send({ cmd: 'highlight', tabId: outlined, ref }).catch(() => {});
  };
  const unoutline = () => {
    if (outlined === null) return;
    send({ cmd: 'highlight', tabId: outlined }).catch(() => {});
    outlined = null;
  };
  const onStep = (e) => {
    if (e.type === 'text') {
      if (!bubble) { bubble = add({ kind: 'assistant', text: '' }); working('Writing…'); }
      bubble.entry.text += e.text;
      if (!frame) frame = requestAnimationFrame(() => { frame = 0; if (bubble) { renderMarkdown(bubble.el, bubble.entry.text); scrollDown(); } });
    } else if (e.type === 'tool-start') {
      bubble = null;
      if (e.name === 'done') return;
      const what = { name: e.name, input: e.input, targets: e.targets };
      state.step = what;
      steps.set(e.id, add({ kind: 'step', line: e.line, what, detail: '', ok: null }));
      working(stepWords(what, null));
      outline(e);
    } else if (e.type === 'tool-end') {
      unoutline();
      state.step = null;
      const s = steps.get(e.id);
      if (!s) return;
      Object.assign(s.entry, { detail: e.detail, ok: e.ok, what: { name: e.name, input: e.input, targets: e.targets } });
      s.el.replaceWith(s.el = renderEntry(s.entry));
      // Shown while the panel is open, never kept: the entry holds the step's words only.
      if (e.image) s.el.append(Object.assign(document.createElement('img'), { className: 'step-image', src: `data:${e.image.mediaType};base64,${e.image.data}`, alt: 'The screenshot sent to the model' }));
      working('Thinking…');
      persist();
    } else if (e.type === 'usage') {
      $('meter').textContent = `Step ${e.steps} of ${settings.maxSteps} · ${(state.conv.usage.totalTokens + e.usage.totalTokens).toLocaleString('en')} tokens`;
    } else if (e.type === 'done') {
      add({ kind: 'assistant', text: e.summary || 'Done.' });
    }
  };
  const retries = settings.provider.maxRetries ?? 2;
  let result;
  try {
    const tools = browserTools({ browser, host, scope, words: settings.confirmWords, images: acceptsImages(settings.provider), onStep });
    const model = createModel(settings.provider, {
      onResponse: ({ status, retryAfter }) => {
        if (status === 429 || status >= 500) $('meter').textContent = `The model provider answered HTTP ${status}${retryAfter ? `, asking to wait ${retryAfter} s` : ''}; trying again…`;
      },
    });
    result = await run({
      goal, history: state.conv.messages, tools, model, instructions: instructions({ tab: tab.id, url: tab.url }, { images: acceptsImages(settings.provider) }),
      onStep, signal: controller.signal, maxSteps: settings.maxSteps, maxRetries: retries,
      timeout: { chunkMs: settings.provider.timeoutMs || 60000 },
    });
  } catch (e) {
    result = { status: 'error', error: e, messages: null, usage: { totalTokens: 0 }, steps: 0, text: '' };
  }
  if (frame) cancelAnimationFrame(frame);
  unoutline();
  if (bubble) renderMarkdown(bubble.el, bubble.entry.text);
  state.running = null;
  state.answer = null;
  setRunning(false);
  if (result.messages) state.conv.messages = compact(result.messages);
  state.conv.usage.totalTokens += result.usage.totalTokens;
  const last = /** @type {any} */ ([...state.conv.entries].reverse().find((e) => e.kind === 'assistant'));
  if (result.status === 'stopped') {
    add({ kind: 'notice', text: 'Stopped. Nothing more will be done.' });
    announce('Stopped');
  } else if (result.status === 'error') {
    const text = describeError(result.error, settings.provider);
    add({ kind: 'error', text });
    $('alert').textContent = text;
  } else if (result.status === 'step-limit') {
    add({ kind: 'notice', text: `Stopped at the step limit (${settings.maxSteps} steps). Say “go on” to continue.` });
    announce('Stopped at the step limit');
  } else if (last) {
    announce(`Co-pilot: ${last.text}`);
  }
  $('meter').textContent = `${result.steps} step${result.steps === 1 ? '' : 's'} · ${state.conv.usage.totalTokens.toLocaleString('en')} tokens in this conversation`;
  await persist();
  // For tests: how many tasks ended, their conversation saved.
  document.body.dataset.finished = String(Number(document.body.dataset.finished || 0) + 1);
  ran();
  const next = state.queue.shift();
  if (next !== undefined) {
    renderQueue();
    start(next);
  }
}

function stop() {
  if (!state.running) return;
  state.running.abort(new DOMException('Stopped by the person', 'AbortError'));
  // What was queued goes back into the message box: stopping sends nothing more, and loses nothing typed.
  if (state.queue.length) {
    const box = input('message');
    box.value = [...state.queue, box.value].filter(Boolean).join('\n');
    state.queue = [];
    renderQueue();
  }
  input('message').focus();
}

async function activeTab() {
  const [t] = await chrome.tabs.query({ active: true, windowId: state.windowId });
  return t?.id ?? -1;
}

// ---- wiring

$('composer').addEventListener('submit', (e) => {
  e.preventDefault();
  const text = input('message').value.trim();
  if (!text) return;
  input('message').value = '';
  if (state.answer) {
    add({ kind: 'user', text });
    state.answer(text);
    return;
  }
  if (state.running) {
    state.queue.push(text);
    renderQueue();
    announce(`Queued: sent when this task ends (${state.queue.length} waiting).`);
    return;
  }
  start(text);
});
input('message').addEventListener('keydown', (e) => {
  // Enter sends, Shift+Enter is a new line.
  if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
    e.preventDefault();
    /** @type {HTMLFormElement} */ ($('composer')).requestSubmit();
  }
});
$('stop').addEventListener('click', stop);
// Esc stops the running task from anywhere in the panel.
document.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && state.running && !e.defaultPrevented) { e.preventDefault(); stop(); }
});
/**
 * Shows another conversation (a new one when `id` is not given); the one
 * shown stays in the list. A running task is stopped first and ends in its own.
 */
async function switchTo(id) {
  state.queue = [];
  renderQueue();
  state.running?.abort(new DOMException('Another conversation', 'AbortError'));
  await state.ran;
  state.convId = await show(key(), id);
  state.conv = id ? await load(id) : empty();
  renderAll();
  renderHistory();
  $('meter').textContent = '';
  announce(id ? `Reopened “${titleOf(state.conv)}”` : 'New conversation; the last one is kept in Conversations');
  input('message').focus();
}
let renderHistory = async () => {};
$('new').addEventListener('click', () => switchTo());
/** The models the picker offers, as the endpoint listed them. */
let chatModels = /** @type {Awaited<ReturnType<typeof listModels>>} */ ([]);
/** The model picker above the conversation: the endpoint's models, the choice kept in the settings. */
async function fillChatModels() {
  const { provider } = await loadSettings();
  const select = /** @type {HTMLSelectElement} */ ($('chat-model'));
  const ready = !checkSettings(provider) && provider.kind !== 'builtin';
  $('chat-model').hidden = !ready;
  $('chat-model').previousElementSibling.toggleAttribute('hidden', !ready);
  $('first-run').hidden = !checkSettings(provider);
  if (!ready) return;
  const models = chatModels = await listModels(provider).catch(() => []);
  if (!models.some((m) => m.id === provider.model)) models.unshift({ id: provider.model });
  select.replaceChildren(...models.map((m) => Object.assign(document.createElement('option'), { value: m.id, textContent: modelLabel(m) })));
  select.value = provider.model;
}
$('chat-model').addEventListener('change', async () => {
  const { provider } = await loadSettings();
  const model = /** @type {HTMLSelectElement} */ ($('chat-model')).value;
  // Where the list says whether the model reads images, that becomes the setting.
  const images = chatModels.find((m) => m.id === model)?.images;
  await chrome.storage.local.set({ provider: { ...provider, model, ...(typeof images === 'boolean' ? { images } : {}) } });
  announce(`The co-pilot now answers with ${model}.`);
});

function showSettings(open) {
  $('settings').hidden = !open;
  $('settings-toggle').setAttribute('aria-expanded', String(open));
  if (open) input('kind').focus();
}
$('settings-toggle').addEventListener('click', () => showSettings($('settings').hidden));

async function boot() {
  if (pinnedTab !== null) {
    const t = await chrome.tabs.get(pinnedTab).catch(() => null);
    state.windowId = t ? t.windowId : -1;
  } else {
    state.windowId = params.has('window') ? Number(params.get('window')) : (await chrome.windows.getCurrent()).id;
    chrome.tabs.onActivated.addListener(({ tabId, windowId }) => { if (windowId === state.windowId) bind(tabId, true); });
  }
  chrome.tabs.onUpdated.addListener((tabId, change) => {
    if (tabId === state.tab?.id && (change.title || change.url)) bind(tabId, false);
  });
  state.convId = await shownIn(key());
  state.conv = await load(state.convId);
  renderAll();
  renderHistory = bindHistory({
    shown: () => state.convId,
    open: (id) => { /** @type {HTMLDetailsElement} */ ($('history')).open = false; switchTo(id); },
    remove: async (id) => {
      await remove(id);
      if (id === state.convId) await switchTo();
    },
  });
  await bind(pinnedTab ?? (await activeTab()), false);
  // Saved settings close the form: the conversation is what comes next.
  const { usePreset } = await bindSettings({ onSaved: () => { showSettings(false); input('message').focus(); } });
  $('first-run-presets').replaceChildren(...PRESETS.map((p) => button(p.name, () => { showSettings(true); usePreset(p); })));
  await fillChatModels();
  chrome.storage.onChanged.addListener((changes, area) => { if (area === 'local' && changes.provider) fillChatModels(); });
  bindDeveloper({ send, tabId: () => state.tab?.id });
  bindConsent({ currentTab: () => state.tab });
  bindConfirms();
  document.body.dataset.ready = 'true';
}

boot();
