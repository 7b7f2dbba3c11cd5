// A co-pilot step as a person says it: "Clicked “Sign in”", "Asked you for
// the password of “Password”", from the tool, its input and what the page
// said of the elements it names (role, name, secret kind) — never from refs
// alone. The model's own line (`click A2 "Sign in"`) stays in the step's details.

/** @typedef {{role?:string, name?:string, secret?:string}} Target */

const clip = (s, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** An element in words: its name in quotes, else its role, else its ref. */
function element(/** @type {Target|undefined} */ t, ref) {
  if (t?.name) return `“${clip(t.name)}”`;
  if (t?.role) return `the ${t.role}`;
  return ref ? `element ${ref}` : 'the page';
}

/** What a secret field asks for, in words. */
function secretWords(kind = '') {
  if (/card/.test(kind)) return 'the card number';
  if (/code|otp/.test(kind)) return 'the code';
  return 'the password';
}

/** [doing, done] for an action on an element. */
function actWords(input, targets) {
  const it = element(targets[input.ref], input.ref);
  const value = typeof input.value === 'string' ? `“${clip(input.value, 40)}”` : '';
  switch (input.action) {
    case 'click': return ['Clicking', 'Clicked'].map((v) => `${v} ${it}`);
    case 'fill': case 'type': return ['Typing', 'Typed'].map((v) => `${v} ${value} into ${it}`);
    case 'press': return ['Pressing', 'Pressed'].map((v) => `${v} ${clip(String(input.value || 'a key'), 20)}${input.ref ? ` in ${it}` : ''}`);
    case 'select': return ['Choosing', 'Chose'].map((v) => `${v} ${value} in ${it}`);
    case 'check': return ['Ticking', 'Ticked'].map((v) => `${v} ${it}`);
    case 'uncheck': return ['Unticking', 'Unticked'].map((v) => `${v} ${it}`);
    case 'hover': return ['Pointing at', 'Pointed at'].map((v) => `${v} ${it}`);
    case 'focus': return ['Moving to', 'Moved to'].map((v) => `${v} ${it}`);
    case 'drag': return ['Dragging', 'Dragged'].map((v) => `${v} ${it} onto ${element(targets[input.to], input.to)}`);
    case 'scroll': return ['Scrolling', 'Scrolled'].map((v) => `${v} ${input.value === 'up' ? 'up' : 'down'}${input.ref ? ` in ${it}` : ''}`);
    default: return [`${input.action} ${it}`, `${input.action} ${it}`];
  }
}

/** [doing, done] for any step. */
/** @param {{name:string, input?:any, targets?:Record<string, Target>}} step */
function pair({ name, input = {}, targets = {} }) {
  const tab = Number.isInteger(input.tab) ? ` of tab ${input.tab}` : '';
  switch (name) {
    case 'snapshot': return input.diff ? ['Looking at what changed', 'Looked at what changed'] : [`Reading the page${tab}`, `Read the page${tab}`];
    case 'act': return actWords(input, targets);
    case 'navigate': return ['Going to', 'Went to'].map((v) => `${v} ${clip(String(input.url || '').replace(/^https?:\/\//, ''), 80)}`);
    case 'tabs': {
      if (input.action === 'list') return ['Looking at your tabs', 'Looked at your tabs'];
      if (input.action === 'open') return ['Opening', 'Opened'].map((v) => `${v} ${clip(String(input.url || 'a page'), 80)} in a new tab`);
      return ['Switching', 'Switched'].map((v) => `${v} to tab ${input.tab}`);
    }
    case 'back': return ['Going back', 'Went back'];
    case 'wait_for': return ['Waiting for', 'Saw'].map((v) => `${v} “${clip(String(input.text || ''), 60)}”`);
    case 'resolve': return ['Looking up', 'Looked up'].map((v) => `${v} ${element(targets[input.ref], input.ref)}`);
    case 'ask_user': {
      if (input.secret_ref) return ['Asking', 'Asked'].map((v) => `${v} you for ${secretWords(targets[input.secret_ref]?.secret)} of ${element(targets[input.secret_ref], input.secret_ref)}`);
      return ['Asking you', 'Asked you'];
    }
    default: return [name, name];
  }
}

/**
 * The words for a step: while it runs ("Clicking “Sign in”"), once done
 * ("Clicked “Sign in”"), or when it failed or was declined ("Did not: click “Sign in”").
 * @param {{name:string, input?:any, targets?:Record<string, Target>}} step
 * @param {boolean|null} ok  null while running
 */
export function stepWords(step, ok) {
  const [doing, done] = pair(step);
  if (ok === null) return `${doing}…`;
  if (ok === false) return `Not done: ${doing.charAt(0).toLowerCase()}${doing.slice(1)}`;
  return done;
}
