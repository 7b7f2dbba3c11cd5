// Starts the pipeline over a transport: the one place that hears the
// browser's events for it (frame sessions coming and going, dialogs, a
// debugger that left). The extension's service worker calls it at its top
// level (listeners added later miss the event that woke it); a Node program
// (packages/cdp) with its CDPSession's transport.

import { useTransport } from './transport.js';
import { onDebuggerEvent } from './frames.js';
import { forget } from './session.js';

/** @param {import('./transport.js').Transport} t */
export function startPipeline(t) {
  useTransport(t);
  t.onEvent(onDebuggerEvent);
  t.onDetach((tabId) => {
    forget(tabId, 'detached').catch(() => {});
  });
}
