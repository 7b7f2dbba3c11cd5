// Acting on an element by ref. The core resolves a ref to a frame, the
// document it was issued in and a backendDOMNodeId; before anything is sent
// the frame must still show that document and the element must still be in
// it (else `stale_ref`). A click is pressed only where a hit test, after the
// pointer has moved there, finds the target, and a drag only when both its
// ends pass that test; keys are sent only while the target holds the focus.
// A value typed into a field is never logged or echoed.

import { send } from './cdp.js';
import { transport } from './transport.js';
import { AxError } from './errors.js';
import { locateFrame } from './frames.js';
import { answerDialog } from './dialogs.js';
import { ACTIONS, MAX_SCROLL } from '../../protocol/protocol.js';
import { dragPath, visibleCentre } from './drag_path.js';

/** Keys `press` knows: key → [code, keyCode, text] */
const KEYS = {
  Enter: ['Enter', 13, '\r'], Tab: ['Tab', 9, ''], Escape: ['Escape', 27, ''], Backspace: ['Backspace', 8, ''],
  Delete: ['Delete', 46, ''], ArrowUp: ['ArrowUp', 38, ''], ArrowDown: ['ArrowDown', 40, ''],
  ArrowLeft: ['ArrowLeft', 37, ''], ArrowRight: ['ArrowRight', 39, ''], Home: ['Home', 36, ''], End: ['End', 35, ''],
  PageUp: ['PageUp', 33, ''], PageDown: ['PageDown', 34, ''], Space: ['Space', 32, ' '], ' ': ['Space', 32, ' '],
};

/** Pixels `scroll` moves for "up" and "down". */
const SCROLL_STEP = 600;
/** Reads of an element's box until two agree (smooth scrolling, late layout). */
const SETTLE_READS = 8;

/**
 * @typedef {{tabId:number, ref?:string, frame?:string, document?:string, backendNodeId?:number,
 *   sessionId?:string, objectId?:string, owners?:Array<Owner>, beforePress?:() => Promise<void>}} Target
 *   beforePress: the caller's last word before the button or key goes down (guard.js judges what it submits then)
 * @typedef {{sessionId?:string, backendNodeId:number, objectId:string, crossProcess:boolean}} Owner
 *   an <iframe> on the way from the target's frame up to the page
 */

const stale = (t, why) => new AxError('stale_ref', `${t.ref} is stale: ${why}; take a new snapshot`);

/**
 * Checks that the ref's frame still shows the ref's document and that its
 * element is still in it, and holds on to the element (and the <iframe>s
 * above it) for the action.
 * @param {Target} t
 */
export async function bind(t) {
  const here = await locateFrame(t.tabId, t.frame);
  if (!here) throw stale(t, 'its frame is gone');
  if (!t.document || here.document !== t.document) throw stale(t, `the page it belongs to was replaced (the frame now shows ${here.url})`);
  t.sessionId = here.sessionId;
  const { object } = await send(t.tabId, t.sessionId, 'DOM.resolveNode', { backendNodeId: t.backendNodeId });
  t.objectId = object.objectId;
  // A navigation between the check and the lookup would hand us a node of the new page.
  const still = await locateFrame(t.tabId, t.frame);
  if (!still || still.document !== t.document) throw stale(t, 'the page changed while acting');
  if (!(await callOn(t, function () { return this.isConnected; }))) throw stale(t, 'its element was removed from the page');
  t.owners = await owners(t, here);
}

/** The <iframe> elements from the target's frame up to the top, each in its parent's session. */
async function owners(t, here) {
  const out = [];
  let frame = t.frame;
  let at = here;
  while (at.parentId) {
    const parent = await locateFrame(t.tabId, at.parentId);
    if (!parent) throw stale(t, 'a frame around it is gone');
    const { backendNodeId } = await send(t.tabId, parent.sessionId, 'DOM.getFrameOwner', { frameId: frame });
    const { object } = await send(t.tabId, parent.sessionId, 'DOM.resolveNode', { backendNodeId });
    out.push({ sessionId: parent.sessionId, backendNodeId, objectId: object.objectId, crossProcess: parent.sessionId !== at.sessionId });
    frame = at.parentId;
    at = parent;
  }
  return out;
}

export function release(t) {
  for (const o of [t, ...(t.owners || [])]) {
    if (o.objectId) send(t.tabId, o.sessionId, 'Runtime.releaseObject', { objectId: o.objectId }).catch(() => {});
  }
}

/** Runs `fn` with `this` = the element (or an owner <iframe>), in its page. */
async function callOn(t, fn, args = [], on = t) {
  const r = await send(t.tabId, on.sessionId, 'Runtime.callFunctionOn', {
    objectId: on.objectId, functionDeclaration: fn.toString(), arguments: args, returnByValue: true, awaitPromise: true,
  });
  if (r.exceptionDetails) throw new AxError('page_error', `${t.ref}: ${r.exceptionDetails.text || 'script error'}`);
  return r.result.value;
}

/**
 * Lets the page run what it scheduled (hover menus, focus handlers) and
 * render once. A hidden tab gets no frames and runs its timers at most once
 * a second: there it only yields once, which keeps actions on background
 * tabs fast (what a page's timer does later is caught by the checks before
 * each press and each batch of keys).
 */
async function settle(t) {
  await callOn(t, function () {
    return new Promise((/** @type {(v?: any) => void} */ done) => {
      if (document.visibilityState === 'hidden') {
        const c = new MessageChannel();
        c.port1.onmessage = () => done();
        c.port2.postMessage(0);
      } else {
        requestAnimationFrame(() => setTimeout(done, 0));
        setTimeout(done, 100);
      }
    });
  });
}

/**
 * The element's box in its session's viewport, and the viewport: read after
 * scrolling, until two reads agree.
 */
async function settledBox(t) {
  let last;
  for (let i = 0; i < SETTLE_READS; i++) {
    const box = await boxOf(t);
    if (last && JSON.stringify(last) === JSON.stringify(box)) return box;
    last = box;
    await settle(t);
  }
  return last;
}

async function boxOf(t) {
  let model;
  try {
    model = (await send(t.tabId, t.sessionId, 'DOM.getBoxModel', { backendNodeId: t.backendNodeId })).model;
  } catch (e) {
    if (e.code === 'not_visible') throw new AxError('not_visible', `${t.ref} has no box on screen (hidden or display:none): it cannot be clicked`);
    throw e;
  }
  const { cssVisualViewport: vp } = await send(t.tabId, t.sessionId, 'Page.getLayoutMetrics');
  return { quad: model.border, width: model.width, height: model.height, vp: { x: vp.pageX, y: vp.pageY, w: vp.clientWidth, h: vp.clientHeight } };
}

/**
 * Scrolls the element into view (unless `scroll` is false) and picks the
 * point to act at: the centre of the part of its box inside the viewport, in
 * its session's viewport coordinates (CSS pixels; page zoom is already in them).
 */
async function aim(t, scroll = true) {
  if (scroll) await send(t.tabId, t.sessionId, 'DOM.scrollIntoViewIfNeeded', { backendNodeId: t.backendNodeId });
  const box = await settledBox(t);
  if (box.width === 0 || box.height === 0) throw new AxError('not_visible', `${t.ref} has an empty box (0×0): it cannot be clicked`);
  const p = visibleCentre(box.quad, box.vp);
  if (!p) throw new AxError('not_visible', `${t.ref} is outside the visible area${scroll ? ' even after scrolling' : ''}: it cannot be clicked`);
  return { ...p, vp: box.vp };
}

/**
 * Is the target what a press at (x, y) reaches? Hit-tests in the target's
 * session (DOM.getNodeForLocation takes document coordinates: the viewport
 * point plus the frame's scroll offset), then, for each <iframe> in another
 * process on the way up, that the same point in the parent reaches the
 * <iframe>.
 */
async function reaches(t, p) {
  const hit = await nodeAt(t, t.sessionId, p.x + p.vp.x, p.y + p.vp.y);
  if (!hit) return false;
  if (hit !== t.backendNodeId && !(await holdsHit(t, hit))) return false;
  let x = p.x;
  let y = p.y;
  for (const o of t.owners) {
    if (!o.crossProcess) continue;
    // The child's viewport starts at its <iframe>'s content box.
    const { model } = await send(t.tabId, o.sessionId, 'DOM.getBoxModel', { backendNodeId: o.backendNodeId });
    x += model.content[0];
    y += model.content[1];
    const { cssVisualViewport: vp } = await send(t.tabId, o.sessionId, 'Page.getLayoutMetrics');
    if ((await nodeAt(t, o.sessionId, x + vp.pageX, y + vp.pageY)) !== o.backendNodeId) return false;
  }
  return true;
}

async function nodeAt(t, sessionId, x, y) {
  try {
    const hit = await send(t.tabId, sessionId, 'DOM.getNodeForLocation', {
      x: Math.round(x), y: Math.round(y), includeUserAgentShadowDOM: true, ignorePointerEventsNone: false,
    });
    return hit.backendNodeId;
  } catch (e) {
    if (e.code === 'cdp_error') return undefined; // nothing at that point
    throw e;
  }
}

/** Does a press on `hit` act on the target: inside it (its shadow tree too), or its label? */
async function holdsHit(t, hit) {
  const { object } = await send(t.tabId, t.sessionId, 'DOM.resolveNode', { backendNodeId: hit });
  try {
    return await callOn(t, function (other) {
      for (let n = other; n; n = n.parentNode || n.host) if (n === this) return true;
      // A press anywhere in a label reaches its control (a web component's
      // native input is often hidden under the label's drawing of it).
      for (let n = other; n; n = n.parentNode || n.host) if (n.tagName === 'LABEL' && n.control === this) return true;
      for (let n = this; n; n = n.parentNode || n.host) if (n.tagName === 'LABEL' && n === other) return true;
      // Hit-testing may stop at a web component's host; the press goes on
      // into its shadow tree, to the target there.
      for (let n = this; n; n = n.parentNode || n.host) if (n.host === other) return true;
      return false;
    }, [{ objectId: object.objectId }]);
  } finally {
    send(t.tabId, t.sessionId, 'Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
  }
}

async function mouse(t, type, x, y, extra = {}) {
  await send(t.tabId, t.sessionId, 'Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1, ...extra });
}

/**
 * The last step of an action opened a dialog (a confirm() in a click
 * handler): the action happened, and the answer says what is now open.
 */
async function lastStep(fn) {
  try {
    await fn();
    return {};
  } catch (e) {
    if (e.code === 'dialog_open') return { dialog: e.details.dialog };
    throw e;
  }
}

/** Moves the pointer over the element and answers the point, once a press there would reach it. */
async function approach(t) {
  const p = await aim(t);
  await mouse(t, 'mouseMoved', p.x, p.y, { button: 'none', clickCount: 0 });
  // What the move made appear (a hover overlay) is there before the check.
  await settle(t);
  if (!(await reaches(t, p))) {
    throw new AxError('obscured', `${t.ref} is covered by another element at its centre; close what covers it, or scroll, and take a new snapshot`);
  }
  return p;
}

async function pressAt(t, p, what, extra = {}) {
  try {
    await mouse(t, 'mousePressed', p.x, p.y, extra);
  } catch (e) {
    if (e.code === 'dialog_open') throw new AxError('dialog_open', `${t.ref}: a dialog opened as the mouse button went down; the ${what} was not finished. ${e.message}`, e.details);
    throw e;
  }
}

async function click(t) {
  const p = await approach(t);
  await t.beforePress?.();
  const landed = await watchPress(t);
  await pressAt(t, p, 'click');
  const done = await lastStep(() => mouse(t, 'mouseReleased', p.x, p.y));
  // A dialog opened by the click holds the page: the click reached something that acted.
  if (!done.dialog && (await landed()) === false) {
    throw new AxError('missed', `${t.ref} moved or was covered while it was pressed (a layout shift as the focus left a field, a re-render): the press went to another element, which the page may have acted on; take a new snapshot and look before clicking again`);
  }
  return done;
}

const PRESS_WORLD = 'axsnap-press';

/**
 * Starts watching where the trusted press lands, from an isolated world the
 * page's scripts cannot reach; answers a reader that tells whether the click
 * reached the target: true, false (no trusted click reached it while it is
 * still in the page, and the trusted mousedown went elsewhere, or the
 * target moved from under the pointer before the mouseup), or undefined
 * (nothing seen, or the target is gone: a press that removed what it acted
 * on landed). The box was checked before the press, but a page can still
 * move the target between the button going down and coming up.
 * @param {Target} t @returns {Promise<() => Promise<boolean|undefined>>}
 */
async function watchPress(t) {
  const { executionContextId } = await send(t.tabId, t.sessionId, 'Page.createIsolatedWorld', { frameId: t.frame, worldName: PRESS_WORLD });
  const { object } = await send(t.tabId, t.sessionId, 'DOM.resolveNode', { backendNodeId: t.backendNodeId, executionContextId });
  const watching = { ...t, objectId: object.objectId };
  await callOn(t, function () {
    const target = this;
    // Inside the target, its label, or a shadow host above it (a closed shadow tree hides its inside from window).
    const reaches = (path) => path.some((n) => n === target
      || (n.tagName === 'LABEL' && (n.control === target || n.contains(target)))
      || isHostOf(n));
    const isHostOf = (host) => { for (let n = target; n; n = n.parentNode || n.host) if (n.host === host) return true; return false; };
    const box = () => { const r = target.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
    const seen = { missed: false, clicked: false, any: false, box: null };
    const on = (e) => {
      if (!e.isTrusted) return;
      seen.any = true;
      const hit = reaches(e.composedPath());
      if (e.type === 'click') seen.clicked ||= hit;
      else if (e.type === 'mousedown') {
        seen.missed ||= !hit;
        seen.box = box();
      } else if (!hit && seen.box) {
        // A release off a target the page covered on the press (a menu that opens on mousedown) is the page
        // acting on it; off a target that moved away under the pointer, the click is lost.
        const [x, y, w, h] = box();
        const moved = String([x, y, w, h]) !== String(seen.box);
        seen.missed ||= moved && !(e.clientX >= x && e.clientX < x + w && e.clientY >= y && e.clientY < y + h);
      }
    };
    const types = ['mousedown', 'mouseup', 'click'];
    const view = target.ownerDocument.defaultView;
    for (const type of types) view.addEventListener(type, on, true);
    this.axsnapPressLanded = () => {
      for (const type of types) view.removeEventListener(type, on, true);
      if (!seen.any || !target.isConnected) return undefined;
      return seen.clicked || !seen.missed;
    };
  }, [], watching);
  return async () => {
    try {
      // The click event follows the release in the same task; one turn of the page's loop lets it arrive.
      return await callOn(t, function () { return new Promise((ok) => setTimeout(() => ok(this.axsnapPressLanded()), 0)); }, [], watching);
    } catch {
      return undefined; // the frame navigated away: nothing to judge
    } finally {
      send(t.tabId, t.sessionId, 'Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
    }
  };
}

/** How long a page that started an HTML5 drag has to hand it to us. */
const INTERCEPT_MS = 2000;

/**
 * Drags the element onto `to`. Both are checked before the button goes
 * down: in place (else `stale_ref`), on screen together (`not_visible`)
 * and reachable at their centres (`obscured`). Then one gesture serves
 * both kinds of drag and drop: the button goes down on the source and the
 * pointer creeps away past the pages' thresholds. If the page starts an
 * HTML5 drag, Chrome hands it to us (Input.setInterceptDrags) and we carry
 * its data over the target with drag events and drop it there; else the
 * pointer goes on to the target and the button comes up there, which is
 * all a pointer-driven list sees of a person's drag.
 * @param {Target} t @param {Target} to
 */
async function drag(t, to) {
  if (!to) throw new AxError('bad_request', 'drag needs to: the ref to drop on');
  if (to.frame !== t.frame) throw new AxError('bad_request', `${t.ref} and ${to.ref} are in different frames: drag within one frame`);
  let html5 = null;
  let started = null;
  let dragData = null;
  let pressed = false;
  let at = null;
  try {
    await bind(to);
    // The target first, then the source: scrolling to the source must leave the target in view.
    await aim(to);
    const from = await approach(t);
    let dest;
    try {
      dest = await aim(to, false);
    } catch (e) {
      if (e.code === 'not_visible') throw new AxError('not_visible', `${to.ref} is not on screen while ${t.ref} is: scroll so both show, or drag in steps`);
      throw e;
    }
    if (!(await reaches(to, dest))) {
      throw new AxError('obscured', `${to.ref}, where it would be dropped, is covered by another element at its centre; close what covers it and take a new snapshot`);
    }
    const { creep, travel } = dragPath(from, dest);
    const moved = (p) => mouse(t, 'mouseMoved', p.x, p.y, { buttons: 1 });
    html5 = await interceptDrags(t);
    started = await watchDragStart(t);
    at = from;
    await t.beforePress?.();
    await pressAt(t, from, 'drag', { buttons: 1 });
    pressed = true;
    // Chrome starts an HTML5 drag within the creep (past 4 px), or not at all.
    let i = 0;
    while (i < creep.length && !dragData) {
      at = creep[i++];
      await moved(at);
      if (!html5.on || !(await started.began())) continue;
      dragData = await html5.data(INTERCEPT_MS);
      if (!dragData) {
        // Chrome holds the page's input for a drag it started until told how it ends.
        await cancelDrag(t, at, html5.sessions);
        throw new AxError('timeout', `${t.ref}: the page started an HTML5 drag, but Chrome did not hand it over within ${INTERCEPT_MS / 1000} s; it was cancelled. Try again`);
      }
    }
    const rest = [...creep.slice(i), ...travel];
    if (dragData) {
      // The drag has the button now: it ends with the drop (or a cancel), never with a release.
      pressed = false;
      const data = dragData;
      const via = html5.session;
      const { dx, dy } = via === t.sessionId ? { dx: 0, dy: 0 } : await offsetToTop(t);
      const event = (type, p) => send(t.tabId, via, 'Input.dispatchDragEvent', { type, x: p.x + dx, y: p.y + dy, data });
      await event('dragEnter', at);
      for (const p of rest) await event('dragOver', (at = p));
      await settle(t);
      await event('dragOver', dest);
      const done = await lastStep(() => event('drop', dest));
      dragData = null;
      return { to: to.ref, dragged: 'html5', ...done };
    }
    // A pointer-driven list may act on a move a frame later (its hit
    // tests, its state): the last move comes again after one, and the
    // release after another.
    for (const p of rest) await moved((at = p));
    await settle(t);
    await moved(dest);
    await settle(t);
    pressed = false;
    return { to: to.ref, dragged: 'mouse', ...(await lastStep(() => mouse(t, 'mouseReleased', dest.x, dest.y, { buttons: 0 }))) };
  } finally {
    // A drag stopped halfway is ended, not left hanging: Chrome holds the page's input for a drag in flight.
    if (dragData) {
      await cancelDrag(t, at, [html5.session]);
    } else if (pressed) {
      await mouse(t, 'mouseReleased', at.x, at.y, { buttons: 0 }).catch(() => {});
    }
    html5?.stop();
    started?.stop();
    release(to);
  }
}

/** Ends a drag Chrome started, with nothing dropped, in each session it may have come through. */
async function cancelDrag(t, at, sessions) {
  for (const s of sessions) {
    await send(t.tabId, s, 'Input.dispatchDragEvent', { type: 'dragCancel', x: at.x, y: at.y, data: { items: [], dragOperationsMask: 0xffff } }).catch(() => {});
  }
}

/**
 * Asks Chrome to hand over any HTML5 drag the page starts, instead of
 * running it; `data(ms)` waits that long for one. Chrome hands over a drag
 * started in a cross-site frame through the tab's own session, so both
 * sessions intercept; `session` is the one it came through, where its drag
 * events go. A tab that cannot intercept gets the pointer-driven drag alone.
 */
async function interceptDrags(t) {
  const sessions = [...new Set([t.sessionId, undefined])];
  let got = null;
  let session;
  let wake = () => {};
  const onEvent = (source, method, params) => {
    if (method !== 'Input.dragIntercepted' || source.tabId !== t.tabId || !sessions.includes(source.sessionId || undefined)) return;
    got = params.data;
    session = source.sessionId || undefined;
    wake();
  };
  const off = transport().onEvent(onEvent);
  const on = await Promise.all(sessions.map((s) => send(t.tabId, s, 'Input.setInterceptDrags', { enabled: true }).then(() => s, () => null)));
  const enabled = on.filter((s) => s !== null);
  return {
    on: enabled.length > 0,
    sessions: enabled,
    get session() { return session; },
    data: (ms) => new Promise((resolve) => {
      if (got) return resolve(got);
      const timer = setTimeout(() => resolve(got), ms);
      wake = () => { clearTimeout(timer); resolve(got); };
    }),
    stop: () => {
      off();
      for (const s of enabled) send(t.tabId, s, 'Input.setInterceptDrags', { enabled: false }).catch(() => {});
    },
  };
}

/**
 * How far the target's session's viewport lies from the tab's own: the
 * content boxes of the cross-site <iframe>s on the way up.
 */
async function offsetToTop(t) {
  let dx = 0;
  let dy = 0;
  for (const o of t.owners) {
    if (!o.crossProcess) continue;
    const { model } = await send(t.tabId, o.sessionId, 'DOM.getBoxModel', { backendNodeId: o.backendNodeId });
    dx += model.content[0];
    dy += model.content[1];
  }
  return { dx, dy };
}

/**
 * Watches the source's window for an HTML5 drag starting (a dragstart the
 * page did not cancel), through an object the page cannot see: only then
 * is a drag to be waited for, and every other press stays a pointer drag.
 */
async function watchDragStart(t) {
  const { result } = await send(t.tabId, t.sessionId, 'Runtime.callFunctionOn', {
    objectId: t.objectId,
    functionDeclaration: function () {
      const view = this.ownerDocument.defaultView;
      const seen = { event: null, stop: () => view.removeEventListener('dragstart', on, true) };
      const on = (e) => { seen.event = e; };
      view.addEventListener('dragstart', on, true);
      return seen;
    }.toString(),
  });
  const call = async (fn) => {
    const r = await send(t.tabId, t.sessionId, 'Runtime.callFunctionOn', { objectId: result.objectId, functionDeclaration: fn.toString(), returnByValue: true });
    return r.result.value;
  };
  return {
    // Read after the event was handled: a handler after ours may have cancelled it.
    began: () => call(function () { return Boolean(this.event && !this.event.defaultPrevented); }),
    stop: () => {
      call(function () { this.stop(); }).catch(() => {});
      send(t.tabId, t.sessionId, 'Runtime.releaseObject', { objectId: result.objectId }).catch(() => {});
    },
  };
}

/**
 * Does the target hold the focus? Deep: through shadow roots (open or
 * closed) and up through every <iframe> to the page.
 */
async function holdsFocus(t) {
  function focused(loose) {
    let root = this.getRootNode();
    const a = root.activeElement;
    if (!a) return false;
    // Loose, for the target: focus inside it, or in the editing host around it.
    if (a !== this && !(loose && (this.contains(a) || (a.isContentEditable && a.contains(this))))) return false;
    while (root.host) {
      const host = root.host;
      root = host.getRootNode();
      if (root.activeElement !== host) return false;
    }
    return root === this.ownerDocument;
  }
  if (!(await callOn(t, focused, [{ value: true }]))) return false;
  for (const o of t.owners) if (!(await callOn(t, focused, [{ value: false }], o))) return false;
  return true;
}

/** Sends nothing unless the target holds the focus. */
async function mustHoldFocus(t, done = '') {
  if (!(await holdsFocus(t))) {
    throw new AxError('focus_moved', `the page moved the focus away from ${t.ref}${done}; nothing more was typed. Take a new snapshot`);
  }
}

async function focus(t) {
  await send(t.tabId, t.sessionId, 'DOM.focus', { backendNodeId: t.backendNodeId });
  // A focus handler may move the focus on (now or in a task it queued).
  await settle(t);
}

async function fill(t, value) {
  const kind = await callOn(t, function () {
    if (this.tagName === 'SELECT') return 'select';
    if (this.isContentEditable) return 'editable';
    if (typeof this.select === 'function' && 'value' in this) return 'field';
    return 'other';
  });
  if (kind === 'select') return selectOption(t, value);
  if (kind === 'other') throw new AxError('not_fillable', `${t.ref} is not a text field: use click or select`);
  await focus(t);
  await mustHoldFocus(t);
  await callOn(t, function () {
    if (this.isContentEditable) {
      const r = document.createRange();
      r.selectNodeContents(this);
      const s = getSelection();
      s.removeAllRanges();
      s.addRange(r);
    } else {
      this.select();
    }
  });
  await mustHoldFocus(t);
  const typed = await lastStep(() => (value === '' ? key(t, 'Delete') : send(t.tabId, t.sessionId, 'Input.insertText', { text: value })));
  if (typed.dialog) return typed;
  // insertText fires input events; change fires when a user leaves the field.
  await callOn(t, function () { this.dispatchEvent(new Event('change', { bubbles: true })); });
  return {};
}

async function type(t, value) {
  const chars = [...value];
  if (t.backendNodeId !== undefined) await focus(t);
  await t.beforePress?.();
  for (let i = 0; i < chars.length; i++) {
    if (t.backendNodeId !== undefined) await mustHoldFocus(t, i ? ` after ${i} of ${chars.length} characters` : '');
    const ch = chars[i];
    const step = () => (KEYS[ch === '\n' ? 'Enter' : ch] ? key(t, ch === '\n' ? 'Enter' : ch) : char(t, ch));
    if (i < chars.length - 1) {
      await step().catch((e) => {
        if (e.code === 'dialog_open') e.message = `after ${i + 1} of ${chars.length} characters (the rest was not typed), ${e.message}`;
        throw e;
      });
    } else {
      return lastStep(step);
    }
  }
  return {};
}

async function char(t, ch) {
  await send(t.tabId, t.sessionId, 'Input.dispatchKeyEvent', { type: 'keyDown', text: ch, key: ch, unmodifiedText: ch });
  await send(t.tabId, t.sessionId, 'Input.dispatchKeyEvent', { type: 'keyUp', key: ch });
}

function knownKey(name) {
  if (!KEYS[name] && !(typeof name === 'string' && [...name].length === 1)) {
    throw new AxError('bad_request', `unknown key ${JSON.stringify(name)}: use one of ${Object.keys(KEYS).filter((x) => x !== ' ').join(', ')} or a single character`);
  }
}

async function key(t, name) {
  knownKey(name);
  const k = KEYS[name];
  if (!k) return char(t, name);
  const [code, keyCode, text] = k;
  const base = { key: name === 'Space' ? ' ' : name, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode };
  await send(t.tabId, t.sessionId, 'Input.dispatchKeyEvent', { type: text ? 'keyDown' : 'rawKeyDown', text: text || undefined, ...base });
  await send(t.tabId, t.sessionId, 'Input.dispatchKeyEvent', { type: 'keyUp', ...base });
}

async function press(t, name) {
  knownKey(name);
  if (t.backendNodeId !== undefined) {
    await focus(t);
    await mustHoldFocus(t);
  }
  await t.beforePress?.();
  return lastStep(() => key(t, name));
}

async function selectOption(t, value) {
  const r = await callOn(t, function (wanted) {
    if (this.tagName !== 'SELECT') return { error: 'not_a_select' };
    const opts = [...this.options];
    const i = opts.findIndex((o) => o.value === wanted) >= 0
      ? opts.findIndex((o) => o.value === wanted)
      : opts.findIndex((o) => o.label.trim() === String(wanted).trim());
    if (i < 0) return { error: 'no_such_option', options: opts.map((o) => o.label.trim()).slice(0, 20) };
    this.selectedIndex = i;
    this.dispatchEvent(new Event('input', { bubbles: true }));
    this.dispatchEvent(new Event('change', { bubbles: true }));
    return { selected: opts[i].label.trim() };
  }, [{ value }]);
  if (r.error === 'not_a_select') throw new AxError('not_a_select', `${t.ref} is not a <select>: click it and then click the option's ref`);
  if (r.error) throw new AxError('no_such_option', `${t.ref} has no option ${JSON.stringify(value)}; options: ${r.options.join(' | ')}`);
  return { selected: r.selected };
}

async function setChecked(t, want) {
  const state = await callOn(t, function () {
    if ('checked' in this && (this.type === 'checkbox' || this.type === 'radio')) return this.checked;
    const aria = this.getAttribute('aria-checked') ?? this.getAttribute('aria-pressed');
    return aria === null ? null : aria === 'true';
  });
  if (state === null) throw new AxError('not_checkable', `${t.ref} is not a checkbox, radio or switch`);
  const done = state === want ? {} : await click(t);
  return { checked: want, ...done };
}

/**
 * Pixels to scroll: "up", "down" (a screenful, roughly) or a number,
 * clamped to ±MAX_SCROLL (a wheel event of 1e100 pixels wedged a tab).
 * @returns {number}
 */
export function scrollAmount(value) {
  if (value === undefined || value === 'down') return SCROLL_STEP;
  if (value === 'up') return -SCROLL_STEP;
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new AxError('bad_request', 'scroll value is "up", "down" or a number of pixels');
  return Math.max(-MAX_SCROLL, Math.min(MAX_SCROLL, Math.round(value)));
}

async function scroll(t, value) {
  if (t.backendNodeId !== undefined && value === undefined) {
    await send(t.tabId, t.sessionId, 'DOM.scrollIntoViewIfNeeded', { backendNodeId: t.backendNodeId });
    return {};
  }
  const dy = scrollAmount(value);
  let x, y;
  if (t.backendNodeId !== undefined) {
    ({ x, y } = await aim(t));
  } else {
    const { cssVisualViewport: vp } = await send(t.tabId, undefined, 'Page.getLayoutMetrics');
    [x, y] = [Math.round(vp.clientWidth / 2), Math.round(vp.clientHeight / 2)];
  }
  await send(t.tabId, t.sessionId, 'Input.dispatchMouseEvent', { type: 'mouseWheel', x, y, deltaX: 0, deltaY: dy });
  return { deltaY: dy };
}

/**
 * Whether the element is still in its document and drawn (not removed, not
 * display:none or visibility:hidden): what `wait_for refGone` waits on.
 * @param {Target} t
 */
export async function present(t) {
  try {
    await bind(t);
    return await callOn(t, function () {
      return typeof this.checkVisibility !== 'function' || this.checkVisibility({ visibilityProperty: true });
    });
  } catch (e) {
    if (e.code === 'stale_ref') return false;
    throw e;
  } finally {
    release(t);
  }
}

/**
 * Runs one action (protocol/protocol.js's ACTIONS). The router has checked
 * the request against the protocol: the value's type and range.
 * @param {Target} t
 * @param {string} action
 * @param {any} value
 * @param {Record<string, any>} [request]  the whole request: an action's own fields (`dialog`'s `text`)
 * @param {Target} [to]  `drag`'s target, resolved from the request's `to` as the router resolves every ref
 */
export async function act(t, action, value, request = {}, to = undefined) {
  if (action === 'dialog') {
    if (value !== 'accept' && value !== 'dismiss') throw new AxError('bad_request', 'dialog value is "accept" or "dismiss"');
    return answerDialog(t.tabId, value === 'accept', request.text);
  }
  if (action === 'scroll') scrollAmount(value); // a bad value is refused before anything moves
  if (t.backendNodeId === undefined && ACTIONS[action]?.ref === 'required') throw new AxError('bad_request', `${action} needs a ref`);
  try {
    if (t.backendNodeId !== undefined) await bind(t);
    else t.owners = [];
    switch (action) {
      case 'click': return await click(t);
      case 'fill': return await fill(t, value);
      case 'type': return await type(t, value);
      case 'press': return await press(t, value);
      case 'select': return await selectOption(t, value);
      case 'check': return await setChecked(t, true);
      case 'uncheck': return await setChecked(t, false);
      case 'drag': return await drag(t, to);
      case 'hover': {
        const p = await aim(t);
        await mouse(t, 'mouseMoved', p.x, p.y, { button: 'none', clickCount: 0 });
        return {};
      }
      case 'focus':
        await focus(t);
        await mustHoldFocus(t);
        return {};
      case 'scroll': return await scroll(t, value);
      default:
        throw new AxError('bad_request', `unknown action ${JSON.stringify(action)}: use one of ${Object.keys(ACTIONS).join(', ')}`);
    }
  } finally {
    release(t);
  }
}
