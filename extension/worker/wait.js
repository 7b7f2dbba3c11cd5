// Waiting, bounded, until a page shows a text, stops showing it, or its URL
// contains a string. The page is read as the caller reads it (a snapshot),
// so nothing the snapshot hides, such as a secret field's value, can be
// waited for and so learnt.

import { AxError } from '../../protocol/errors.js';

const POLL_MS = 300;
export const MAX_WAIT_MS = 60000;

/** The fields of a wait, as JSON Schema fragments for protocol/validate.js's `problem`. */
export const WAIT_FIELDS = {
  tabId: { type: 'integer', minimum: 0 },
  text: { type: 'string', maxLength: 1000 },
  textGone: { type: 'string', maxLength: 1000 },
  url: { type: 'string', maxLength: 8192 },
  timeout: { type: 'integer', minimum: 0, maximum: MAX_WAIT_MS },
};

/**
 * @param {{text?: string, textGone?: string, url?: string, timeout?: number}} want
 * @param {{text: () => Promise<string>, url: () => Promise<string>}} read  how to look at the page
 * @param {AbortSignal} [signal]  stops the wait (the caller went away)
 * @returns {Promise<{waitedMs: number}>}
 */
export async function waitFor(want, read, signal) {
  if (want.text === undefined && want.textGone === undefined && want.url === undefined) {
    throw new AxError('bad_request', 'wait_for needs text, textGone or url');
  }
  const timeout = want.timeout ?? 10000;
  const started = Date.now();
  for (;;) {
    signal?.throwIfAborted();
    const text = want.text !== undefined || want.textGone !== undefined ? await read.text() : '';
    const met = (want.text === undefined || text.includes(want.text))
      && (want.textGone === undefined || !text.includes(want.textGone))
      && (want.url === undefined || (await read.url()).includes(want.url));
    const waitedMs = Date.now() - started;
    if (met) return { waitedMs };
    if (waitedMs >= timeout) throw new AxError('timeout', `after ${(timeout / 1000).toFixed(1)} s ${unmet(want)}: take a snapshot to see the page`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, timeout - waitedMs)));
  }
}

function unmet(want) {
  const parts = [];
  if (want.text !== undefined) parts.push(`the text ${JSON.stringify(want.text)} has not appeared`);
  if (want.textGone !== undefined) parts.push(`the text ${JSON.stringify(want.textGone)} is still there`);
  if (want.url !== undefined) parts.push(`the URL does not contain ${JSON.stringify(want.url)}`);
  return parts.join(', or ');
}
