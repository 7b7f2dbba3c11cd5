// Facts about forms and links, read from the DOM for given elements: what
// activating each one submits (its form's action URL, method and target,
// with a button's formaction/formmethod/formtarget), what Enter in it
// submits (implicit submission), which link it follows, and whether its
// form holds a password, one-time-code or card field. Nothing here judges:
// judge.js decides from these facts.
//
// Read in an isolated world (the page's scripts cannot redefine the
// getters it uses), through the prototypes' own getters (a field named
// "action" does not hide a form's action), in one script call per frame
// session.

import { send } from './cdp.js';
import { SECRET_AUTOCOMPLETE } from './form_facts.js';

const WORLD = 'axsnap-forms';

/**
 * Runs in the page, in an isolated world: the facts of each element (null
 * for one that is gone).
 * @param {string[]} secretTokens  form_facts.js SECRET_AUTOCOMPLETE
 * @param {...Element} els
 */
function readFormFacts(secretTokens, ...els) {
  const getter = (proto, name) => Object.getOwnPropertyDescriptor(proto, name).get;
  const F = HTMLFormElement.prototype;
  const B = HTMLButtonElement.prototype;
  const I = HTMLInputElement.prototype;
  const A = HTMLAnchorElement.prototype;
  const AR = HTMLAreaElement.prototype;
  const E = Element.prototype;
  const call = (proto, name, el) => getter(proto, name).call(el);
  // By tag, not instanceof: a node of another frame of the session has that frame's prototypes.
  const is = (el, tag) => el.nodeType === 1 && el.namespaceURI === 'http://www.w3.org/1999/xhtml' && el.localName === tag;
  const attr = (el, name) => E.getAttribute.call(el, name);
  const hasAttr = (el, name) => E.hasAttribute.call(el, name);
  const up = (n) => n.parentElement || (n.getRootNode && n.getRootNode().host) || null;
  const baseTarget = (el) => {
    const base = el.ownerDocument && Document.prototype.querySelector.call(el.ownerDocument, 'base[target]');
    return base ? attr(base, 'target') || '' : '';
  };
  const SUBMIT_INPUTS = new Set(['submit', 'image']);
  const BLOCKING = new Set(['text', 'search', 'url', 'tel', 'email', 'password', 'date', 'month', 'week', 'time', 'datetime-local', 'number']);
  const isSubmitter = (el) => (is(el, 'button') && call(B, 'type', el) === 'submit')
    || (is(el, 'input') && SUBMIT_INPUTS.has(call(I, 'type', el)));
  const formOf = (el) => {
    const controls = { button: B, input: I, select: HTMLSelectElement.prototype, textarea: HTMLTextAreaElement.prototype,
      fieldset: HTMLFieldSetElement.prototype, output: HTMLOutputElement.prototype, object: HTMLObjectElement.prototype };
    for (const [tag, P] of Object.entries(controls)) if (is(el, tag)) return getter(P, 'form').call(el);
    for (let n = el; n; n = up(n)) if (is(n, 'form')) return n;
    return null;
  };
  const formSubmission = (form) => ({
    url: call(F, 'action', form),
    method: call(F, 'method', form),
    target: call(F, 'target', form) || baseTarget(form),
  });
  /** What submitting `form` through `button` (or without one) sends. */
  const submission = (form, button) => {
    const s = formSubmission(form);
    if (!button) return s;
    const P = is(button, 'button') ? B : I;
    return {
      url: hasAttr(button, 'formaction') ? call(P, 'formAction', button) : s.url,
      method: hasAttr(button, 'formmethod') ? call(P, 'formMethod', button) || s.method : s.method,
      target: hasAttr(button, 'formtarget') ? call(P, 'formTarget', button) : s.target,
    };
  };
  const secretAutocomplete = (v) => String(v || '').toLowerCase().split(/\s+/).some((t) => secretTokens.includes(t));
  const holdsSecret = (form) => [...call(F, 'elements', form)].some((c) => (is(c, 'input') && call(I, 'type', c) === 'password')
    || secretAutocomplete(attr(c, 'autocomplete')));
  const disabled = (el) => E.matches.call(el, ':disabled');
  const linkOf = (el) => {
    const P = is(el, 'a') ? A : AR;
    return { url: call(P, 'href', el), target: call(P, 'target', el) || baseTarget(el) };
  };
  /** What activating `el` (a click, Enter or Space on a button) does: the nearest control or link around it. */
  const activate = (el, depth = 0) => {
    for (let n = el; n; n = up(n)) {
      if (isSubmitter(n)) {
        const form = formOf(n);
        return form && !disabled(n) ? { submit: submission(form, n) } : {};
      }
      if ((is(n, 'a') || is(n, 'area')) && hasAttr(n, 'href')) return { link: linkOf(n) };
      if (is(n, 'label')) {
        const control = getter(HTMLLabelElement.prototype, 'control').call(n);
        return control && control !== el && depth === 0 ? activate(control, 1) : {};
      }
      if (is(n, 'button') || is(n, 'input') || is(n, 'select') || is(n, 'textarea')) return {};
    }
    return {};
  };
  /** What Enter in a field submits: the form's default button's submission, or the form itself with one field. */
  const implicit = (el, form) => {
    if (!is(el, 'input') || !form) return undefined;
    const controls = [...call(F, 'elements', form)];
    const button = controls.find(isSubmitter);
    if (button) return disabled(button) ? undefined : submission(form, button);
    const blocking = controls.filter((c) => is(c, 'input') && BLOCKING.has(call(I, 'type', c))).length;
    return blocking <= 1 ? submission(form, null) : undefined;
  };
  return els.map((el) => {
    if (!el || el.nodeType !== 1) return null;
    const form = formOf(el);
    const facts = activate(el);
    if (form) facts.form = { ...formSubmission(form), secret: holdsSecret(form) };
    const enter = isSubmitter(el) ? facts.submit : implicit(el, form);
    if (enter) facts.enter = enter;
    return facts;
  });
}

let calls = 0;

/**
 * The form and link facts (judge.js's FormFacts) of elements of one frame
 * session (undefined: the tab's own), by backendNodeId. An element gone, or
 * a session that cannot be read, has none in the map.
 * @param {number} tabId
 * @param {string|undefined} sessionId
 * @param {number[]} backendNodeIds
 * @returns {Promise<Map<number, import('./judge.js').FormFacts>>}
 */
export async function formFacts(tabId, sessionId, backendNodeIds) {
  const out = new Map();
  const ids = [...new Set(backendNodeIds)];
  if (!ids.length) return out;
  const objectGroup = `axsnap-forms-${++calls}`;
  try {
    const { frameTree } = await send(tabId, sessionId, 'Page.getFrameTree');
    // One world in the session's top frame serves the nodes of all its frames: the getters read each node's own document.
    const { executionContextId } = await send(tabId, sessionId, 'Page.createIsolatedWorld', { frameId: frameTree.frame.id, worldName: WORLD });
    const objects = await Promise.all(ids.map((backendNodeId) => send(tabId, sessionId, 'DOM.resolveNode', { backendNodeId, executionContextId, objectGroup })
      .then((r) => r.object.objectId, () => null)));
    const live = ids.map((id, i) => ({ id, objectId: objects[i] })).filter((x) => x.objectId);
    if (!live.length) return out;
    const r = await send(tabId, sessionId, 'Runtime.callFunctionOn', {
      objectId: live[0].objectId, functionDeclaration: readFormFacts.toString(), returnByValue: true,
      arguments: [{ value: SECRET_AUTOCOMPLETE }, ...live.map((x) => ({ objectId: x.objectId }))],
    });
    if (r.exceptionDetails || !Array.isArray(r.result.value)) return out;
    live.forEach((x, k) => { if (r.result.value[k]) out.set(x.id, r.result.value[k]); });
    return out;
  } finally {
    send(tabId, sessionId, 'Runtime.releaseObjectGroup', { objectGroup }).catch(() => {});
  }
}
