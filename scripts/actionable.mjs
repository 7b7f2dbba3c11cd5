// The actionable elements of a page, from its accessibility tree as Chrome
// gives it (Accessibility.getFullAXTree): what every tool's snapshot should
// give a ref. Shared by the benchmarks (bench.mjs, bench-node.mjs).

/** Roles an agent acts on. */
export const ACTIONABLE_ROLES = new Set(['link', 'button', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option',
  'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'switch', 'slider', 'spinbutton', 'treeitem']);

/**
 * The backend node ids of the actionable elements: controls by role,
 * focusable elements (not a focus-trap sentinel), and editable roots.
 * @param {any[]} nodes  getFullAXTree's nodes
 * @returns {Set<number>}
 */
export function actionableBackendIds(nodes) {
  const by = new Map(nodes.map((n) => [n.nodeId, n]));
  const parentOf = new Map();
  for (const n of nodes) for (const c of n.childIds || []) if (!parentOf.has(c)) parentOf.set(c, n.nodeId);
  const prop = (n, name) => (n.properties || []).find((p) => p.name === name)?.value?.value;
  const editable = (n) => { const v = prop(n, 'editable'); return v !== undefined && v !== '' && v !== 'false'; };
  const ids = new Set();
  for (const n of nodes) {
    const role = n.role?.value;
    if (n.ignored || n.backendDOMNodeId === undefined || role === 'RootWebArea' || role === 'WebArea' || role === 'Iframe' || role === 'IframePresentational') continue;
    let insideEditor = false;
    let p = parentOf.get(n.nodeId);
    for (let i = 0; i < 4 && p !== undefined; i++) {
      if (editable(by.get(p))) { insideEditor = true; break; }
      p = parentOf.get(p);
    }
    const control = ACTIONABLE_ROLES.has(role) || role === 'MenuListOption' || role === 'DisclosureTriangle';
    const focusable = prop(n, 'focusable') === true && !focusSentinel(n, by);
    if (control || focusable || (editable(n) && !insideEditor)) ids.add(n.backendDOMNodeId);
  }
  return ids;
}

/**
 * A focus-trap sentinel gets no ref (README, format): a focusable generic
 * with no name, no description and nothing below it to read or act on.
 */
function focusSentinel(n, by) {
  const role = n.role?.value;
  const text = (v) => String(v?.value ?? '').trim();
  if (!['generic', 'none', 'presentation'].includes(role) || text(n.name) || text(n.description)) return false;
  const prop = (x, name) => (x.properties || []).find((p) => p.name === name)?.value?.value;
  if (prop(n, 'editable') && prop(n, 'editable') !== 'false') return false;
  const stack = [...(n.childIds || [])].reverse();
  for (let seen = 0; stack.length && seen < 64; seen++) {
    const d = by.get(stack.pop());
    if (!d) continue;
    const r = d.role?.value;
    const visible = ACTIONABLE_ROLES.has(r) || prop(d, 'focusable') === true || (text(d.name) && r !== 'InlineTextBox' && r !== 'LineBreak');
    if (!d.ignored && visible) return false;
    stack.push(...[...(d.childIds || [])].reverse());
  }
  return true;
}

