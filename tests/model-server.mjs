// A stand-in for a model provider on 127.0.0.1, speaking the two wire
// protocols the co-pilot supports: OpenAI chat completions (streaming SSE
// with `tool_calls`) and Anthropic Messages (streaming `tool_use`). Which
// scripted agent answers is chosen by the request's `model`, as a real
// provider picks a model; the agents (tests/model-agents.mjs) decide from the
// text (and pictures) they receive. It can fail on purpose (HTTP errors, a broken stream,
// no answer) and it checks every request body for canary secrets.
import { createServer } from 'node:http';
import { AGENTS, transcriptText } from './model-agents.mjs';

/** What the list of models says of some, as OpenRouter's does: what they take in. */
const LISTED = {
  looker: { architecture: { input_modalities: ['text', 'image'], output_modalities: ['text'] } },
  hello: { architecture: { input_modalities: ['text'], output_modalities: ['text'] } },
};

/** The extension's origin: answered with CORS headers, as OpenAI and Anthropic do for browsers. */
const EXTENSION_ORIGIN = 'chrome-extension://igfmikjflpmjjplejblhobglmclempkh';

/**
 * @typedef {{mediaType:string, data:string}} Picture  an image the request carried, base64
 * @typedef {{role:'user'|'assistant'|'tool', text:string, calls?:Array<{id:string,name:string,input:any}>, callId?:string, images?:Picture[]}} Turn
 * @typedef {{text?:string, calls?:Array<{name:string,input:any}>}} Reply
 * @typedef {{status?:number, retryAfter?:number, brokenStream?:boolean, hang?:boolean, times?:number, body?:any}} Failure
 */

/** Images of an OpenAI message: `image_url` parts holding a data URL. */
function openAIImages(content) {
  const out = [];
  for (const p of Array.isArray(content) ? content : []) {
    const m = p.type === 'image_url' && String(p.image_url?.url || '').match(/^data:([^;,]+);base64,(.*)$/s);
    if (m) out.push({ mediaType: m[1], data: m[2] });
  }
  return out.length ? { images: out } : {};
}

/** Images of Anthropic content: `image` blocks with a base64 source. */
const anthropicImages = (parts) => {
  const out = (Array.isArray(parts) ? parts : []).filter((p) => p.type === 'image' && p.source?.type === 'base64').map((p) => ({ mediaType: p.source.media_type, data: p.source.data }));
  return out.length ? { images: out } : {};
};

/** OpenAI chat messages → turns. */
function fromOpenAI(body) {
  const system = [];
  /** @type {Turn[]} */
  const turns = [];
  const text = (c) => (typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => p.text || '').join('') : '');
  for (const m of body.messages || []) {
    if (m.role === 'system' || m.role === 'developer') system.push(text(m.content));
    else if (m.role === 'tool') turns.push({ role: 'tool', text: text(m.content), callId: m.tool_call_id, ...openAIImages(m.content) });
    else {
      const calls = (m.tool_calls || []).map((c) => ({ id: c.id, name: c.function.name, input: JSON.parse(c.function.arguments || '{}') }));
      turns.push({ role: m.role, text: text(m.content), calls, ...openAIImages(m.content) });
    }
  }
  return { system: system.join('\n'), turns, tools: (body.tools || []).map((t) => t.function.name) };
}

/** Anthropic messages → turns (tool results ride in user messages there). */
function fromAnthropic(body) {
  const system = typeof body.system === 'string' ? body.system : (body.system || []).map((p) => p.text).join('\n');
  /** @type {Turn[]} */
  const turns = [];
  for (const m of body.messages || []) {
    const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    const texts = parts.filter((p) => p.type === 'text').map((p) => p.text).join('');
    const calls = parts.filter((p) => p.type === 'tool_use').map((p) => ({ id: p.id, name: p.name, input: p.input }));
    for (const r of parts.filter((p) => p.type === 'tool_result')) {
      const t = typeof r.content === 'string' ? r.content : (r.content || []).map((p) => p.text || '').join('');
      turns.push({ role: 'tool', text: t, callId: r.tool_use_id, ...anthropicImages(r.content) });
    }
    const images = anthropicImages(parts);
    if (texts || calls.length || images.images) turns.push({ role: m.role, text: texts, calls, ...images });
  }
  return { system, turns, tools: (body.tools || []).map((t) => t.name) };
}

/** Splits a string into a few pieces, so answers really stream. */
function pieces(s, n = 3) {
  const size = Math.max(1, Math.ceil(s.length / n));
  const out = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out;
}

const tokensOf = (s) => Math.ceil(s.length / 4);

function* openAIEvents(reply, model, inputTokens) {
  const base = { id: 'chatcmpl-standin', object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model };
  const chunk = (delta, finish = null) => ({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  yield chunk({ role: 'assistant', content: '' });
  for (const p of pieces(reply.text || '')) yield chunk({ content: p });
  for (const [index, c] of (reply.calls || []).entries()) {
    // The first piece names the call, the rest stream its arguments.
    const [first, ...rest] = pieces(JSON.stringify(c.input));
    yield chunk({ tool_calls: [{ index, id: `call_${c.id}`, type: 'function', function: { name: c.name, arguments: first } }] });
    for (const r of rest) yield chunk({ tool_calls: [{ index, function: { arguments: r } }] });
  }
  const out = tokensOf((reply.text || '') + JSON.stringify(reply.calls || []));
  yield chunk({}, reply.calls?.length ? 'tool_calls' : 'stop');
  yield { ...base, choices: [], usage: { prompt_tokens: inputTokens, completion_tokens: out, total_tokens: inputTokens + out } };
}

function* anthropicEvents(reply, model, inputTokens) {
  yield ['message_start', { type: 'message_start', message: { id: 'msg_standin', type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: inputTokens, output_tokens: 1 } } }];
  let index = 0;
  if (reply.text) {
    yield ['content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }];
    for (const p of pieces(reply.text)) yield ['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: p } }];
    yield ['content_block_stop', { type: 'content_block_stop', index }];
    index++;
  }
  for (const c of reply.calls || []) {
    yield ['content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: `toolu_${c.id}`, name: c.name, input: {} } }];
    for (const p of pieces(JSON.stringify(c.input))) yield ['content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: p } }];
    yield ['content_block_stop', { type: 'content_block_stop', index }];
    index++;
  }
  const out = tokensOf((reply.text || '') + JSON.stringify(reply.calls || []));
  yield ['message_delta', { type: 'message_delta', delta: { stop_reason: reply.calls?.length ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: out } }];
  yield ['message_stop', { type: 'message_stop' }];
}

/** Provider-shaped error bodies, as each API sends them. */
function errorBody(kind, status) {
  const types = { 401: ['authentication_error', 'invalid_api_key', 'Incorrect API key provided.'], 429: ['rate_limit_error', 'rate_limit_exceeded', 'Rate limit reached, slow down.'],
    500: ['api_error', 'server_error', 'The server had an error while processing your request.'] };
  const [aType, oCode, message] = types[status] || ['api_error', 'error', `Error ${status}`];
  return kind === 'anthropic' ? { type: 'error', error: { type: aType, message } } : { error: { message, type: oCode, code: oCode } };
}

/**
 * @param {{delayMs?: number}} [o]  delayMs: pause between streamed events (lets tests press Stop mid-stream)
 */
export async function startModelServer(o = {}) {
  const state = {
    /** Every request: {kind, model, body (raw text), transcript} */
    requests: [],
    /** Canary secrets: a request body holding one is refused and recorded. */
    canaries: new Set(),
    leaks: [],
    /** @type {Failure|null} */
    failure: null,
    delayMs: o.delayMs ?? 0,
    /** Set by tests to the API key every request must carry (checked like a real provider does). */
    apiKey: null,
    /** Set by tests: the model reads no images, and a request holding one is refused as OpenAI refuses it. */
    refuseImages: false,
  };
  const sockets = new Set();
  const server = createServer(async (req, res) => {
    const cors = { 'access-control-allow-origin': EXTENSION_ORIGIN, 'access-control-allow-headers': '*', 'access-control-allow-methods': 'POST, GET, OPTIONS', 'access-control-max-age': '600', 'access-control-expose-headers': 'retry-after, retry-after-ms' };
    if (req.method === 'OPTIONS') { res.writeHead(204, cors).end(); return; }
    const url = new URL(req.url, 'http://x');
    const kind = url.pathname.endsWith('/chat/completions') ? 'openai' : url.pathname.endsWith('/messages') ? 'anthropic' : url.pathname.endsWith('/models') ? 'models' : null;
    if (!kind) { res.writeHead(404, cors).end('not found'); return; }
    if (kind === 'models') { res.writeHead(200, { ...cors, 'content-type': 'application/json' }).end(JSON.stringify({ data: [...Object.keys(AGENTS), 'no-tools'].map((id) => ({ id, ...LISTED[id] })) })); return; }
    let raw = '';
    for await (const c of req) raw += c;
    const body = JSON.parse(raw || '{}');
    const parsed = kind === 'openai' ? fromOpenAI(body) : fromAnthropic(body);
    const key = kind === 'openai' ? (req.headers.authorization || '').replace(/^Bearer /, '') : req.headers['x-api-key'];
    state.requests.push({ kind, model: body.model, body: raw, headers: req.headers, ...parsed });
    const json = (status, obj, extra = {}) => res.writeHead(status, { ...cors, 'content-type': 'application/json', ...extra }).end(JSON.stringify(obj));
    const leaked = [...state.canaries].filter((c) => raw.includes(c));
    if (leaked.length) {
      state.leaks.push({ kind, canaries: leaked });
      json(400, errorBody(kind, 400));
      return;
    }
    if (state.apiKey && key !== state.apiKey) { json(401, errorBody(kind, 401)); return; }
    const f = state.failure;
    if (f && (f.times === undefined || f.times > 0)) {
      if (f.times !== undefined) f.times--;
      if (f.hang) return; // never answers: the client's timeout must fire
      if (f.status) { json(f.status, f.body || errorBody(kind, f.status), f.retryAfter !== undefined ? { 'retry-after': String(f.retryAfter) } : {}); return; }
    }
    if (state.refuseImages && parsed.turns.some((t) => t.images?.length)) {
      json(400, { error: { message: 'Invalid content type. image_url is only supported by certain models.', type: 'invalid_request_error', code: null } });
      return;
    }
    // A model listed by the server that cannot call tools (Ollama answers so for many small models).
    if (body.model === 'no-tools' && body.tools?.length) { json(400, { error: { message: 'registry.ollama.ai/library/no-tools does not support tools', type: 'api_error' } }); return; }
    const agent = AGENTS[body.model];
    if (!agent) { json(404, kind === 'anthropic' ? { type: 'error', error: { type: 'not_found_error', message: `model: ${body.model}` } } : { error: { message: `The model \`${body.model}\` does not exist`, type: 'invalid_request_error', code: 'model_not_found' } }); return; }
    let reply;
    try {
      reply = agent(parsed);
    } catch (e) {
      json(500, errorBody(kind, 500));
      console.error(`stand-in agent ${body.model} failed: ${e.stack}\n--- transcript\n${transcriptText(parsed.turns)}`);
      return;
    }
    reply.calls = (reply.calls || []).map((c, i) => ({ id: `${state.requests.length}_${i}`, ...c }));
    const input = tokensOf(raw);
    res.writeHead(200, { ...cors, 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const events = kind === 'openai'
      ? [...openAIEvents(reply, body.model, input)].map((e) => `data: ${JSON.stringify(e)}\n\n`).concat(['data: [DONE]\n\n'])
      : [...anthropicEvents(reply, body.model, input)].map(([name, e]) => `event: ${name}\ndata: ${JSON.stringify(e)}\n\n`);
    const breakAt = f?.brokenStream ? Math.max(2, Math.floor(events.length / 2)) : -1;
    for (let i = 0; i < events.length; i++) {
      if (i === breakAt) {
        // Half an answer, then the connection drops.
        await new Promise((r) => setTimeout(r, 50));
        res.socket?.destroy();
        return;
      }
      res.write(events[i]);
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      if (res.destroyed) return;
    }
    res.end();
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const port = /** @type {any} */ (server.address()).port;
  return {
    state,
    port,
    /** Base URLs as the settings take them. */
    openaiURL: `http://127.0.0.1:${port}/v1`,
    anthropicURL: `http://127.0.0.1:${port}/anthropic/v1`,
    /** Fails the next `times` requests (all when undefined) as described. */
    fail(failure) { state.failure = failure; },
    reset() { state.failure = null; state.requests.length = 0; state.leaks.length = 0; state.canaries.clear(); state.apiKey = null; state.refuseImages = false; },
    close: () => new Promise((r) => { for (const s of sockets) s.destroy(); server.close(() => r()); }),
  };
}
