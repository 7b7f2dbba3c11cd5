// Waiting, bounded, until a page shows a text, stops showing it, a ref's
// element goes, or its URL contains a string. The page is read as the
// caller reads it (a snapshot), so nothing the snapshot hides, such as a
// secret field's value, can be waited for and so learnt.

import { AxError } from '../../protocol/errors.js';

const POLL_MS = 250;
const DEFAULT_MS = 10000;

/**
 * @typedef {{text?: string, textGone?: string, refGone?: string, url?: string, timeout?: number}} Want
 * @param {Want} want
 * @param {{text: () => Promise<string>, url: () => Promise<string>, gone: (ref: string) => Promise<boolean>}} read
 *   how to look at the page
 * @param {AbortSignal} [signal]  stops the wait (the caller went away)
 * @returns {Promise<{waitedMs: number}>}
 */
export async function waitFor(want, read, signal) {
  if (want.text === undefined && want.textGone === undefined && want.url === undefined && want.refGone === undefined) {
    throw new AxError('bad_request', 'wait_for needs text, textGone, refGone or url');
  }
  const timeout = want.timeout ?? DEFAULT_MS;
  const started = Date.now();
  for (;;) {
    signal?.throwIfAborted();
    const met = await metNow(want, read);
    const waitedMs = Date.now() - started;
    if (met) return { waitedMs };
    if (waitedMs >= timeout) throw new AxError('timeout', `after ${(timeout / 1000).toFixed(1)} s ${unmet(want)}: take a snapshot to see the page`);
    await new Promise((resolve) => setTimeout(resolve, Math.min(POLL_MS, timeout - waitedMs)));
  }
}

/** Every condition asked for holds now; the cheap ones are looked at first. */
async function metNow(want, read) {
  if (want.url !== undefined && !(await read.url()).includes(want.url)) return false;
  if (want.refGone !== undefined && !(await read.gone(want.refGone))) return false;
  if (want.text === undefined && want.textGone === undefined) return true;
  const text = await read.text();
  return (want.text === undefined || text.includes(want.text)) && (want.textGone === undefined || !text.includes(want.textGone));
}

function unmet(want) {
  const parts = [];
  if (want.text !== undefined) parts.push(`the text ${JSON.stringify(want.text)} has not appeared`);
  if (want.textGone !== undefined) parts.push(`the text ${JSON.stringify(want.textGone)} is still there`);
  if (want.refGone !== undefined) parts.push(`${want.refGone} is still there`);
  if (want.url !== undefined) parts.push(`the URL does not contain ${JSON.stringify(want.url)}`);
  return parts.join(', or ');
}
