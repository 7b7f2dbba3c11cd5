// Chrome's failures as the protocol's errors: a stable machine `code` (one
// of protocol/protocol.js's ERRORS) and a message that says what to do next.

import { AxError } from '../../protocol/errors.js';

export { AxError };

/** CDP error texts we recognise, and what they mean for the caller.
 * @type {Array<[RegExp, string, string]>} */
const CDP_MEANINGS = [
  [/No node with given id|does not belong to the document|No node found|Could not find node|Node is detached/i, 'stale_ref',
    'its element is no longer in the page: take a new snapshot'],
  [/Could not compute box model|Node does not have a layout object|Node is not visible/i, 'not_visible',
    'the element has no box on screen (hidden, collapsed or display:none)'],
  [/Detached while handling command|Debugger is not attached|not attached to the tab|Target closed/i, 'detached',
    'the debugger was detached from the tab (closed, navigated away or cancelled by the user): try again'],
  [/No tab with (given )?id|No target with given id/i, 'no_tab', 'the tab does not exist (closed?)'],
  [/Another debugger is already attached/i, 'debugger_busy',
    'another debugger (DevTools?) is attached to this tab: close it and try again'],
  [/Cannot access a chrome|Cannot attach to this target|chrome-extension:\/\/|chrome:\/\//i, 'restricted_page',
    'Chrome does not allow debugging this page (chrome:// or another extension)'],
];

/** Turns a chrome.debugger failure into an AxError with a stable code. */
export function fromChrome(err, context = '') {
  if (err instanceof AxError) return err;
  let text = String(err && err.message ? err.message : err);
  try {
    const parsed = JSON.parse(text);
    if (parsed && parsed.message) text = parsed.message;
  } catch { /* not a JSON error */ }
  for (const [re, code, advice] of CDP_MEANINGS) {
    if (re.test(text)) return new AxError(code, `${context ? context + ': ' : ''}${advice} (${text})`);
  }
  return new AxError('cdp_error', `${context ? context + ': ' : ''}${text}`);
}

/** Errors thrown by the Wasm core carry their own code already. */
export function toPayload(err) {
  if (err instanceof AxError) return { ...err.details, code: err.code, message: err.message };
  if (err && typeof err === 'object' && typeof err.code === 'string' && err.message) {
    return { code: err.code, message: String(err.message) };
  }
  return { code: 'internal', message: String(err && err.message ? err.message : err) };
}
