// The element the co-pilot is about to act on, outlined in the page for the
// length of the step. Drawn by Chrome's debugger overlay above the page, not
// put into it: the page can neither see, style, hide nor fake the outline.
// One per tab; a new one replaces it, and a highlight without a ref clears it.

import { send } from './cdp.js';

/** The panel's accent, outlined, over a light fill that leaves the element readable. */
const LOOK = {
  showInfo: false,
  contentColor: { r: 11, g: 87, b: 208, a: 0.12 },
  paddingColor: { r: 11, g: 87, b: 208, a: 0.06 },
  borderColor: { r: 11, g: 87, b: 208, a: 0.85 },
  outlineColor: { r: 11, g: 87, b: 208, a: 1 },
};

/** Tab → the debugger session its outline was drawn in (a frame in another process has its own). */
const drawn = new Map();

/** Outlines the element `t` (router.js's resolved target). */
export async function highlight(/** @type {{tabId:number, sessionId?:string, backendNodeId:number}} */ t) {
  await clearHighlight(t.tabId);
  // The overlay works only with the DOM domain on, in the session of the element's frame.
  await send(t.tabId, t.sessionId, 'DOM.enable');
  await send(t.tabId, t.sessionId, 'Overlay.enable');
  await send(t.tabId, t.sessionId, 'Overlay.highlightNode', { highlightConfig: LOOK, backendNodeId: t.backendNodeId });
  drawn.set(t.tabId, t.sessionId);
}

/** Takes the tab's outline away, if it has one. */
export async function clearHighlight(/** @type {number} */ tabId) {
  if (!drawn.has(tabId)) return;
  const sessionId = drawn.get(tabId);
  drawn.delete(tabId);
  // The frame may be gone with its outline: nothing is left to clear then.
  await send(tabId, sessionId, 'Overlay.hideHighlight').catch(() => {});
}
