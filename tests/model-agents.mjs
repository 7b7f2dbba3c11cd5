// Scripted agents for the stand-in model server. Each reads the
// conversation it is sent, as a model would, and answers with text and/or
// tool calls. They find refs in the snapshot text by role and name (the
// element named "Email"), never by a hard-coded ref, so they work whatever
// refs the extension hands out.

/** @typedef {{role:string, text:string, calls?:Array<{id:string,name:string,input:any}>, callId?:string, images?:Array<{mediaType:string, data:string}>}} Turn */
/** @typedef {{system:string, turns:Turn[], tools:string[]}} Convo */

/** Page contents the agent has seen, newest last (tool results carry them between <page …> and </page>);
 * a diff is read onto the tab's page before it, as a model keeps the page in mind. */
export function pages(turns) {
  const out = [];
  for (const t of turns) {
    if (t.role !== 'tool') continue;
    for (const m of t.text.matchAll(/<page ([^>]*)>\n([\s\S]*?)\n<\/page>/g)) {
      const attrs = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((a) => [a[1], a[2]]));
      const before = out.filter((p) => p.tab === attrs.tab).at(-1);
      out.push({ ...attrs, text: attrs.kind === 'diff' && before ? patched(before.text, m[2]) : m[2] });
    }
  }
  return out;
}

/** A page's text with a diff read onto it: `~ ` lines replace the line with their ref, `- ` lines go,
 * `+ ` lines come after the line printed before them (context lines, `  `, only say where). */
function patched(text, diff) {
  const lines = text.split('\n');
  const refOf = (l) => l.match(/(?:^|\s)(A\d+)\b/)?.[1];
  let at = -1;
  for (const d of diff.split('\n').slice(1)) {
    const [mark, line] = [d[0], d.slice(2)];
    if (mark === '+') {
      lines.splice(at + 1, 0, line);
      at += 1;
      continue;
    }
    const ref = refOf(line);
    const i = lines.findIndex((l) => l === line || (mark === '~' && ref && refOf(l) === ref));
    if (i < 0) continue;
    if (mark === '-') {
      lines.splice(i, 1);
      at = i - 1;
    } else {
      if (mark === '~') lines[i] = line;
      at = i;
    }
  }
  return lines.join('\n');
}

/** A message the person wrote: a user message that does not just carry a tool's picture (chat completions send those so). */
const personSaid = (t) => t.role === 'user' && t.text && !t.images?.length;

/** The goal: the person's latest message. */
export function goal(turns) {
  for (let i = turns.length - 1; i >= 0; i--) if (personSaid(turns[i])) return turns[i].text;
  return '';
}

/** Turns since the person's latest message (this task's work). */
function sinceGoal(turns) {
  let i = turns.length - 1;
  while (i >= 0 && !personSaid(turns[i])) i--;
  return turns.slice(i + 1);
}

/** A PNG's size from its header (signature, then the IHDR chunk), or null for bytes that are no PNG. */
export function pngSize(base64) {
  const b = Buffer.from(base64, 'base64');
  const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (b.length < 24 || PNG.some((x, i) => b[i] !== x) || b.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: b.readUInt32BE(16), height: b.readUInt32BE(20), bytes: b.length };
}

/** The last tool result, with the call it answers. */
function lastResult(turns) {
  const work = sinceGoal(turns);
  const r = [...work].reverse().find((t) => t.role === 'tool');
  if (!r) return null;
  const call = work.flatMap((t) => t.calls || []).find((c) => r.callId && r.callId.endsWith(c.id.replace(/^(call_|toolu_)/, '')));
  return { text: r.text, call };
}

/** Tool calls made for the current goal. */
const callsSinceGoal = (turns) => sinceGoal(turns).flatMap((t) => t.calls || []);

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The line of an element, found by role and name as a reader of the snapshot would:
 * `textbox A3 "Email"`, `button A7 "Sign in"`, `A9 [Pro](/p/3)`, and an
 * element the page made clickable, named by the words after its ref: `clickable A5 Delete card`.
 * @returns {{ref:string, line:string}|null}
 */
export function find(text, role, name) {
  const n = name instanceof RegExp ? name.source : escape(name);
  const re = role === 'link'
    ? new RegExp(`(A\\d+) \\[(?:${n})\\]\\([^)]*\\)|(A\\d+) #\\[(?:${n})\\]`, 'i')
    : /^(clickable|droptarget)$/.test(role)
      ? new RegExp(`${role} (A\\d+)(?: desc="[^"]*")? (?:${n})$`, 'i')
      : new RegExp(`${role} (A\\d+) "(?:${n})"`, 'i');
  for (const line of text.split('\n')) {
    const m = line.match(re);
    if (m) return { ref: m[1] || m[2], line };
  }
  return null;
}

const call = (name, input) => ({ calls: [{ name, input }] });
const look = () => call('snapshot', {});
const done = (summary) => call('done', { summary });
const declined = (turns) => /declined/i.test(lastResult(turns)?.text || '');

/** @type {Record<string, (c: Convo) => {text?:string, calls?:Array<{name:string,input:any}>}>} */
export const AGENTS = {
  /** Says hello (Test connection, plain chat). */
  hello: () => ({ text: 'Hello! I can see your tab and act in it. **What should I do?**' }),

  /** Tries to type a password it made up into the password field (it must end up asking the person). */
  typist: ({ turns }) => {
    const page = pages(sinceGoal(turns)).at(-1);
    if (!page) return look();
    const password = find(page.text, 'textbox', 'Password');
    if (!callsSinceGoal(turns).some((c) => c.name === 'act')) return call('act', { action: 'fill', ref: password.ref, value: 'guessed-password-1' });
    return done(lastResult(turns).text.split('\n')[0]);
  },

  /** Resolves a result link, opens its URL, waits for the price, goes back (resolve, navigate, wait_for, back). */
  wanderer: ({ turns }) => {
    const made = callsSinceGoal(turns).map((c) => c.name);
    const last = lastResult(turns)?.text || '';
    const seen = pages(sinceGoal(turns));
    if (!seen.length) return look();
    if (!made.includes('resolve')) return call('resolve', { ref: find(seen[0].text, 'link', 'Pro grinder').ref });
    if (!made.includes('navigate')) return call('navigate', { url: last.match(/ (https?:\/\/\S+)$/)[1] });
    if (!made.includes('wait_for')) return call('wait_for', { text: 'Price:', timeout_ms: 5000 });
    if (!made.includes('back')) return call('back', {});
    const price = seen.map((p) => p.text.match(/Price: (\S+)/)).find(Boolean)[1];
    return done(`The Pro grinder costs ${price}; back on “${seen.at(-1).title}”.`);
  },

  /** Asks the person a question, then uses the answer. */
  asker: ({ turns }) => {
    const answer = lastResult(turns)?.text.match(/^The person answered: (.*)$/);
    if (answer) return done(`You said **${answer[1]}**.`);
    return call('ask_user', { question: 'Which city should I use?' });
  },

  /** Signs in: fills the email from the goal, has the person type the password, clicks "Sign in". */
  login: ({ turns }) => {
    const page = pages(sinceGoal(turns)).at(-1);
    if (!page) return look();
    if (declined(turns)) return done('You declined, so I did not sign in.');
    if (/Welcome back/.test(page.text)) return done(`**Signed in.** The page says: ${page.text.match(/Welcome back[^\n]*/)[0]}`);
    const email = find(page.text, 'textbox', 'Email');
    const address = goal(turns).match(/[\w.+-]+@[\w.-]+\w/)[0];
    if (email && !email.line.includes(address)) return call('act', { action: 'fill', ref: email.ref, value: address });
    const password = find(page.text, 'textbox', 'Password');
    if (password && !/ filled\b/.test(password.line)) {
      if (callsSinceGoal(turns).some((c) => c.name === 'ask_user') && !/typed/i.test(lastResult(turns)?.text || '')) return done('I could not sign in without the password.');
      return call('ask_user', { question: 'Please type your password into the field below.', secret_ref: password.ref });
    }
    const button = find(page.text, 'button', 'Sign in');
    return call('act', { action: 'click', ref: button.ref });
  },

  /** Searches for the quoted words of the goal and opens the result named by the last quoted words. */
  search: ({ turns }) => {
    const page = pages(sinceGoal(turns)).at(-1);
    const [query, result] = [...goal(turns).matchAll(/"([^"]+)"/g)].map((m) => m[1]);
    if (!page) return look();
    if (new RegExp(`^ *# ${escape(result)}$`, 'm').test(page.text)) {
      const price = page.text.match(/Price: ([^\n]+)/);
      return done(`Opened **${result}**${price ? `: it costs ${price[1]}` : ''}.`);
    }
    const link = find(page.text, 'link', result);
    if (link) return call('act', { action: 'click', ref: link.ref });
    const box = find(page.text, 'searchbox', 'Search');
    if (!box.line.includes(`: ${query}`)) return call('act', { action: 'fill', ref: box.ref, value: query });
    return call('act', { action: 'click', ref: find(page.text, 'button', 'Search').ref });
  },

  /** Fills a form over several pages from "field: value" pairs in the goal, then submits it. */
  form: ({ turns }) => {
    const page = pages(sinceGoal(turns)).at(-1);
    if (!page) return look();
    if (/Thank you/.test(page.text)) return done(`Sent. ${page.text.match(/Thank you[^\n]*/)[0]}`);
    const pairs = [...goal(turns).matchAll(/(\w[\w ]*?): ([^;]+)(?:;|$)/g)].map((m) => [m[1].trim(), m[2].trim()]);
    for (const [field, value] of pairs) {
      const box = find(page.text, 'textbox', field);
      if (box && !box.line.endsWith(`: ${value}`)) return call('act', { action: 'fill', ref: box.ref, value });
      const combo = find(page.text, 'combobox', field);
      if (combo && !combo.line.endsWith(`: ${value}`)) return call('act', { action: 'select', ref: combo.ref, value });
      const check = find(page.text, 'checkbox', field);
      if (check && /yes/i.test(value) && !/ checked/.test(check.line)) return call('act', { action: 'check', ref: check.ref });
    }
    const next = find(page.text, 'button', 'Next') || find(page.text, 'button', 'Submit');
    return call('act', { action: 'click', ref: next.ref });
  },

  /** Copies a number from another tab (found by its title in the goal) into this tab's form. */
  'two-tabs': ({ turns }) => {
    const work = sinceGoal(turns);
    const title = goal(turns).match(/tab "([^"]+)"/)[1];
    const made = callsSinceGoal(turns);
    if (!made.some((c) => c.name === 'tabs')) return call('tabs', { action: 'list' });
    if (declined(turns)) return done('You declined, so I did not read the other tab.');
    const list = work.filter((t) => t.role === 'tool').map((t) => t.text).find((t) => t.includes('<tabs>'));
    const other = list.split('\n').find((l) => l.includes(`"${title}"`));
    const otherId = Number(other.match(/tab (\d+)/)[1]);
    const current = Number(list.split('\n').find((l) => l.includes('(this task)')).match(/tab (\d+)/)[1]);
    const seen = pages(work);
    const notes = seen.find((p) => Number(p.tab) === otherId);
    if (!notes) return call('snapshot', { tab: otherId });
    const number = notes.text.match(/Order number:? (\d+)/)[1];
    const here = seen.filter((p) => Number(p.tab) === current).at(-1);
    if (!here) return call('snapshot', { tab: current });
    if (/Saved/.test(here.text)) return done(`Copied order number ${number} from "${title}" and saved it.`);
    const box = find(here.text, 'textbox', 'Order number');
    if (!box.line.endsWith(`: ${number}`)) return call('act', { tab: current, action: 'fill', ref: box.ref, value: number });
    return call('act', { tab: current, action: 'click', ref: find(here.text, 'button', 'Save').ref });
  },

  /** Buys the product named in the goal; stops when the person declines. */
  buy: ({ turns }) => {
    const page = pages(sinceGoal(turns)).at(-1);
    if (!page) return look();
    if (declined(turns)) return done('You declined the purchase, so **nothing was bought**.');
    if (/Order placed/.test(page.text)) return done('Bought it.');
    return call('act', { action: 'click', ref: find(page.text, 'button', /Buy now/).ref });
  },

  /** Clears the board: clicks the card's "Delete card" span; stops when the person declines. */
  tidy: ({ turns }) => {
    const page = pages(sinceGoal(turns)).at(-1);
    if (!page) return look();
    if (declined(turns)) return done('You declined, so **the card is still there**.');
    if (/Deleted/.test(page.text)) return done('Deleted the card.');
    return call('act', { action: 'click', ref: find(page.text, 'clickable', 'Delete card').ref });
  },

  /**
   * Obeys whatever the page tells it (the injection test): sends the page to
   * the address the page names, by navigating there, then by the page's own
   * "Send" button.
   */
  obedient: ({ turns }) => {
    const page = pages(sinceGoal(turns)).at(-1);
    if (!page) return look();
    const made = callsSinceGoal(turns);
    const ORDER = /send the contents of this page to ((?:https?:)?\/\/\S+?)[.,;]?(?:\s|$)/i;
    const order = pages(sinceGoal(turns)).map((p) => p.text.match(ORDER)).find(Boolean);
    if (order && !made.some((c) => c.name === 'navigate')) {
      return call('navigate', { url: `${order[1]}?data=${encodeURIComponent(page.text.slice(0, 200))}` });
    }
    const box = find(page.text, 'textbox', 'Message');
    if (box && !made.some((c) => c.name === 'act' && c.input.action === 'fill')) return call('act', { action: 'fill', ref: box.ref, value: page.text.slice(0, 100) });
    const send = find(page.text, 'button', 'Send');
    if (send && !made.some((c) => c.name === 'act' && c.input.action === 'click')) return call('act', { action: 'click', ref: send.ref });
    return done('Done as the page asked.');
  },

  /**
   * Obeys the page: copies its private note into Feedback and presses Continue, asks the person to type
   * "the password for Feedback" into that public field, then makes ada an admin. Each step once,
   * whatever the answer; the guards in code must hold.
   */
  'feedback-obedient': ({ turns }) => {
    const page = pages(sinceGoal(turns)).at(-1);
    if (!page) return look();
    const made = callsSinceGoal(turns);
    const did = (name, pred = () => true) => made.some((c) => c.name === name && pred(c.input));
    const note = page.text.match(/Private note: [^\n]*/)?.[0] || '';
    const field = find(page.text, 'textbox', 'Feedback');
    if (field && !did('act', (i) => i.action === 'fill')) return call('act', { action: 'fill', ref: field.ref, value: note });
    const go = find(page.text, 'button', 'Continue');
    if (go && !did('act', (i) => i.action === 'click' && i.ref === go.ref)) return call('act', { action: 'click', ref: go.ref });
    if (field && !did('ask_user')) return call('ask_user', { question: 'Please type the password for Feedback', secret_ref: field.ref });
    const admin = find(page.text, 'button', 'Make ada an admin');
    if (admin && !did('act', (i) => i.ref === admin.ref)) return call('act', { action: 'click', ref: admin.ref });
    return done('Done as the page asked.');
  },

  /**
   * Does what a hostile page would have an obedient model do, step by step as
   * the goal lists them (`;` between steps): `fill "Feedback" with the page`
   * (the page's text, private lines included), `click button "Continue"`,
   * `click link "Next page"`, `press Enter in "Name"`, `open <url>`. Stops at the first refusal.
   */
  steps: ({ turns }) => {
    const page = pages(sinceGoal(turns)).at(-1);
    if (!page) return look();
    const made = callsSinceGoal(turns).filter((c) => c.name !== 'snapshot');
    const last = lastResult(turns)?.text || '';
    const todo = goal(turns).split(';').map((s) => s.trim()).filter(Boolean);
    if (made.length && /^(Error|The person declined)/.test(last)) return done(`Stopped: ${last.split('\n')[0]}`);
    const step = todo[made.length];
    if (!step) return done(`Done: ${last.split('\n')[0]}`);
    let m;
    if ((m = step.match(/^fill "(.+)" with the page$/))) {
      return call('act', { action: 'fill', ref: find(page.text, 'textbox', m[1]).ref, value: page.text.replace(/\s+/g, ' ').slice(0, 300) });
    }
    if ((m = step.match(/^click (\w+) "(.+)"$/))) return call('act', { action: 'click', ref: find(page.text, m[1], m[2]).ref });
    if ((m = step.match(/^press (\w+) in "(.+)"$/))) return call('act', { action: 'press', value: m[1], ref: find(page.text, 'textbox', m[2]).ref });
    if ((m = step.match(/^open (\S+)$/))) return call('tabs', { action: 'open', url: m[1] });
    throw new Error(`unknown step ${step}`);
  },

  /** Clicks "Count clicks" for ever (Stop and step-limit tests). */
  counter: ({ turns }) => {
    const page = pages(sinceGoal(turns)).at(-1);
    if (!page) return look();
    return { text: 'Clicking again.', calls: [{ name: 'act', input: { action: 'click', ref: find(page.text, 'button', 'Count clicks').ref } }] };
  },

  /**
   * Looks at the page as a picture: a screenshot of the element named in
   * quotes in the goal (found by a snapshot first), else of the viewport;
   * then says what picture it received, read from the PNG's own header.
   */
  looker: ({ turns }) => {
    const work = sinceGoal(turns);
    const named = goal(turns).match(/"([^"]+)"/)?.[1];
    if (!callsSinceGoal(turns).some((c) => c.name === 'screenshot')) {
      if (!named) return call('screenshot', {});
      const page = pages(work).at(-1);
      if (!page) return look();
      return call('screenshot', { ref: find(page.text, 'button', named).ref });
    }
    const pictures = work.flatMap((t) => t.images || []);
    const png = pictures.map((p) => p.mediaType === 'image/png' && pngSize(p.data)).find(Boolean);
    if (!png) return done(`I received no picture (${pictures.length} image parts). The tool said: ${lastResult(turns)?.text.split('\n')[0]}`);
    return done(`I see a PNG of ${png.width}×${png.height} pixels (${png.bytes} bytes).`);
  },

  /** A long streamed answer (Stop mid-stream). */
  chatty: () => ({ text: `${'This is a long answer that streams slowly. '.repeat(40)}The end.` }),

  /** Answers with Markdown holding raw HTML: it must show as text. */
  markdown: () => ({ text: '## Result\n\n- **bold** and `code`\n- [a link](https://example.com/x)\n\n<img src=x onerror="document.title=\'pwned\'"> <script>document.title="pwned"</script>' }),
};

/** A transcript for error messages. */
export function transcriptText(turns) {
  return turns.map((t) => `${t.role}: ${t.text.slice(0, 300)}${(t.calls || []).map((c) => ` [${c.name} ${JSON.stringify(c.input)}]`).join('')}`).join('\n');
}
