// How well a set of refs covers what an app's author marked interactive
// (`data-act`): every marked element shown on screen must hold a ref (on
// itself or inside it, shadow trees included), or sit alone inside one (a
// mark on a menu item's label); any other ref is an extra. Read through a
// CDP session of the test's own.

/** Every shown element marked `data-act`, shadow trees included: their marks. */
function shownMarks() {
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
 * @this {Element} The mark of the nearest marked element holding this node
 * (composed tree), else the one mark inside it, else null.
 */
function markAround() {
  for (let n = this; n; n = n.parentNode || n.host) {
    if (n.nodeType === 1 && n.hasAttribute('data-act')) return n.getAttribute('data-act');
  }
  const inside = [];
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.hasAttribute('data-act')) inside.push(el.getAttribute('data-act'));
      if (el.shadowRoot) walk(el.shadowRoot);
    }
  };
  if (this.nodeType === 1) walk(this);
  if (this.shadowRoot) walk(this.shadowRoot);
  return inside.length === 1 ? inside[0] : null;
}

/**
 * @param {import('playwright-core').Page} page
 * @param {number[]} nodes  the backendNodeIds the refs point at (main frame)
 * @returns {Promise<{marked:string[], covered:string[], missing:string[], extra:number, refs:number}>}
 */
export async function coverage(page, nodes) {
  const cdp = await page.context().newCDPSession(page);
  try {
    const marked = await page.evaluate(shownMarks);
    const hits = [];
    for (const backendNodeId of nodes) {
      const { object } = await cdp.send('DOM.resolveNode', { backendNodeId });
      const r = await cdp.send('Runtime.callFunctionOn', { objectId: object.objectId, functionDeclaration: markAround.toString(), returnByValue: true });
      hits.push(r.result.value);
    }
    const covered = marked.filter((m) => hits.includes(m));
    return { marked, covered, missing: marked.filter((m) => !hits.includes(m)), extra: hits.filter((h) => h === null).length, refs: nodes.length };
  } finally {
    await cdp.detach().catch(() => {});
  }
}
