// The model the person chose: settings → an AI SDK model, and provider
// failures → one readable sentence. Requests go only to the configured
// endpoint (the fetch given to the SDK refuses any other origin), and the
// API key never appears in a message.

import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createAnthropic } from '@ai-sdk/anthropic';
import { APICallError, RetryError, wrapLanguageModel } from 'ai';
import { imagesAfterToolResults } from './media.js';

/**
 * Stored under chrome.storage.local key `provider`. `images`: the model accepts images (see acceptsImages).
 * @typedef {{kind:'openai-compatible'|'anthropic'|'builtin', baseURL?:string, model?:string, apiKey?:string, timeoutMs?:number, maxRetries?:number, images?:boolean}} ProviderSettings
 */

export const PROVIDER_KINDS = ['openai-compatible', 'anthropic', 'builtin'];
/** How long to wait for a response to start, and for each part of a streamed answer. */
export const DEFAULT_TIMEOUT_MS = 60000;
export const DEFAULT_BASE_URL = { 'openai-compatible': 'https://api.openai.com/v1', anthropic: 'https://api.anthropic.com/v1' };

/**
 * Whether the co-pilot may hand the model pictures (its `screenshot` tool):
 * as the person set it, else yes for Anthropic (Claude models read
 * images) and no for OpenAI-compatible endpoints, where many models (most
 * local ones) refuse a request holding one.
 * @param {ProviderSettings} p
 */
export const acceptsImages = (p) => (typeof p.images === 'boolean' ? p.images : p.kind === 'anthropic');

/** What is wrong with the settings, in words, or null. */
export function checkSettings(p) {
  if (!p || !PROVIDER_KINDS.includes(p.kind)) return `Choose a provider: ${PROVIDER_KINDS.join(', ')}.`;
  if (p.kind === 'builtin') return null;
  let url;
  try {
    url = new URL(p.baseURL || DEFAULT_BASE_URL[p.kind]);
  } catch {
    return `The base URL “${p.baseURL}” is not a URL (it looks like https://api.openai.com/v1).`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'The base URL must start with https:// (or http:// for a server on this computer).';
  if (!p.model) return 'Enter a model name (for example gpt-4.1-mini, claude-sonnet-4-5 or llama3.2).';
  return null;
}

/** The origin every request must go to, and the host-permission pattern that covers it. */
export function endpointOf(p) {
  const url = new URL(p.baseURL || DEFAULT_BASE_URL[p.kind]);
  return { origin: url.origin, pattern: `${url.protocol}//${url.hostname}/*` };
}

/**
 * @param {ProviderSettings} p
 * @param {{fetch?: typeof fetch, onResponse?: (r:{status:number, retryAfter:string|null})=>void}} [o]
 */
export function createModel(p, o = {}) {
  const problem = checkSettings(p);
  if (problem) throw new Error(problem);
  if (p.kind === 'builtin') throw new Error('Chrome\'s built-in model cannot drive the co-pilot yet: it offers no tool calling here. Choose an OpenAI-compatible or Anthropic endpoint.');
  const { origin } = endpointOf(p);
  const base = o.fetch || globalThis.fetch;
  /** @type {typeof fetch} */
  const fetchOnlyThere = async (input, init = {}) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin !== origin) throw new Error(`refused to send a request to ${url.origin}: the configured endpoint is ${origin}`);
    // A server that never answers: give up after the timeout (the stream's own gaps are timed by the loop).
    const waitMs = p.timeoutMs || DEFAULT_TIMEOUT_MS;
    const timer = new AbortController();
    const t = setTimeout(() => timer.abort(new DOMException(`no response within ${waitMs / 1000} s`, 'TimeoutError')), waitMs);
    try {
      const res = await base(input, { ...init, signal: init.signal ? AbortSignal.any([init.signal, timer.signal]) : timer.signal });
      o.onResponse?.({ status: res.status, retryAfter: res.headers.get('retry-after') });
      return res;
    } catch (e) {
      throw timer.signal.aborted ? timer.signal.reason : e;
    } finally {
      clearTimeout(t);
    }
  };
  const baseURL = (p.baseURL || DEFAULT_BASE_URL[p.kind]).replace(/\/+$/, '');
  if (p.kind === 'anthropic') {
    return createAnthropic({
      baseURL, apiKey: p.apiKey || '', fetch: fetchOnlyThere,
      // Anthropic answers browsers only when they say they mean it.
      headers: { 'anthropic-dangerous-direct-browser-access': 'true' },
    })(p.model);
  }
  const model = createOpenAICompatible({ name: 'openai-compatible', baseURL, apiKey: p.apiKey || undefined, fetch: fetchOnlyThere, includeUsage: true })
    .chatModel(p.model);
  return wrapLanguageModel({ model, middleware: imagesAfterToolResults });
}

/** The innermost reason of an error. */
const causeOf = (/** @type {any} */ e) => e?.cause?.message || e?.message || String(e);

/** The provider's own words from an error body, if it sent any. */
function providerSays(e) {
  const data = e.data;
  let msg = data?.error?.message || data?.message;
  if (!msg && e.responseBody) {
    try {
      const body = JSON.parse(e.responseBody);
      msg = body?.error?.message || body?.message || (typeof body?.error === 'string' ? body.error : null);
    } catch {
      msg = e.responseBody.slice(0, 200);
    }
  }
  return msg ? `: ${String(msg).slice(0, 300)}` : '';
}

/**
 * A provider failure as one sentence that says what failed and what to do.
 * @param {any} e
 * @param {ProviderSettings} p
 */
export function describeError(/** @type {any} */ e, p) {
  const where = (() => { try { return endpointOf(p).origin; } catch { return 'the provider'; } })();
  let attempts = 1;
  if (RetryError.isInstance(e)) {
    attempts = e.errors?.length || 1;
    e = e.lastError;
  }
  const tries = attempts > 1 ? ` (${attempts} attempts)` : '';
  let text;
  if (e?.name === 'TimeoutError' || /timeout of \d+ms exceeded/i.test(e?.message || '')) {
    text = `No answer from ${where} in time (${e.message}). The server may be overloaded or unreachable; try again, or raise the timeout.`;
  } else if (APICallError.isInstance(e) && e.statusCode >= 200 && e.statusCode < 300) {
    text = `The answer from ${where} broke off (${causeOf(e)})${tries}. Try again.`;
  } else if (APICallError.isInstance(e) && e.statusCode) {
    const s = e.statusCode;
    const says = providerSays(e);
    if (s === 401 || s === 403) text = `${where} refused the API key (HTTP ${s}${says}). Check the key in Settings.`;
    else if (s === 400 && /\bimages?\b|image_url|vision/i.test(says)) text = `The model “${p.model}” cannot read images (HTTP 400${says}). Untick “The model accepts images” in Settings, or choose a model that reads them.`;
    else if (s === 400 && /\btools?\b/i.test(says)) text = `The model “${p.model}” cannot call tools (HTTP 400${says}), and the co-pilot acts only through them. Choose another model (Settings, or the model list above the conversation).`;
    else if (s === 404) text = `${where} has no such model or path (HTTP 404${says}). Check the base URL and the model name “${p.model}”.`;
    else if (s === 429) {
      const after = e.responseHeaders?.['retry-after'];
      text = `${where} is rate-limiting requests (HTTP 429${says})${after ? `; it asks to wait ${after} s` : ''}${tries}. Wait a moment and try again.`;
    } else if (s >= 500) text = `${where} failed (HTTP ${s}${says})${tries}. Try again later.`;
    else text = `${where} rejected the request (HTTP ${s}${says}).`;
  } else if (APICallError.isInstance(e) || e instanceof TypeError) {
    text = `Could not reach ${where} (${causeOf(e)}). Is the server running? A server on this computer must allow requests from the extension (see Settings), and Chrome must allow axsnap to reach it.`;
  } else {
    text = `The answer from ${where} broke off or could not be read (${e?.message || e}). Try again.`;
  }
  return p.apiKey ? text.split(p.apiKey).join('[API key]') : text;
}
