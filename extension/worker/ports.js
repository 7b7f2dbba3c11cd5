// Long-lived ports of web callers: each message on a port is one request
// through the router, answered on the same port with its id. Ports are kept
// by caller so that a revoke or a deny closes them at once (cutPorts).

import { handle } from './router.js';
import { readGrant } from './grants.js';
import { Watches } from './watch.js';

/** @type {Map<chrome.runtime.Port, {caller: import('./policy.js').Caller, context: import('./router.js').PortContext}>} */
const open = new Map();

/**
 * Serves one port. Only web callers are tracked: the panel's ports need no cutting.
 * @param {chrome.runtime.Port} port
 * @param {import('./policy.js').Caller} caller  from the port's sender, by Chrome
 */
export function openPort(port, caller) {
  const context = { watches: new Watches((event) => send(port, event)) };
  if (caller.kind === 'web') open.set(port, { caller, context });
  port.onDisconnect.addListener(() => {
    context.watches.stopAll();
    open.delete(port);
  });
  port.onMessage.addListener((msg) => {
    handle(msg, caller, context).then((answer) => send(port, answer));
  });
}

/**
 * Closes every open port of a site the person denied or revoked, after
 * telling it why (`{ok:false, event:'closed', error}`). A port of a site not
 * allowed yet stays open: its requests answer consent_required until the
 * person answers.
 */
export async function cutPorts() {
  for (const [port, { caller, context }] of open) {
    const { access } = await readGrant(/** @type {any} */ (caller).origin);
    if (access !== 'denied' && access !== 'revoked') continue;
    context.watches.stopAll();
    try {
      port.postMessage({ ok: false, event: 'closed', error: { code: access, message: `the person ${access} this site's access: the port is closed` } });
      port.disconnect();
    } catch { /* already gone */ }
    open.delete(port);
  }
}

/** One event on a port that may have gone away. */
function send(port, event) {
  try {
    port.postMessage(event);
  } catch { /* the page went away */ }
}
