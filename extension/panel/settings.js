// The person's choice of model and the co-pilot's limits, in
// chrome.storage.local: `provider` {kind, baseURL, model, apiKey, images} (a test or
// a managed install may preset it), `confirmWords`, `maxSteps`, `askMode`
// ('site' or 'every') and `alwaysSites` (sites the co-pilot may act on
// without asking first, revocable here). Access to the
// endpoint is asked for at runtime (optional host permissions, listed here
// and revocable), and "Test connection" says exactly what failed.

import { streamText } from 'ai';
import { acceptsImages, checkSettings, createModel, describeError, endpointOf, DEFAULT_BASE_URL } from '../agent/provider.js';
import { DEFAULT_CONFIRM_WORDS, ASK_MODES } from '../agent/consent.js';
import { DEFAULT_MAX_STEPS } from '../agent/loop.js';
import { PRESETS, listModels } from '../agent/models.js';

/** A model as the lists show it: its id, and a warning where the endpoint says it cannot call tools. */
export const modelLabel = (m) => (m.tools === false ? `${m.id} (cannot call tools)` : m.id);

/** @returns {Promise<{provider:any, confirmWords:string[], maxSteps:number, askMode:'site'|'every', alwaysSites:string[]}>} */
export async function loadSettings() {
  const s = /** @type {any} */ (await chrome.storage.local.get(['provider', 'confirmWords', 'maxSteps', 'askMode', 'alwaysSites']));
  return {
    provider: s.provider || { kind: 'openai-compatible', baseURL: DEFAULT_BASE_URL['openai-compatible'], model: '', apiKey: '' },
    confirmWords: Array.isArray(s.confirmWords) ? s.confirmWords : DEFAULT_CONFIRM_WORDS,
    maxSteps: Number.isInteger(s.maxSteps) && s.maxSteps > 0 ? s.maxSteps : DEFAULT_MAX_STEPS,
    askMode: ASK_MODES.includes(s.askMode) ? s.askMode : 'site',
    alwaysSites: Array.isArray(s.alwaysSites) ? s.alwaysSites.filter((x) => typeof x === 'string') : [],
  };
}

/** "Always for this site": the co-pilot acts there without asking first, in every task, until removed in Settings. */
export async function allowAlways(site) {
  const { alwaysSites } = await loadSettings();
  if (!alwaysSites.includes(site)) await chrome.storage.local.set({ alwaysSites: [...alwaysSites, site] });
}

/**
 * Lists the hosts Chrome lets the extension reach (#host-access): those the
 * person granted can be taken back here; those the manifest gives (a managed
 * install) only by removing the extension.
 */
async function renderHostAccess() {
  const fixed = new Set(chrome.runtime.getManifest().host_permissions || []);
  const { origins = [] } = await chrome.permissions.getAll();
  document.getElementById('host-access').replaceChildren(...origins.map((pattern) => {
    const li = document.createElement('li');
    li.append(Object.assign(document.createElement('span'), { textContent: `${pattern} ` }));
    if (fixed.has(pattern)) {
      li.append(Object.assign(document.createElement('span'), { className: 'hint', textContent: '(given at install)' }));
    } else {
      const remove = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Take back' });
      remove.setAttribute('aria-label', `Take back access to ${pattern}`);
      remove.addEventListener('click', () => chrome.permissions.remove({ origins: [pattern] }));
      li.append(remove);
    }
    return li;
  }));
  document.getElementById('host-access-empty').hidden = origins.length > 0;
}

/**
 * Asks Chrome for access to the endpoint's host unless granted. Not awaited
 * by callers: the prompt may stay open, and a server that allows the
 * extension's origin (CORS) answers without it.
 * @returns {Promise<boolean>}
 */
export async function requestAccess(provider) {
  const { pattern } = endpointOf(provider);
  if (await chrome.permissions.contains({ origins: [pattern] })) return true;
  return chrome.permissions.request({ origins: [pattern] });
}

/** One short request to the model: does the endpoint answer, with this key, for this model? */
export async function testConnection(provider) {
  const problem = checkSettings(provider);
  if (problem) return { ok: false, message: problem };
  if (provider.kind === 'builtin') return builtinAvailable();
  const t0 = Date.now();
  const r = streamText({ model: createModel(provider), prompt: 'Reply with the word OK.', maxRetries: 0, maxOutputTokens: 16, onError: () => {} });
  let error = null;
  for await (const part of r.stream) if (part.type === 'error') error = part.error;
  if (error) return { ok: false, message: describeError(error, provider) };
  return { ok: true, message: `Connected: ${provider.model} at ${endpointOf(provider).origin} answered in ${((Date.now() - t0) / 1000).toFixed(1)} s.` };
}

/** Chrome's built-in model (the Prompt API), where this browser has one. */
async function builtinAvailable() {
  const LM = /** @type {any} */ (globalThis).LanguageModel;
  if (!LM) return { ok: false, message: 'This browser offers no built-in model (the Prompt API, LanguageModel, is missing). Choose an OpenAI-compatible or Anthropic endpoint.' };
  const state = await LM.availability().catch((e) => `unknown (${e.message})`);
  return { ok: false, message: `Chrome's built-in model is ${state}, but it cannot drive the co-pilot yet: it offers no tool calling here.` };
}

/**
 * Wires the settings form; returns `usePreset`, which fills it for one of PRESETS.
 * @param {{onSaved?: () => void}} [o]
 */
export async function bindSettings({ onSaved } = {}) {
  const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
  const status = $('settings-status');
  let fills = 0;
  const fill = async () => {
    // Changes come in bursts: only the latest read is shown, never an older one that answered late.
    const mine = ++fills;
    const s = await loadSettings();
    if (mine !== fills) return;
    $('kind').value = s.provider.kind;
    $('baseURL').value = s.provider.baseURL || '';
    $('model').value = s.provider.model || '';
    $('apiKey').value = s.provider.apiKey || '';
    $('images').checked = acceptsImages(s.provider);
    $('maxSteps').value = String(s.maxSteps);
    $('confirmWords').value = s.confirmWords.join(', ');
    $('askMode').value = s.askMode;
    const list = document.getElementById('always-sites');
    list.replaceChildren(...s.alwaysSites.map((site) => {
      const li = document.createElement('li');
      const remove = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Remove' });
      remove.setAttribute('aria-label', `Remove ${site}`);
      remove.addEventListener('click', async () => {
        const now = await loadSettings();
        await chrome.storage.local.set({ alwaysSites: now.alwaysSites.filter((x) => x !== site) });
      });
      li.append(Object.assign(document.createElement('span'), { textContent: `${site} ` }), remove);
      return li;
    }));
    document.getElementById('always-sites-empty').hidden = s.alwaysSites.length > 0;
  };
  /** @returns {import('../agent/provider.js').ProviderSettings} */
  const read = () => ({ kind: /** @type {any} */ ($('kind').value), baseURL: $('baseURL').value.trim(), model: $('model').value.trim(), apiKey: $('apiKey').value.trim(), images: $('images').checked });
  // The endpoint's own list of models, offered as the person types the model's name.
  let listed = '';
  /** @type {Awaited<ReturnType<typeof listModels>>} */
  let models = [];
  const refreshModels = async () => {
    const provider = read();
    const at = JSON.stringify([provider.kind, provider.baseURL, provider.apiKey]);
    if (at === listed || provider.kind === 'builtin') return;
    listed = at;
    try {
      models = await listModels(provider);
      document.getElementById('model-options').replaceChildren(...models.map((m) => Object.assign(document.createElement('option'), { value: m.id, label: modelLabel(m) })));
      $('model-hint').textContent = `${endpointOf(provider).origin} offers ${models.length} model${models.length === 1 ? '' : 's'}: type to pick one.`;
    } catch (e) {
      listed = '';
      $('model-hint').textContent = `No list of models from this endpoint (${e.message}): type the model's name.`;
    }
  };
  for (const id of ['kind', 'baseURL', 'apiKey']) $(id).addEventListener('change', refreshModels);
  $('model').addEventListener('focus', refreshModels);
  // Where the list says whether the model reads images, the checkbox follows it.
  $('model').addEventListener('input', () => {
    const images = models.find((m) => m.id === $('model').value.trim())?.images;
    if (typeof images === 'boolean') $('images').checked = images;
  });
  /** @param {typeof PRESETS[number]} p */
  const usePreset = (p) => {
    $('kind').value = p.kind;
    $('images').checked = acceptsImages({ kind: /** @type {any} */ (p.kind) });
    $('baseURL').value = p.baseURL;
    $('model').value = '';
    if (!p.key) $('apiKey').value = '';
    status.textContent = p.key ? `${p.name}: paste your API key, then choose a model.` : `${p.name}: choose a model (the server must be running on this computer).`;
    $(p.key ? 'apiKey' : 'model').focus();
    refreshModels();
  };
  document.getElementById('presets').replaceChildren(...PRESETS.map((p) => {
    const b = Object.assign(document.createElement('button'), { type: 'button', textContent: p.name });
    b.addEventListener('click', () => usePreset(p));
    return b;
  }));
  $('kind').addEventListener('change', () => {
    // Another kind of endpoint starts from its own default, as a preset does.
    $('images').checked = acceptsImages({ kind: /** @type {any} */ ($('kind').value) });
    const d = DEFAULT_BASE_URL[$('kind').value];
    if (d && (!$('baseURL').value || Object.values(DEFAULT_BASE_URL).includes($('baseURL').value))) $('baseURL').value = d;
  });
  const askAccess = (provider) => {
    if (provider.kind === 'builtin' || checkSettings(provider)) return;
    requestAccess(provider).then(
      (granted) => { if (!granted) status.textContent += ` Access to ${endpointOf(provider).origin} was not granted: requests work only if the server allows the extension.`; },
      () => {},
    );
  };
  $('settings-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const provider = read();
    const problem = checkSettings(provider);
    if (problem) { status.textContent = problem; return; }
    // Asked first, while the click still counts as the person's gesture.
    askAccess(provider);
    const words = $('confirmWords').value.split(',').map((w) => w.trim()).filter(Boolean);
    const maxSteps = Math.max(1, Math.min(200, Number($('maxSteps').value) || 30));
    await chrome.storage.local.set({ provider, confirmWords: words, maxSteps, askMode: ASK_MODES.includes($('askMode').value) ? $('askMode').value : 'site' });
    status.textContent = 'Saved.';
    onSaved?.();
  });
  $('test').addEventListener('click', async () => {
    const provider = read();
    askAccess(provider);
    status.textContent = 'Testing…';
    try {
      status.textContent = (await testConnection(provider)).message;
    } catch (e) {
      status.textContent = describeError(e, provider);
    }
  });
  await fill();
  await renderHostAccess();
  chrome.permissions.onAdded.addListener(renderHostAccess);
  chrome.permissions.onRemoved.addListener(renderHostAccess);
  // Settings preset or changed elsewhere (another panel, a managed install) show up here.
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && (changes.provider || changes.confirmWords || changes.maxSteps || changes.askMode || changes.alwaysSites)) fill();
  });
  return { usePreset };
}
