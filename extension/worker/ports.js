// Long-lived ports of web callers: each message on a port is one request
// through the router, answered on the same port with its id. Ports are kept
// by caller so that a revoke or a deny closes them at once (cutPorts).

import { handle } from './router.js';
import { readGrant } from './grants.js';
import { bridgeServes, bridgeOrigin } from './policy.js';
import { Watches } from './watch.js';

/** @type {Map<chrome.runtime.Port, {caller: import('./policy.js').Caller, context: import('./router.js').PortContext, bridge: boolean}>} */
const open = new Map();

/** The bridge's first word on a port it may use; a port it may not use is closed without a word. */
export const BRIDGE_OPEN = { axsnapBridge: 'open' };

/**
 * Serves one port. Only web callers are tracked: the panel's ports need no cutting.
 * @param {chrome.runtime.Port} port
 * @param {import('./policy.js').Caller} caller  from the port's sender, by Chrome
 * @param {{bridge?: boolean}} [how]  a port of the bridge content script: served only where it may serve (bridgeServes)
 */
export function openPort(port, caller, { bridge = false } = {}) {
  const context = { watches: new Watches((event) => send(port, event)) };
  const ready = bridge ? servesBridge(caller) : Promise.resolve(true);
  if (caller.kind === 'web') open.set(port, { caller, context, bridge });
  port.onDisconnect.addListener(() => {
    context.watches.stopAll();
    open.delete(port);
  });
  ready.then((ok) => {
    if (!ok) return close(port, context);
    if (bridge) send(port, BRIDGE_OPEN);
  });
  port.onMessage.addListener((msg) => {
    // Nothing is answered on a bridge port before the gate: not even hello (which would queue a prompt).
    ready.then((ok) => ok && handle(msg, caller, context).then((answer) => send(port, answer)));
  });
}

/** Whether the bridge may serve this caller, from the grant of its origin (bridgeOrigin). */
async function servesBridge(caller) {
  if (caller.kind !== 'web') return false;
  return bridgeServes({ ...caller, grant: await readGrant(bridgeOrigin(caller)) });
}

function close(port, context) {
  context.watches.stopAll();
  open.delete(port);
  try {
    port.disconnect();
  } catch { /* already gone */ }
}

/**
 * Closes every open port of a site the person denied or revoked, after
 * telling it why (`{ok:false, event:'closed', error}`). A port of a site not
 * allowed yet stays open: its requests answer consent_required until the
 * person answers.
 */
export async function cutPorts() {
  for (const [port, { caller, context, bridge }] of open) {
    // A bridge no longer allowed to serve (its "Allow once" ended, the site was forgotten) closes without a word.
    if (bridge && !(await servesBridge(caller))) {
      close(port, context);
      continue;
    }
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
