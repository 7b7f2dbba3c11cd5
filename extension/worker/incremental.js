// Incremental fetching of a tab's accessibility tree. Reading the whole tree
// (Accessibility.getFullAXTree) is most of a snapshot's time on a large page;
// after a small change, only the changed subtrees are read again and spliced
// into the tree kept from the previous snapshot (TabSession.axTree).
//
// What changed is recorded by a watcher in an isolated world of the frame
// (the page's scripts cannot see or disturb it), armed before each full read
// and running until the next snapshot: a MutationObserver over the document,
// plus, at each look, what no mutation shows (form fields' values and
// checked states, the focused element). It answers with the topmost changed
// elements, widened to what their change can rename elsewhere: labels'
// fields and the elements whose aria-labelledby/-describedby point into
// them. Each is read again (its node with getPartialAXTree, its subtree level
// by level with getChildAXNodes), and its ancestors (whose names may come from its words) one by
// one with getPartialAXTree. Node ids agree between those calls and the kept
// tree because the Accessibility domain stays on for the document.
//
// Any doubt reads the whole tree again: no kept tree (first look, a new
// document, a worker restart), the watcher gone or re-armed by someone else,
// changes it cannot see (shadow roots, iframes, <style> or <head> changes,
// a modal <dialog>, relation attributes, CSS rules that change what is shown
// on :hover/:focus/:checked…, content-visibility, media, a resized window or
// focus leaving the page), too many changed places or too large a part of the
// page, a node the splice cannot place, any CDP error; and every FULL_EVERY-th
// look anyway. Only a frame that is the tab's only frame is read this way.

import { send } from './cdp.js';

const WORLD = 'axsnap-incr';
/** Changed places read one by one at most; more costs about what the whole tree does. */
export const MAX_ROOTS = 200;
/** Nodes read one call per parent at most: beyond it, the whole tree costs less. */
const MAX_NODES_READ = 6000;
/** Parents tried, one by one, for a changed element Chrome keeps no node for. */
const LIFT_MAX = 8;
/** Calls in flight at once. */
const PARALLEL = 32;
/** A full read at least every this many looks, whatever the watcher says. */
export const FULL_EVERY = 20;

/**
 * The watcher, run in the isolated world: `arm(token)` starts afresh,
 * `look(token, maxRoots)` answers what changed since the last look (or arm)
 * and starts the next period. Doubts are reasons, strings.
 */
function watcher() {
  const RELATIONS = new Set(['id', 'for', 'aria-labelledby', 'aria-describedby', 'aria-owns', 'aria-activedescendant', 'aria-modal',
    'aria-controls', 'aria-details', 'aria-errormessage', 'aria-flowto', 'slot', 'popover']);
  // Elements whose inside (or effect) no MutationObserver of this document reports.
  const UNSEEN_SELECTOR = 'iframe,frame,object,embed,portal,fencedframe,video,audio,[aria-owns],[style*="content-visibility"]';
  // Elements that restyle the page when they come or go.
  const RESTYLE = 'style,link';
  // CSS that may change what a state (hover, focus, checked…) shows is a change no mutation reports.
  // A rule that matches by state, by position among siblings or through a sibling (+, ~) or a child
  // (:has) changes elements no mutation touched.
  const STATES = /:(hover|focus|focus-within|focus-visible|active|checked|indeterminate|target|has|placeholder-shown|valid|invalid|user-valid|user-invalid|in-range|out-of-range|default|open|closed|popover-open|modal|autofill|playing|paused|empty|enabled|disabled|read-only|read-write|required|optional|visited|link|any-link|fullscreen|picture-in-picture|nth-child|nth-last-child|first-child|last-child|only-child|nth-of-type|nth-last-of-type|first-of-type|last-of-type|only-of-type)\b|[+~]/;
  const HARMLESS = /^(color|background(-.*)?|border(-.*)?|outline(-.*)?|box-shadow|text-decoration(-.*)?|text-shadow|opacity|transform|transition(-.*)?|filter|fill|stroke|caret-color|accent-color|scale|rotate|translate|will-change)$/;
  const hidden = (e) => e.shadowRoot || e.tagName.includes('-');
  const unseenElement = (e) => e.nodeType === 1 && (e.matches(`${UNSEEN_SELECTOR},${RESTYLE}`) || hidden(e)
    || e.querySelector(`${UNSEEN_SELECTOR},${RESTYLE}`) || [...e.getElementsByTagName('*')].some(hidden));
  /** The first thing `check` says of a rule of the page's style sheets (nested ones too), or null. */
  const scanRules = (check) => {
    const rules = (list) => {
      for (const r of list) {
        const d = check(r);
        if (d) return d;
        // @media, @supports, @layer and nested rules.
        if (!(r instanceof CSSKeyframesRule) && r.cssRules && r.cssRules.length) { const n = rules(r.cssRules); if (n) return n; }
      }
      return null;
    };
    try {
      for (const s of [...document.styleSheets, ...(document.adoptedStyleSheets || [])]) {
        let list;
        try { list = s.cssRules; } catch { return 'a style sheet it cannot read'; }
        const d = rules(list);
        if (d) return d;
      }
    } catch (e) { return `style sheets: ${e.message}`; }
    return null;
  };
  const cssDoubt = () => scanRules((r) => {
    if (r instanceof CSSKeyframesRule) {
      // What a keyframe shows mid-animation changes with no mutation nor event.
      for (const k of /** @type {Iterable<CSSKeyframeRule>} */ (r.cssRules)) for (let i = 0; i < k.style.length; i++) if (!HARMLESS.test(k.style[i])) return `a CSS animation of ${k.style[i]}`;
    } else if (r instanceof CSSStyleRule) {
      if (/content-visibility/.test(r.style.cssText)) return 'content-visibility';
      if (/counter\(/.test(r.style.content)) return 'CSS counters';
      if (STATES.test(r.selectorText)) {
        for (let i = 0; i < r.style.length; i++) if (!HARMLESS.test(r.style[i])) return `a CSS rule for ${r.selectorText} sets ${r.style[i]}`;
      }
    }
    return null;
  });
  // What a state (hover, focus within…) may change that leaves the tree as it was but moves or resizes
  // boxes: the boxes kept from the last look cannot be trusted on such a page.
  const MOVES = /^(border-.*-(width|style)|transform|scale|rotate|translate)$/;
  const stateMoves = () => scanRules((r) => {
    if (!(r instanceof CSSStyleRule) || !STATES.test(r.selectorText)) return null;
    for (let i = 0; i < r.style.length; i++) if (MOVES.test(r.style[i])) return `a CSS rule for ${r.selectorText} sets ${r.style[i]}`;
    return null;
  });
  /** What a form field shows that no mutation reports. */
  const stateOf = (e) => (e.tagName === 'SELECT' ? [...e.options].map((o) => (o.selected ? 1 : 0)).join('') + e.value
    : e.tagName === 'OPTION' ? String(e.selected) : `${e.value}|${e.checked}|${e.indeterminate}`);
  const fields = () => document.querySelectorAll('input,textarea,select,option');
  // What changes the tree with no mutation: the window, the page's focus, the URL (the root's), style sheets' rules (CSSOM).
  const box = () => `${innerWidth}x${innerHeight} ${document.hasFocus()} ${document.visibilityState} ${location.href} `
    + [...document.styleSheets, ...(document.adoptedStyleSheets || [])].map((x) => { try { return x.cssRules.length; } catch { return -1; } }).join(',');

  const MAX_RECORDED = 5000;
  const ANIMATION_EVENTS = ['transitionstart', 'transitionend', 'transitioncancel', 'animationstart', 'animationend', 'animationcancel', 'animationiteration'];
  const w = globalThis.axsnapIncr;
  if (w && w.stop) w.stop();
  const s = {
    token: null, doubt: null, dirty: new Set(), kids: new Set(), gone: new Set(), states: new WeakMap(), focus: null, box: '', observer: null,
    scrolled: false, fonts: false, moves: null, at: '',
  };
  // Once in doubt the next look reads the whole tree: nothing more to record (nor to hold on to).
  const doubt = (why) => {
    if (!why || s.doubt) return;
    s.doubt = why;
    s.observer?.disconnect();
    s.dirty = new Set();
    s.kids = new Set();
    s.gone = new Set();
  };
  const onRecords = (records) => {
    for (const r of records) {
      const t = r.target;
      if (s.doubt) return;
      if (t.getRootNode() !== document) { doubt('a change in a shadow root'); return; }
      const el = t.nodeType === 1 ? t : t.parentElement;
      if (!el || el === document.documentElement || (document.head && (el === document.head || document.head.contains(el)))) { doubt('the document head or root changed'); return; }
      if (r.type === 'attributes') {
        if (RELATIONS.has(r.attributeName)) { doubt(`a ${r.attributeName} attribute changed`); return; }
        if (el.tagName === 'DIALOG' && r.attributeName === 'open') { doubt('a dialog opened or closed'); return; }
      }
      if (r.type === 'childList') {
        for (const n of r.addedNodes) if (unseenElement(n)) { doubt('an element whose inside it cannot watch was added'); return; }
        // Elements added to or removed from a list that numbers nothing: the list's own node and each new
        // subtree are enough (a new node the splice cannot place makes it read the whole tree), when the
        // list's children are blocks (look checks): text beside inline elements reflows. Else the subtree.
        if ([...r.addedNodes].every((n) => n.nodeType === 1) && el.tagName !== 'OL') {
          s.kids.add(el);
          for (const n of r.addedNodes) s.dirty.add(n);
          continue;
        }
        for (const n of r.removedNodes) {
          if (n.nodeType !== 1) continue;
          if (n.matches(RESTYLE) || n.querySelector(RESTYLE)) { doubt('a style sheet was removed'); return; }
          if (n.id) s.gone.add(n.id);
          for (const e of n.querySelectorAll('[id]')) s.gone.add(e.id);
          for (const l of [n, ...n.querySelectorAll('label[for]')]) if (l.tagName === 'LABEL' && l.htmlFor) s.gone.add(`for:${l.htmlFor}`);
        }
      }
      s.dirty.add(el);
    }
    // A page that keeps changing with no look between: record no more than a look would read.
    if (s.dirty.size + s.kids.size > MAX_RECORDED || s.gone.size > MAX_RECORDED) doubt('too many changes');
  };
  const loading = () => [...document.images].some((i) => !i.complete);
  const remember = () => {
    for (const e of fields()) s.states.set(e, stateOf(e));
    s.loading = loading();
    s.focus = document.activeElement;
    s.box = box();
    s.at = `${scrollX},${scrollY}`;
  };
  const arm = (token) => {
    s.token = token;
    if (document.querySelector(UNSEEN_SELECTOR) || [...document.getElementsByTagName('*')].some(hidden)) {
      doubt('the page has iframes, shadow roots, media or owned elements');
    }
    doubt(cssDoubt());
    s.moves = stateMoves();
    s.observer = new MutationObserver(onRecords);
    // A transition or animation that starts or ends changes what its element shows, with no mutation.
    s.onAnimation = (e) => { if (!s.doubt && e.target.nodeType === 1) s.dirty.add(e.target); };
    for (const t of ANIMATION_EVENTS) document.addEventListener(t, s.onAnimation, true);
    // An element scrolled moves its content with no mutation: the click facts' scroll sizes are read again.
    s.onScroll = (e) => { if (e.target !== document) s.scrolled = true; };
    document.addEventListener('scroll', s.onScroll, true);
    // A web font that arrives moves the text it sets, with no mutation: the boxes are read again.
    s.onFonts = () => { s.fonts = true; };
    document.fonts.addEventListener('loadingdone', s.onFonts);
    s.observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
    remember();
    return { doubt: s.doubt };
  };
  /** @param {string} token  @param {number} maxRoots */
  const look = (token, maxRoots) => {
    onRecords(s.observer.takeRecords());
    if (s.token !== token) return { doubt: 'the watcher was re-armed' };
    if (s.doubt) return { doubt: s.doubt };
    if (box() !== s.box) return { doubt: 'the window, its focus, the URL or the style sheets changed' };
    if (s.loading || loading()) return { doubt: 'images were loading' };
    if ([...document.getElementsByTagName('*')].some(hidden)) return { doubt: 'a shadow root' };
    if (document.getAnimations().some((a) => a.playState === 'running' && !(a instanceof CSSTransition) && !(a instanceof CSSAnimation))) {
      return { doubt: 'a script animation is running' };
    }
    const dirty = new Set([...s.dirty].filter((e) => e.isConnected));
    for (const e of fields()) if (s.states.get(e) !== stateOf(e)) dirty.add(e.tagName === 'OPTION' ? (e.closest('select,datalist') || e) : e);
    const focus = document.activeElement;
    if (focus !== s.focus) for (const e of [s.focus, focus]) if (e && e.isConnected && e !== document.body) dirty.add(e);
    // What a change renames elsewhere: a label's field, and whatever points into the change by id.
    const ids = new Set(s.gone);
    for (const e of dirty) {
      for (let a = e; a; a = a.parentElement) {
        if (a.id) ids.add(a.id);
        if (a.tagName === 'LABEL' && a.control) dirty.add(a.control);
      }
      for (const d of e.querySelectorAll('[id],label')) {
        if (d.id) ids.add(d.id);
        if (d.tagName === 'LABEL' && d.control) dirty.add(d.control);
      }
    }
    if (ids.size) {
      for (const r of document.querySelectorAll('[aria-labelledby],[aria-describedby],[aria-activedescendant],[aria-controls],[aria-details],[aria-errormessage],[aria-flowto]')) {
        const refs = ['aria-labelledby', 'aria-describedby', 'aria-activedescendant', 'aria-controls', 'aria-details', 'aria-errormessage', 'aria-flowto']
          .flatMap((a) => (r.getAttribute(a) || '').split(/\s+/));
        if (refs.some((id) => id && ids.has(id))) dirty.add(r);
      }
      for (const id of ids) if (id.startsWith('for:')) { const f = document.getElementById(id.slice(4)); if (f) dirty.add(f); }
      for (const l of /** @type {NodeListOf<HTMLLabelElement>} */ (document.querySelectorAll('label[for]'))) if (ids.has(l.htmlFor) && l.control) dirty.add(l.control);
    }
    // A place with no box (display: none) may have no node of its own: its parent's subtree holds the change.
    const lift = (e) => {
      while (e && e !== document.body && e.parentElement && !e.getClientRects().length && getComputedStyle(e).display !== 'contents') e = e.parentElement;
      return e;
    };
    // Text beside inline children changes its spaces when they come or go: the whole subtree is read.
    const blocks = (e) => [...e.childNodes].every((c) => (c.nodeType === 3 ? !c.data.trim()
      : c.nodeType !== 1 || !/^(inline|contents|ruby)/.test(getComputedStyle(c).display)));
    for (const e of s.kids) if (!blocks(e)) { s.kids.delete(e); dirty.add(e); }
    // An inline element's change moves what shares its lines, not what lies around its block: the block is
    // read in its place (its elements' boxes measured), so the boxes of the rest can be kept (clickables.js updateBoxes).
    const widen = (e) => {
      while (e && e !== document.body && e.parentElement && e.parentElement !== document.body && /^inline/.test(getComputedStyle(e).display)) e = e.parentElement;
      return e;
    };
    const places = new Set([...dirty].map(lift).map(widen).filter(Boolean));
    if (places.has(document.body) || places.has(document.documentElement)) return { doubt: 'the whole body changed' };
    const inside = (e) => { for (let a = e.parentElement; a; a = a.parentElement) if (places.has(a)) return true; return false; };
    const roots = [...places].filter((e) => !inside(e));
    // Elements whose own node (its children's list) is read again, not its subtree.
    const kids = [...s.kids].filter((e) => e.isConnected && !places.has(e) && !inside(e) && e !== document.body);
    const wholeBody = s.kids.has(document.body) && !places.has(document.body);
    s.dirty = new Set();
    s.kids = new Set();
    s.gone = new Set();
    const moved = boxesDoubt();
    s.fonts = false;
    remember();
    if (wholeBody) kids.push(document.body);
    if (roots.length + kids.length > maxRoots) return { doubt: `${roots.length + kids.length} places changed` };
    const size = roots.reduce((n, e) => n + 1 + e.getElementsByTagName('*').length, 0) + kids.length;
    const all = document.getElementsByTagName('*').length;
    if (size > Math.max(2000, all / 4)) return { doubt: `${size} of ${all} elements changed` };
    globalThis.axsnapIncrRoots = [...roots, ...kids];
    const facts = factsOf(roots, kids);
    globalThis.axsnapIncrFacts = { codes: facts.codes, rects: facts.rects };
    s.scrolled = false;
    return { roots: roots.length, kids: kids.length, elements: size, factsDoubt: facts.doubt || null, boxesDoubt: moved, nodes: lightNodes() };
  };
  // The document's elements, texts and comments, shadow trees aside: clickables.js counts them again through
  // the shadow trees, and a difference is a shadow tree of the page's own (a closed one no watcher sees).
  const lightNodes = () => {
    const walker = document.createTreeWalker(document.documentElement, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT | NodeFilter.SHOW_COMMENT | NodeFilter.SHOW_CDATA_SECTION);
    let n = 1;
    while (walker.nextNode()) n++;
    return n;
  };
  // What may have moved elements outside the changed places, with no mutation: the boxes kept from the
  // last look are then read again for the whole page (clickables.js updateBoxes).
  const MOVES_NOTHING = /^(color|background(-.*)?|border-.*-color|border-color|outline-color|box-shadow|text-shadow|opacity|filter|fill|stroke|caret-color|accent-color|text-decoration-color|offset|easing|composite|computed-offset)$/;
  // Called before remember(), while `s.at` is still where the window was scrolled at the last look.
  const boxesDoubt = () => {
    if (s.moves) return s.moves;
    // Fixed and sticky elements move in the document as the window scrolls.
    if (s.at !== `${scrollX},${scrollY}`) return 'the window scrolled';
    if (s.fonts || document.fonts.status !== 'loaded') return 'web fonts were loading';
    for (const a of document.getAnimations()) {
      if (a.playState !== 'running') continue;
      const keys = a.effect instanceof KeyframeEffect ? a.effect.getKeyframes().flatMap((k) => Object.keys(k)) : ['?'];
      const moving = keys.find((k) => !MOVES_NOTHING.test(k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)));
      if (moving) return `an animation of ${moving}`;
    }
    return null;
  };
  // The click facts of the changed places, as clickables.js reads them for the whole page from a
  // DOMSnapshot: per element of each root's subtree (of each list, its own element) in document order,
  // 0 without a box of some size, else its area times 4 plus 1, or plus 2 when it also sets cursor:
  // pointer itself (its nearest ancestor with a box does not): clickables.js decodeFact; and its box
  // in document coordinates (x, y, width, height; zeros without one), as the DOMSnapshot's. A doubt when
  // they cannot tell: an element scrolled, or the change
  // is of or inside a scrolling element (whose facts hold where its content lies).
  const factsOf = (roots, kids) => {
    if (s.scrolled) return { doubt: 'an element scrolled' };
    const scrolls = (e) => e !== document.body && e !== document.documentElement && /^(auto|scroll)$/.test(getComputedStyle(e).overflowY);
    const boxCursor = (e) => {
      for (; e; e = e.parentElement) if (e.getClientRects().length) return getComputedStyle(e).cursor;
      return '';
    };
    const codes = [];
    const rects = [];
    let doubtful = null;
    const walk = (e, inherited, deep, out, at) => {
      const style = getComputedStyle(e);
      if (scrolls(e)) doubtful = 'a scrolling element changed';
      const boxed = e.getClientRects().length > 0;
      const r = boxed ? e.getBoundingClientRect() : null;
      const sized = r && r.width > 0 && r.height > 0;
      out.push(sized ? 4 * Math.max(1, Math.round(r.width * r.height)) + (style.cursor === 'pointer' && inherited !== 'pointer' ? 2 : 1) : 0);
      at.push(...(sized ? [r.left + scrollX, r.top + scrollY, r.width, r.height] : [0, 0, 0, 0]));
      if (deep) for (const c of e.children) walk(c, boxed ? style.cursor : inherited, true, out, at);
    };
    for (const [i, place] of [...roots, ...kids].entries()) {
      for (let a = place.parentElement; a; a = a.parentElement) if (scrolls(a)) return { doubt: 'a change inside a scrolling element' };
      const out = [];
      const at = [];
      walk(place, boxCursor(place.parentElement), i < roots.length, out, at);
      if (doubtful) return { doubt: doubtful };
      codes.push(out);
      rects.push(at);
    }
    return { codes, rects };
  };
  const stop = () => {
    if (s.observer) s.observer.disconnect();
    for (const t of ANIMATION_EVENTS) if (s.onAnimation) document.removeEventListener(t, s.onAnimation, true);
    if (s.onScroll) document.removeEventListener('scroll', s.onScroll, true);
    if (s.onFonts) document.fonts.removeEventListener('loadingdone', s.onFonts);
  };
  globalThis.axsnapIncr = { arm, look, stop };
}

const GROUP = 'axsnap-incr';

async function world(tabId, frameId) {
  const { executionContextId } = await send(tabId, undefined, 'Page.createIsolatedWorld', { frameId, worldName: WORLD });
  return executionContextId;
}

async function run(tabId, contextId, expression, objectGroup) {
  const r = await send(tabId, undefined, 'Runtime.evaluate', { expression, contextId, returnByValue: !objectGroup, objectGroup });
  if (r.exceptionDetails) throw new Error(`watcher: ${r.exceptionDetails.exception?.description || r.exceptionDetails.text}`);
  return r.result;
}

/**
 * Arms the watcher in the frame and turns the Accessibility domain on (node
 * ids stay the same across calls only while it is on). Call before the full
 * read, so nothing that changes during it goes unseen.
 * @returns {Promise<{token: string, doubt: string|null}>}
 */
export async function arm(tabId, frameId) {
  await send(tabId, undefined, 'Accessibility.enable');
  const contextId = await world(tabId, frameId);
  const token = `${Date.now()}-${Math.random()}`;
  const { value } = await run(tabId, contextId, `(${watcher})(), globalThis.axsnapIncr.arm(${JSON.stringify(token)})`);
  return { token, doubt: value.doubt };
}

/** A full read's nodes as the tree to keep for the next look. */
export function keep(frameId, document, token, nodes, looks = 0) {
  return { frameId, document, token, looks, nodes: new Map(nodes.map((n) => [n.nodeId, n])), order: nodes.map((n) => n.nodeId) };
}

/**
 * The frame's tree now, read incrementally from `kept`, or the reason it
 * cannot be (then the caller reads it whole).
 * @param {number} tabId  @param {{frameId: string, document?: string}} f
 * @param {ReturnType<typeof keep>} kept
 * @returns {Promise<{nodes: any[], kept: ReturnType<typeof keep>, roots: number, read: number, facts: FactChanges} | {doubt: string}>}
 */
export async function readChanges(tabId, f, kept) {
  if (kept.looks + 1 >= FULL_EVERY) return { doubt: `a full read every ${FULL_EVERY} looks` };
  const contextId = await world(tabId, f.frameId);
  const { value: present } = await run(tabId, contextId, 'typeof globalThis.axsnapIncr');
  if (present !== 'object') return { doubt: 'the watcher is gone' };
  const { value: seen } = await run(tabId, contextId, `globalThis.axsnapIncr.look(${JSON.stringify(kept.token)}, ${MAX_ROOTS})`);
  if (seen.doubt) return { doubt: seen.doubt };
  const updates = [];
  /** @type {FactChanges} nothing changed: the kept facts hold (and the boxes, unless something moved them) */
  let facts = seen.factsDoubt ? { doubt: seen.factsDoubt } : { changed: new Map(), places: [], kids: 0, boxesDoubt: seen.boxesDoubt, nodes: seen.nodes };
  if (seen.roots + seen.kids) {
    try {
      const list = await run(tabId, contextId, 'globalThis.axsnapIncrRoots', GROUP);
      const { result: props } = await send(tabId, undefined, 'Runtime.getProperties', { objectId: list.objectId, ownProperties: true });
      const objects = props.filter((p) => /^\d+$/.test(p.name)).sort((a, b) => a.name - b.name).map((p) => p.value.objectId);
      const places = [...objects];
      // Each place's own node; the first `roots` then with their subtrees, level by level (queryAXTree
      // would read a subtree in one call, but waits for the page's next frame: a second in a background tab).
      const own = (objectId) => send(tabId, undefined, 'Accessibility.getPartialAXTree', { objectId, fetchRelatives: false }).then((r) => r.nodes);
      const tops = [];
      for (let i = 0; i < objects.length; i += PARALLEL) tops.push(...(await Promise.all(objects.slice(i, i + PARALLEL).map(own))));
      for (const [i, nodes] of tops.entries()) {
        // An element Chrome keeps no node for (<b>, <span>): its parent's node (and subtree) holds the change.
        for (let up = 0; !nodes.length && up < LIFT_MAX; up++) {
          const { result } = await send(tabId, undefined, 'Runtime.callFunctionOn', { objectId: objects[i], objectGroup: GROUP, functionDeclaration: 'function () { return this.parentElement; }' });
          if (!result.objectId) break;
          objects[i] = result.objectId;
          nodes.push(...(await own(result.objectId)));
        }
        if (nodes.length !== 1) return { doubt: 'a changed element\'s node could not be read alone' };
        updates.push(nodes[0]);
      }
      let level = tops.slice(0, seen.roots).map((n) => n[0]);
      while (level.length) {
        const parents = level.filter((n) => n.childIds && n.childIds.length);
        const next = [];
        for (let i = 0; i < parents.length; i += PARALLEL) {
          const got = await Promise.all(parents.slice(i, i + PARALLEL).map((n) => send(tabId, undefined, 'Accessibility.getChildAXNodes', { id: n.nodeId }).then((r) => r.nodes)));
          for (const g of got) next.push(...g);
        }
        updates.push(...next);
        if (updates.length > MAX_NODES_READ) return { doubt: `more than ${MAX_NODES_READ} nodes changed` };
        level = next;
      }
      // Ancestors, whose names may be made of the changed words, read again one by one.
      const fresh = new Set(updates.map((n) => n.nodeId));
      const ancestors = new Set();
      for (const nodes of tops) {
        for (let id = nodes[0].parentId; id !== undefined && !fresh.has(id) && !ancestors.has(id); id = kept.nodes.get(id)?.parentId) {
          if (!kept.nodes.has(id)) return { doubt: 'a changed element sits where the kept tree has no node' };
          ancestors.add(id);
        }
      }
      const read = await Promise.all([...ancestors].map((id) => {
        const backendNodeId = kept.nodes.get(id).backendDOMNodeId;
        if (backendNodeId === undefined) return null;
        return send(tabId, undefined, 'Accessibility.getPartialAXTree', { backendNodeId, fetchRelatives: false }).then((r) => r.nodes.find((n) => n.nodeId === id) || null);
      }));
      if (read.some((n) => !n)) return { doubt: 'an ancestor of a change could not be read again' };
      updates.push(...read);
      if (!seen.factsDoubt) {
        facts = await factChanges(tabId, contextId, places, seen.roots).catch((e) => ({ doubt: `a CDP error: ${e.message}` }));
        if ('changed' in facts) Object.assign(facts, { boxesDoubt: seen.boxesDoubt, nodes: seen.nodes });
      }
    } finally {
      send(tabId, undefined, 'Runtime.releaseObjectGroup', { objectGroup: GROUP }).catch(() => {});
    }
  }
  const spliced = splice(kept, updates);
  if (!spliced) return { doubt: 'the changed subtrees do not fit the kept tree' };
  return { nodes: spliced.nodes, kept: { ...kept, nodes: spliced.map, order: spliced.order, looks: kept.looks + 1 }, roots: seen.roots + seen.kids, read: updates.length, facts };
}

/**
 * @typedef {{changed: Map<number, {code: number, attributes: string[], box: number[]|null}>, places: number[], kids: number,
 *   boxesDoubt: string|null, nodes: number} | {doubt: string}} FactChanges
 *   the click facts of the changed places' elements by backend id (code as the watcher's factsOf says,
 *   attributes as name, value, …, box in document coordinates as x, y, width, height), the backend ids of the
 *   places (the roots', then the lists'), how many are lists whose children came or went, what may have
 *   moved elements outside them, and how many nodes the document holds outside shadow trees (the watcher's
 *   lightNodes); or why the facts must be read for the whole page
 */

/**
 * The watcher's codes for the changed places, matched to their elements' backend ids and attributes
 * through DOM.describeNode, which lists a subtree's elements in the same document order.
 * @returns {Promise<FactChanges>}
 */
async function factChanges(tabId, contextId, places, roots) {
  const { value: said } = await run(tabId, contextId, 'globalThis.axsnapIncrFacts');
  if (!said || !said.codes) return { doubt: 'the watcher gave no click facts' };
  const { codes: codesOf, rects } = said;
  // Pierced: a shadow root parsed into the change (declarative, closed) shows only here.
  const described = await Promise.all(places.map((objectId, i) => send(tabId, undefined, 'DOM.describeNode', { objectId, depth: i < roots ? -1 : 0, pierce: true })));
  const changed = new Map();
  for (const [i, { node }] of described.entries()) {
    const elements = [];
    let shadow = false;
    const walk = (n, deep) => {
      if (n.nodeType !== 1) return;
      elements.push(n);
      if ((n.shadowRoots || []).some((r) => r.shadowRootType !== 'user-agent')) shadow = true;
      if (deep) for (const c of n.children || []) walk(c, true);
    };
    walk(node, i < roots);
    if (shadow) return { doubt: 'a shadow root in a change' };
    const codes = codesOf[i];
    if (!codes || codes.length !== elements.length) return { doubt: 'the changed elements could not be matched to their nodes' };
    elements.forEach((n, k) => {
      const box = rects[i].slice(4 * k, 4 * k + 4);
      changed.set(n.backendNodeId, { code: codes[k], attributes: n.attributes || [], box: box[2] > 0 && box[3] > 0 ? box : null });
    });
  }
  return { changed, places: described.map(({ node }) => node.backendNodeId), kids: places.length - roots, boxesDoubt: null, nodes: 0 };
}

/**
 * A node as getFullAXTree gives it: an ignored node there says only why it
 * is ignored, where the partial reads also give its role and name.
 */
export function asFull(n) {
  if (!n.ignored) return n;
  const out = { nodeId: n.nodeId, ignored: true, ignoredReasons: n.ignoredReasons, role: { type: 'role', value: 'none' }, chromeRole: { type: 'internalRole', value: 0 } };
  if (n.parentId !== undefined) out.parentId = n.parentId;
  out.childIds = n.childIds || [];
  if (n.backendDOMNodeId !== undefined) out.backendDOMNodeId = n.backendDOMNodeId;
  return out;
}

/**
 * The kept tree with `updates` (fresh nodes) in place of its nodes of the
 * same ids, keeping only what the root still reaches, in the kept order
 * (new nodes after their parent). Null when a child id names no node, a
 * node is claimed twice, or the root is gone: then the tree is not whole.
 * Pure.
 */
export function splice(kept, updates) {
  const map = new Map(kept.nodes);
  for (const n of updates) map.set(n.nodeId, asFull(n));
  const rootId = kept.order[0];
  if (!map.has(rootId)) return null;
  /** nodeId → reached from the root */
  const reached = new Set([rootId]);
  const stack = [rootId];
  while (stack.length) {
    const n = map.get(stack.pop());
    for (const c of n.childIds || []) {
      if (!map.has(c) || reached.has(c)) return null;
      if (map.get(c).parentId !== n.nodeId) return null;
      reached.add(c);
      stack.push(c);
    }
  }
  // The kept order for nodes still there; a new node right after the node before it among its siblings (or its parent).
  const order = kept.order.filter((id) => reached.has(id));
  const placed = new Set(order);
  const added = [...reached].filter((id) => !placed.has(id));
  if (added.length) {
    const after = new Map();
    for (const id of added) {
      const parent = map.get(map.get(id).parentId);
      const sibs = parent.childIds;
      const i = sibs.indexOf(id);
      const anchor = i > 0 ? sibs[i - 1] : parent.nodeId;
      if (!after.has(anchor)) after.set(anchor, []);
      after.get(anchor).push(id);
    }
    const out = [];
    const put = (id) => {
      out.push(id);
      for (const a of after.get(id) || []) put(a);
    };
    for (const id of order) put(id);
    order.length = 0;
    order.push(...out);
  }
  const finalMap = new Map(order.map((id) => [id, map.get(id)]));
  if (finalMap.size !== reached.size) return null;
  return { nodes: order.map((id) => finalMap.get(id)), map: finalMap, order };
}
