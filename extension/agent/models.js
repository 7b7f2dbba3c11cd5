// The models an endpoint offers, from its own list: `GET {base}/models` on
// OpenAI-compatible servers (OpenAI, OpenRouter, Ollama, LM Studio, vLLM)
// and on Anthropic. Where the list says whether a model can call tools
// (OpenRouter's `supported_parameters`), that is kept: the co-pilot needs them.
// So is whether it reads images (OpenRouter's `architecture.input_modalities`):
// the co-pilot offers screenshots to those that do.

import { endpointOf, DEFAULT_BASE_URL } from './provider.js';

/** Where to start for each kind of server the person is likely to have. */
export const PRESETS = [
  { name: 'OpenAI', kind: 'openai-compatible', baseURL: 'https://api.openai.com/v1', key: true },
  { name: 'Anthropic', kind: 'anthropic', baseURL: 'https://api.anthropic.com/v1', key: true },
  { name: 'OpenRouter', kind: 'openai-compatible', baseURL: 'https://openrouter.ai/api/v1', key: true },
  { name: 'Ollama', kind: 'openai-compatible', baseURL: 'http://localhost:11434/v1', key: false },
  { name: 'LM Studio', kind: 'openai-compatible', baseURL: 'http://localhost:1234/v1', key: false },
];

/**
 * @param {import('./provider.js').ProviderSettings} p
 * @returns {Promise<Array<{id:string, tools?:boolean, images?:boolean}>>}  sorted by id; throws when the endpoint gives no list
 */
export async function listModels(p, { timeoutMs = 8000 } = {}) {
  if (p.kind === 'builtin') return [];
  endpointOf(p); // throws on a base URL that is no URL
  const base = (p.baseURL || DEFAULT_BASE_URL[p.kind]).replace(/\/+$/, '');
  const headers = p.kind === 'anthropic'
    ? { 'x-api-key': p.apiKey || '', 'anthropic-version': '2023-06-01', 'anthropic-dangerous-direct-browser-access': 'true' }
    : p.apiKey ? { authorization: `Bearer ${p.apiKey}` } : {};
  const res = await fetch(`${base}/models${p.kind === 'anthropic' ? '?limit=100' : ''}`, { headers, signal: AbortSignal.timeout(timeoutMs) });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const body = await res.json();
  const data = Array.isArray(body?.data) ? body.data : [];
  return data.filter((m) => typeof m?.id === 'string')
    .map((m) => ({
      id: m.id,
      ...(Array.isArray(m.supported_parameters) ? { tools: m.supported_parameters.includes('tools') } : {}),
      ...(Array.isArray(m.architecture?.input_modalities) ? { images: m.architecture.input_modalities.includes('image') } : {}),
    }))
    .sort((a, b) => a.id.localeCompare(b.id));
}
