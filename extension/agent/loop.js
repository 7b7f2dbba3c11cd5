// The agent loop, without the browser: a goal, tools, a model; streaming
// text and tool steps out through onStep; stopped by an AbortSignal that
// reaches the model request and every tool. The panel is one host; a test
// in Node is another.

import { streamText, isStepCount, hasToolCall } from 'ai';
import { withoutImages } from './media.js';

export const DEFAULT_MAX_STEPS = 30;
/** Page views kept whole in the history; older ones shrink to their first line. */
const KEEP_PAGES = 2;
const PAGE = /<page [^>]*>\n[\s\S]*?\n<\/page>/g;
/** Screenshots kept whole in what the model is sent again: each is hundreds of KB, and the page moves on. */
const KEEP_IMAGES = 1;

/**
 * @typedef {import('ai').ModelMessage} ModelMessage
 * @typedef {{inputTokens:number, outputTokens:number, totalTokens:number}} Usage
 * @typedef {{type:'text', text:string} | {type:'step', step:number} | {type:'usage', usage:Usage, steps:number} | import('./tools.js').ToolEvent} StepEvent
 * @typedef {{status:'done'|'answered'|'step-limit'|'stopped'|'error', text:string, summary:string|null, error:any,
 *   messages:ModelMessage[], usage:Usage, steps:number}} RunResult
 */

/** Text of a tool result's output, whatever shape the SDK stored it in. */
const outputText = (output) => (typeof output === 'string' ? output : output?.type === 'text' ? output.value : null);

/**
 * Older page views are left out of what the model is sent again: the model
 * acts on the latest view, and each view can be thousands of tokens. A diff
 * view (`kind="diff"`) only says what changed since the view before it, so
 * the diffs since the latest whole views are kept with them. So are all
 * screenshots but the latest.
 * @param {ModelMessage[]} messages
 * @returns {ModelMessage[]}
 */
export function compact(messages, keep = KEEP_PAGES) {
  let pagesSeen = 0;
  const out = withoutImages(messages, KEEP_IMAGES);
  for (let i = out.length - 1; i >= 0; i--) {
    const m = out[i];
    if (m.role !== 'tool' || !Array.isArray(m.content)) continue;
    let changed = false;
    const content = m.content.map((/** @type {any} */ part) => {
      const text = part.type === 'tool-result' ? outputText(part.output) : null;
      if (!text || !PAGE.test(text)) return part;
      PAGE.lastIndex = 0;
      if (/<page [^>]*kind="diff"/.test(text) && pagesSeen < keep) return part;
      pagesSeen++;
      if (pagesSeen <= keep) return part;
      changed = true;
      return { ...part, output: { type: 'text', value: text.replace(PAGE, '[an older view of the page, left out: use the latest one]') } };
    });
    if (changed) out[i] = /** @type {ModelMessage} */ ({ ...m, content });
  }
  return out;
}

/**
 * @param {{goal:string, history?:ModelMessage[], tools:Record<string, any>, model:any, instructions:string,
 *   onStep?:(e:StepEvent)=>void, signal?:AbortSignal, maxSteps?:number, timeout?:any, maxRetries?:number, maxOutputTokens?:number}} o
 * @returns {Promise<RunResult>}
 */
export async function run(o) {
  const onStep = o.onStep || (() => {});
  const maxSteps = o.maxSteps ?? DEFAULT_MAX_STEPS;
  /** @type {ModelMessage[]} */
  const messages = [...compact(o.history || []), { role: 'user', content: o.goal }];
  /** @type {ModelMessage[]} */
  const produced = [];
  const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };
  let steps = 0;
  let text = '';
  let error = null;
  // One signal for the request and the tools: the person's Stop, or our own after a failure.
  const inner = new AbortController();
  const stop = () => inner.abort(o.signal?.reason);
  if (o.signal?.aborted) stop();
  o.signal?.addEventListener('abort', stop, { once: true });
  try {
    const result = streamText({
      model: o.model,
      instructions: o.instructions,
      messages,
      tools: o.tools,
      stopWhen: [isStepCount(maxSteps), hasToolCall('done')],
      abortSignal: inner.signal,
      timeout: o.timeout,
      maxRetries: o.maxRetries ?? 2,
      maxOutputTokens: o.maxOutputTokens ?? 4096,
      // One action at a time, in the order the model gave them.
      toolCallConcurrency: 1,
      prepareStep: ({ messages: m }) => ({ messages: compact(m) }),
      // Failures come out of the stream as error parts; the SDK need not log them too.
      onError: () => {},
      onStepEnd: (step) => {
        steps++;
        produced.push(...step.response.messages);
        usage.inputTokens += step.usage?.inputTokens || 0;
        usage.outputTokens += step.usage?.outputTokens || 0;
        usage.totalTokens += step.usage?.totalTokens || (step.usage?.inputTokens || 0) + (step.usage?.outputTokens || 0);
        onStep({ type: 'usage', usage: { ...usage }, steps });
      },
    });
    for await (const part of result.stream) {
      if (part.type === 'text-delta') {
        text += part.text;
        onStep({ type: 'text', text: part.text });
      } else if (part.type === 'start-step') {
        onStep({ type: 'step', step: steps + 1 });
      } else if (part.type === 'error') {
        error = part.error;
        break;
      } else if (part.type === 'abort') {
        // Not the person's Stop: the SDK's own timeout between parts of the answer.
        if (!o.signal?.aborted) error = new DOMException(part.reason || 'the answer stalled', 'TimeoutError');
        break;
      }
    }
  } catch (e) {
    if (!inner.signal.aborted) error = e;
  } finally {
    o.signal?.removeEventListener('abort', stop);
    // Nothing keeps running after the loop returns.
    if (!inner.signal.aborted) inner.abort();
  }
  const calls = produced.flatMap((m) => (m.role === 'assistant' && Array.isArray(m.content) ? m.content : [])).filter((p) => p.type === 'tool-call');
  const doneCall = calls.find((c) => c.toolName === 'done');
  const summary = doneCall ? String(/** @type {any} */ (doneCall).input?.summary ?? '') : null;
  /** @type {RunResult['status']} */
  let status;
  if (o.signal?.aborted) status = 'stopped';
  else if (error) status = 'error';
  else if (doneCall) status = 'done';
  else if (steps >= maxSteps && produced.at(-1)?.role === 'tool') status = 'step-limit';
  else status = 'answered';
  return { status, text, summary, error, messages: [...messages, ...produced], usage, steps };
}
