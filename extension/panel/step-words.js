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

/** [doing, done, asked] for an action on an element: "Clicking …", "Clicked …", "Click …?". */
function actWords(input, targets) {
  const it = element(targets[input.ref], input.ref);
  const value = typeof input.value === 'string' ? `“${clip(input.value, 40)}”` : '';
  const say = (verbs, rest) => verbs.map((v) => `${v} ${rest}`);
  switch (input.action) {
    case 'click': return say(['Clicking', 'Clicked', 'Click'], it);
    case 'fill': case 'type': return say(['Typing', 'Typed', 'Type'], `${value} into ${it}`);
    case 'press': return say(['Pressing', 'Pressed', 'Press'], `${clip(String(input.value || 'a key'), 20)}${input.ref ? ` in ${it}` : ''}`);
    case 'select': return say(['Choosing', 'Chose', 'Choose'], `${value} in ${it}`);
    case 'check': return say(['Ticking', 'Ticked', 'Tick'], it);
    case 'uncheck': return say(['Unticking', 'Unticked', 'Untick'], it);
    case 'hover': return say(['Pointing at', 'Pointed at', 'Point at'], it);
    case 'focus': return say(['Moving to', 'Moved to', 'Move to'], it);
    case 'drag': return say(['Dragging', 'Dragged', 'Drag'], `${it} onto ${element(targets[input.to], input.to)}`);
    case 'scroll': return say(['Scrolling', 'Scrolled', 'Scroll'], `${input.value === 'up' ? 'up' : 'down'}${input.ref ? ` in ${it}` : ''}`);
    default: return [0, 1, 2].map(() => `${input.action} ${it}`);
  }
}

/** [doing, done, asked] for any step. */
/** @param {{name:string, input?:any, targets?:Record<string, Target>}} step */
function forms({ name, input = {}, targets = {} }) {
  const tab = Number.isInteger(input.tab) ? ` of tab ${input.tab}` : '';
  const url = (u, n = 80) => clip(String(u || '').replace(/^https?:\/\//, ''), n);
  switch (name) {
    case 'snapshot': return input.diff ? ['Looking at what changed', 'Looked at what changed', 'Look at what changed'] : ['Reading', 'Read', 'Read'].map((v) => `${v} the page${tab}`);
    case 'act': return actWords(input, targets);
    case 'navigate': return ['Going to', 'Went to', 'Go to'].map((v) => `${v} ${url(input.url)}`);
    case 'tabs': {
      if (input.action === 'list') return ['Looking at', 'Looked at', 'Look at'].map((v) => `${v} your tabs`);
      if (input.action === 'open') return ['Opening', 'Opened', 'Open'].map((v) => `${v} ${url(input.url || 'a page')} in a new tab`);
      return ['Switching', 'Switched', 'Switch'].map((v) => `${v} to tab ${input.tab}`);
    }
    case 'back': return ['Going back', 'Went back', 'Go back'];
    case 'wait_for': return ['Waiting for', 'Saw', 'Wait for'].map((v) => `${v} “${clip(String(input.text || ''), 60)}”`);
    case 'screenshot': return ['Taking', 'Took', 'Take'].map((v) => `${v} a screenshot of ${input.ref ? element(targets[input.ref], input.ref) : `the page${tab}`}`);
    case 'resolve': return ['Looking up', 'Looked up', 'Look up'].map((v) => `${v} ${element(targets[input.ref], input.ref)}`);
    case 'ask_user': {
      if (input.secret_ref) return ['Asking', 'Asked', 'Ask'].map((v) => `${v} you for ${secretWords(targets[input.secret_ref]?.secret)} of ${element(targets[input.secret_ref], input.secret_ref)}`);
      return ['Asking you', 'Asked you', 'Ask you'];
    }
    default: return [name, name, name];
  }
}

/**
 * A step the person is asked to allow, in words without refs ("Click “Buy now”"),
 * for questions such as "Click “Buy now” on shop.test?".
 * @param {{name:string, input?:any, targets?:Record<string, Target>}} step
 */
export const askWords = (step) => forms(step)[2];

/**
 * The words for a step: while it runs ("Clicking “Sign in”"), once done
 * ("Clicked “Sign in”"), or when it failed or was declined ("Did not: click “Sign in”").
 * @param {{name:string, input?:any, targets?:Record<string, Target>}} step
 * @param {boolean|null} ok  null while running
 */
export function stepWords(step, ok) {
  const [doing, done] = forms(step);
  if (ok === null) return `${doing}…`;
  if (ok === false) return `Not done: ${doing.charAt(0).toLowerCase()}${doing.slice(1)}`;
  return done;
}
