// How well a set of refs covers what an app's author marked interactive
// (`data-act`): every marked element shown on screen must hold a ref (on
// itself or inside it, shadow trees included), or sit alone inside one (a
// mark on a menu item's label); any other ref is an extra. The tests read
// axsnap's refs through a CDP session of their own; the app benchmark
// (scripts/bench-apps.mjs) reads its peers' refs through each peer's own
// way to an element and scores them with the same functions.

/** Every shown element marked `data-act`, shadow trees included: their marks. */
export function shownMarks() {
  const out = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.hasAttribute('data-act')) {
        const r = el.getBoundingClientRect();
        const shown = r.width > 0 && r.height > 0 && el.checkVisibility({ visibilityProperty: true, opacityProperty: true })
          && !el.closest('[inert],[aria-hidden="true"]');
        if (shown) out.push(el.getAttribute('data-act'));
      }
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  walk(document);
  return out;
}

/**
 * The mark of the nearest marked element holding `node` (composed tree),
 * else the one mark inside it, else null. Runs in the page: self-contained.
 * @param {Node} node
 */
export function markAround(node) {
  for (let n = node; n; n = n.parentNode || n.host) {
    if (n.nodeType === 1 && n.hasAttribute('data-act')) return n.getAttribute('data-act');
  }
  const inside = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.hasAttribute('data-act')) inside.push(el.getAttribute('data-act'));
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  if (node.nodeType === 1) walk(node);
  if (node.shadowRoot) walk(node.shadowRoot);
  return inside.length === 1 ? inside[0] : null;
}

/**
 * Scores the marks the refs hit (one entry per ref, null when it hits
 * none) against the marks shown.
 * @param {string[]} marked
 * @param {(string|null)[]} hits
 */
export function score(marked, hits) {
  const covered = marked.filter((m) => hits.includes(m));
  return { marked, covered, missing: marked.filter((m) => !hits.includes(m)), extra: hits.filter((h) => h === null).length, refs: hits.length };
}

/**
 * The marks the nodes hit (null for a node that hits none).
 * @param {import('playwright-core').Page} page
 * @param {number[]} nodes  backendNodeIds (main frame)
 * @returns {Promise<(string|null)[]>}
 */
export async function marksOf(page, nodes) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const hits = [];
    for (const backendNodeId of nodes) {
      const { object } = await cdp.send('DOM.resolveNode', { backendNodeId });
      const r = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: `function () { return (${markAround})(this); }`, returnByValue: true });
      hits.push(r.result.value);
    }
    return hits;
  } finally {
    await cdp.detach().catch(() => {});
  }
}

/**
 * @param {import('playwright-core').Page} page
 * @param {number[]} nodes  the backendNodeIds the refs point at (main frame)
 * @returns {Promise<{marked:string[], covered:string[], missing:string[], extra:number, refs:number}>}
 */
export async function coverage(page, nodes) {
  const marked = await page.evaluate(shownMarks);
  return score(marked, await marksOf(page, nodes));
}
