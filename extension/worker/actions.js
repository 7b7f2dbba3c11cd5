// Acting on an element by ref: the ref is resolved by the core to a frame
// and a backendDOMNodeId, and every action checks that it lands on that
// element. A value typed into a field is never logged or echoed.

import { send } from './cdp.js';
import { AxError } from './errors.js';
import { ACTIONS } from '../../protocol/protocol.js';

/** Keys `press` knows: key → [code, keyCode, text] */
const KEYS = {
  Enter: ['Enter', 13, '\r'], Tab: ['Tab', 9, ''], Escape: ['Escape', 27, ''], Backspace: ['Backspace', 8, ''],
  Delete: ['Delete', 46, ''], ArrowUp: ['ArrowUp', 38, ''], ArrowDown: ['ArrowDown', 40, ''],
  ArrowLeft: ['ArrowLeft', 37, ''], ArrowRight: ['ArrowRight', 39, ''], Home: ['Home', 36, ''], End: ['End', 35, ''],
  PageUp: ['PageUp', 33, ''], PageDown: ['PageDown', 34, ''], Space: ['Space', 32, ' '], ' ': ['Space', 32, ' '],
};


/**
 * @typedef {{tabId:number, sessionId?:string, backendNodeId?:number, ref?:string}} Target
 */

async function callOn(t, fn, args = []) {
  const { object } = await send(t.tabId, t.sessionId, 'DOM.resolveNode', { backendNodeId: t.backendNodeId });
  try {
    const r = await send(t.tabId, t.sessionId, 'Runtime.callFunctionOn', {
      objectId: object.objectId, functionDeclaration: fn.toString(), arguments: args, returnByValue: true, awaitPromise: true,
    });
    if (r.exceptionDetails) throw new AxError('page_error', `${t.ref}: ${r.exceptionDetails.text || 'script error'}`);
    return r.result.value;
  } finally {
    send(t.tabId, t.sessionId, 'Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
  }
}

/** Scrolls the element into view and returns its centre, in its frame's coordinates. */
async function centre(t) {
  await send(t.tabId, t.sessionId, 'DOM.scrollIntoViewIfNeeded', { backendNodeId: t.backendNodeId });
  let model;
  try {
    model = (await send(t.tabId, t.sessionId, 'DOM.getBoxModel', { backendNodeId: t.backendNodeId })).model;
  } catch (e) {
    if (e.code === 'not_visible') throw new AxError('not_visible', `${t.ref} has no box on screen (hidden or display:none): it cannot be clicked`);
    throw e;
  }
  const q = model.content.length ? model.content : model.border;
  const x = (q[0] + q[2] + q[4] + q[6]) / 4;
  const y = (q[1] + q[3] + q[5] + q[7]) / 4;
  if (model.width === 0 || model.height === 0) {
    throw new AxError('not_visible', `${t.ref} has an empty box (0×0): it cannot be clicked`);
  }
  return { x, y };
}

/** Refuses to click when another element covers the target's centre. */
async function checkHit(t, x, y) {
  let hit;
  try {
    hit = await send(t.tabId, t.sessionId, 'DOM.getNodeForLocation', { x: Math.round(x), y: Math.round(y), includeUserAgentShadowDOM: true, ignorePointerEventsNone: false });
  } catch {
    return; // Nothing reported at that point: let the click decide.
  }
  if (hit.backendNodeId === t.backendNodeId) return;
  const { object } = await send(t.tabId, t.sessionId, 'DOM.resolveNode', { backendNodeId: hit.backendNodeId });
  const inside = await callOn(t, function (other) {
    // Composed contains: the hit may sit in the target's shadow tree, or be its label.
    for (let n = other; n; n = n.parentNode || n.host) if (n === this) return true;
    if (other && other.control === this) return true;
    for (let n = this; n; n = n.parentNode || n.host) if (n.tagName === 'LABEL' && n === other) return true;
    return false;
  }, [{ objectId: object.objectId }]);
  send(t.tabId, t.sessionId, 'Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
  if (!inside) {
    throw new AxError('obscured', `${t.ref} is covered by another element at its centre; close what covers it, or scroll, and take a new snapshot`);
  }
}

async function mouse(t, type, x, y, extra = {}) {
  await send(t.tabId, t.sessionId, 'Input.dispatchMouseEvent', { type, x, y, button: 'left', clickCount: 1, ...extra });
}

async function click(t) {
  const { x, y } = await centre(t);
  await checkHit(t, x, y);
  await mouse(t, 'mouseMoved', x, y, { button: 'none', clickCount: 0 });
  await mouse(t, 'mousePressed', x, y);
  await mouse(t, 'mouseReleased', x, y);
}

async function focus(t) {
  await send(t.tabId, t.sessionId, 'DOM.focus', { backendNodeId: t.backendNodeId });
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
  if (value === '') {
    await key(t, 'Delete');
  } else {
    await send(t.tabId, t.sessionId, 'Input.insertText', { text: value });
  }
  // insertText fires input events; change fires when a user leaves the field.
  await callOn(t, function () { this.dispatchEvent(new Event('change', { bubbles: true })); });
}

async function type(t, value) {
  if (t.backendNodeId !== undefined) await focus(t);
  for (const ch of value) {
    const k = KEYS[ch === '\n' ? 'Enter' : ch];
    if (k) {
      await key(t, ch === '\n' ? 'Enter' : ch);
    } else {
      await send(t.tabId, t.sessionId, 'Input.dispatchKeyEvent', { type: 'keyDown', text: ch, key: ch, unmodifiedText: ch });
      await send(t.tabId, t.sessionId, 'Input.dispatchKeyEvent', { type: 'keyUp', key: ch });
    }
  }
}

async function key(t, name) {
  const k = KEYS[name];
  if (!k) {
    if (typeof name === 'string' && [...name].length === 1) return type({ ...t, backendNodeId: undefined }, name);
    throw new AxError('bad_request', `unknown key ${JSON.stringify(name)}: use one of ${Object.keys(KEYS).filter((x) => x !== ' ').join(', ')} or a single character`);
  }
  const [code, keyCode, text] = k;
  const base = { key: name === 'Space' ? ' ' : name, code, windowsVirtualKeyCode: keyCode, nativeVirtualKeyCode: keyCode };
  await send(t.tabId, t.sessionId, 'Input.dispatchKeyEvent', { type: text ? 'keyDown' : 'rawKeyDown', text: text || undefined, ...base });
  await send(t.tabId, t.sessionId, 'Input.dispatchKeyEvent', { type: 'keyUp', ...base });
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
  if (state !== want) await click(t);
  return { checked: want };
}

async function scroll(t, value) {
  if (t.backendNodeId !== undefined && (value === undefined || value === '')) {
    await send(t.tabId, t.sessionId, 'DOM.scrollIntoViewIfNeeded', { backendNodeId: t.backendNodeId });
    return {};
  }
  const amounts = { down: 600, up: -600 };
  const dy = typeof value === 'number' ? value : amounts[value || 'down'];
  if (typeof dy !== 'number' || !Number.isFinite(dy)) throw new AxError('bad_request', 'scroll value is "up", "down" or a number of pixels');
  let x = 200, y = 200;
  if (t.backendNodeId !== undefined) ({ x, y } = await centre(t));
  await send(t.tabId, t.sessionId, 'Input.dispatchMouseEvent', { type: 'mouseWheel', x, y, deltaX: 0, deltaY: dy });
  return {};
}

/**
 * Runs one action (protocol/protocol.js's ACTIONS). The router has checked
 * the request against the protocol: the value's type and range.
 * @param {Target} t
 * @param {string} action
 * @param {any} value
 * @param {Record<string, any>} [request]  the whole request: an action's own fields (none yet)
 */
export async function act(t, action, value, request = {}) {
  switch (action) {
    case 'click': await click(t); return {};
    case 'fill': return (await fill(t, value)) || {};
    case 'type': await type(t, value); return {};
    case 'press':
      if (t.backendNodeId !== undefined) await focus(t);
      await key(t, value);
      return {};
    case 'select': return selectOption(t, value);
    case 'check': return setChecked(t, true);
    case 'uncheck': return setChecked(t, false);
    case 'hover': {
      const { x, y } = await centre(t);
      await mouse(t, 'mouseMoved', x, y, { button: 'none', clickCount: 0 });
      return {};
    }
    case 'focus': await focus(t); return {};
    case 'scroll': return scroll(t, value);
    default:
      throw new AxError('bad_request', `unknown action ${JSON.stringify(action)}: use one of ${Object.keys(ACTIONS).join(', ')}`);
  }
}
