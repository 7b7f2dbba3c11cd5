// The model's tools, over the extension's message protocol. No chrome.*
// here: the host plugs in `browser.call(msg)` (the protocol) and how to ask
// the person (confirmations, the first action on a site, secrets,
// questions). Every result handed to the model is text, page content fenced
// (page-text.js); every decision reads the typed facts the answers carry
// (`refs`, `page`), and every consequential action passes consent.js first.
// The one exception to text: `screenshot`, offered to models that accept
// images, hands the model a PNG beside its words (media.js).
// Waiting is the extension's: `act` answers once the page settled, and
// `navigate` once it loaded.

import { ACTIONS as PROTOCOL_ACTIONS, pageUrl } from '../../protocol/protocol.js';
import { jsonSchema } from 'ai';
import { fencePage, inline } from './page-text.js';
import { siteOf } from '../../protocol/site.js';
import { checkAct, checkPermission, checkSite, checkTab } from './consent.js';
import { imageOutput } from './media.js';

/**
 * @typedef {{call:(msg:object)=>Promise<any>}} Browser
 * @typedef {{summary:string, reason:string, tabId:number, signal?:AbortSignal}} ConfirmRequest
 * @typedef {'once'|'task'|'always'|false} Permit  the person's answer to "Act on example.com?"
 * @typedef {import('./consent.js').Fact} Fact
 * @typedef {import('./media.js').WithImage} WithImage
 * @typedef {{url:string, title:string, site:string, facts:Map<string, Fact>}} Seen  what the model last saw of a tab
 * @typedef {{confirm:(r:ConfirmRequest)=>Promise<boolean>,
 *   permit:(r:{site:string, summary:string, tabId:number, signal?:AbortSignal})=>Promise<Permit>,
 *   askSecret:(r:{tabId:number, ref:string, name:string, reason:string, signal?:AbortSignal})=>Promise<boolean>,
 *   ask:(r:{question:string, signal?:AbortSignal})=>Promise<string>,
 *   redact?:(text:string)=>string}} Host
 * @typedef {{name:string, input:any, targets:Record<string, {role:string, name:string, secret?:string}>}} StepWhat  the tool, its input, and what the page said of the refs it names
 * @typedef {{type:'tool-start', id:string, line:string} & StepWhat | {type:'tool-end', id:string, line:string, detail:string, ok:boolean, image?:WithImage['image']} & StepWhat | {type:'done', summary:string}} ToolEvent
 */

/** The protocol's actions (protocol/protocol.js). */
const ACTIONS = Object.keys(PROTOCOL_ACTIONS);
/** Keys that put characters into a field (one printable character). */
const typesCharacter = (key) => typeof key === 'string' && [...key].length === 1 && key !== ' ';
const WAIT_DEFAULT_MS = 10000;
const WAIT_MAX_MS = 30000;

/** Actions that only look: they ask nobody, whatever the mode. */
const HARMLESS_ACTS = new Set(['hover', 'focus', 'scroll']);
const errorText = (error) => `Error ${error?.code || 'internal'}: ${error?.message || 'no answer from the extension'}`;
/** The task's sites, for the extension to hold every step that leaves them until the person allows it. */
const guardOf = (scope) => ({ guard: { sites: [...scope.sites] } });
/** What the extension's guard said: the sites the person allowed join the task; what it refused is told. */
const guarded = (scope, res) => {
  for (const site of res.allowedSites || []) scope.sites.add(site);
  return (res.blocked || []).map((b) => `\nThe page tried to reach ${b.url} (${b.kind}); it was blocked: ${b.reason === 'declined' ? 'the person declined' : 'nobody could allow it'}. Do not try another way.`).join('');
};
const quote = (s) => `“${String(s).slice(0, 80)}”`;

/**
 * @param {{browser:Browser, host:Host, scope:import('./consent.js').TaskScope & {current:number},
 *   words?:string[], images?:boolean, onStep?:(e:ToolEvent)=>void}} o  images: the model accepts images (offers `screenshot`)
 */
export function browserTools({ browser, host, scope, words, images = false, onStep = () => {} }) {
  /** @type {Map<number, Seen>} tabId → what the model last saw of it */
  const seen = new Map();
  const redact = (s) => (host.redact ? host.redact(s) : s);

  /**
   * Runs one tool body with its step line, its events and abort checks. A
   * body answers text, or text with an image (the step shows the text).
   * @param {string} name
   * @param {string | ((input:any) => string)} line
   * @param {(input:any, signal?:AbortSignal) => Promise<string | WithImage>} body
   */
  const step = (name, line, body) => async (/** @type {any} */ input, /** @type {{toolCallId?:string, abortSignal?:AbortSignal}} */ { toolCallId, abortSignal } = {}) => {
    const id = toolCallId || `${name}-${Math.random()}`;
    const text = typeof line === 'function' ? line(input) : line;
    abortSignal?.throwIfAborted();
    const what = { name, input, targets: targetsOf(input) };
    onStep({ type: 'tool-start', id, line: text, ...what });
    /** @type {string | WithImage} */
    let answer;
    try {
      answer = await body(input, abortSignal);
    } catch (e) {
      if (abortSignal?.aborted) throw e;
      answer = errorText({ code: 'internal', message: e?.message || String(e) });
    }
    // A picture's secret fields are painted over by the extension; its words are scrubbed as any other.
    const out = redact(typeof answer === 'string' ? answer : answer.text);
    // What was known before the step holds (the page may since be another); a ref looked up on the way is added.
    what.targets = { ...targetsOf(input), ...what.targets };
    // The picture goes with the step too: the person sees what the model was sent.
    onStep({ type: 'tool-end', id, line: text, ...what, detail: out, ok: !/^Error /.test(out) && !/^The person declined/.test(out), ...(typeof answer === 'string' ? {} : { image: answer.image }) });
    return typeof answer === 'string' ? out : { ...answer, text: out };
  };

  const tabOf = (input) => (Number.isInteger(input.tab) ? input.tab : scope.current);
  /** What the page said of the elements a step names (role, name, secret kind): the panel tells the step in words with it. */
  const targetsOf = (input) => Object.fromEntries(['ref', 'to', 'secret_ref'].map((k) => input?.[k]).filter(Boolean).flatMap((ref) => {
    const f = seen.get(tabOf(input))?.facts.get(ref);
    return f ? [[ref, { role: f.role, name: f.name, ...(f.secret ? { secret: f.secret } : {}) }]] : [];
  }));
  const describe = (tabId, ref) => {
    const f = ref && seen.get(tabId)?.facts.get(ref);
    return f ? `${ref} ${JSON.stringify(f.name.slice(0, 60))}` : ref || '';
  };

  /** Asks the person; false when they decline or the task stops. */
  async function confirmed(ask, summary, tabId, signal) {
    if (!ask) return true;
    const ok = await host.confirm({ summary, reason: ask.reason, tabId, signal });
    signal?.throwIfAborted();
    return ok;
  }
  const declined = (what, ask) => `The person declined: ${what} was not done (${ask.reason}). Do not try another way to do it; ask them or finish.`;

  /** A tab outside the task: the person allows it once for the whole task. */
  async function allowTab(tabId, what, signal) {
    const ask = checkTab(scope, tabId);
    if (!ask) return null;
    if (!(await confirmed(ask, `${what} on tab ${tabId}`, tabId, signal))) return declined(`${what} on tab ${tabId}`, ask);
    scope.tabs.add(tabId);
    return null;
  }

  /** Reads a tab and remembers what the model saw. */
  /** @param {number} tabId @param {{mode?:string, diff?:boolean, root?:string}} how @param {AbortSignal} [signal] */
  async function look(tabId, { mode, diff, root } = {}, signal) {
    signal?.throwIfAborted();
    const options = { ...(mode ? { mode } : {}), ...(root ? { root } : {}), ...(diff && seen.has(tabId) ? { diff: true } : {}) };
    const res = await browser.call({ cmd: 'snapshot', tabId, options });
    if (!res.ok) return errorText(res.error);
    return view(tabId, res, { mode });
  }

  /**
   * A snapshot answer as the model reads it; its facts remembered as what it saw of the tab.
   * @param {number} tabId @param {any} res @param {{mode?: string}} how
   */
  function view(tabId, res, { mode }) {
    // `diff.full`: the extension sent the whole page instead (new document, nothing to compare with, …).
    const isDiff = Boolean(res.diff && !res.diff.full);
    remember(tabId, res, isDiff);
    const page = seen.get(tabId);
    return fencePage({ tab: tabId, url: page.url, title: page.title, text: res.text, kind: isDiff ? 'diff' : mode === 'interactive' ? 'interactive' : 'snapshot' });
  }

  /**
   * Keeps an answer's typed facts. Refs stay valid within a document: what an
   * earlier answer on the same page said of a ref this one does not show still holds.
   * @param {number} tabId @param {any} res @param {boolean} [partial]  a diff or a part of the page
   */
  function remember(tabId, res, partial = false) {
    const before = seen.get(tabId);
    const page = res.page || before || { url: '', title: '', site: '' };
    /** @type {Map<string, Fact>} */
    const facts = new Map(Object.entries(res.refs || {}).map(([ref, f]) => [ref, { ref, ...f }]));
    if (before && (partial || before.url === page.url)) for (const [ref, f] of before.facts) if (!facts.has(ref)) facts.set(ref, f);
    seen.set(tabId, { url: page.url, title: page.title, site: page.site ?? siteOf(page.url), facts });
  }

  /**
   * What the agent knows of a ref: from the answers it saw, else from an
   * answer about just the part of the page around it (a ref from an older
   * or a partial view must not skip the consent and secret checks), else
   * from `resolve` (role, name and URL only).
   * @returns {Promise<Fact|null>}
   */
  async function factOf(tabId, ref) {
    const known = seen.get(tabId)?.facts.get(ref);
    if (known) return known;
    const part = await browser.call({ cmd: 'snapshot', tabId, options: { root: ref } });
    if (part.ok) {
      remember(tabId, part, true);
      const f = seen.get(tabId)?.facts.get(ref);
      if (f) return f;
    }
    const r = await browser.call({ cmd: 'resolve', tabId, ref });
    if (!r.ok) return null;
    return { ref, role: String(r.role || '').toLowerCase(), name: r.name || '', ...(r.url ? { url: r.url } : {}) };
  }

  /** Whether what the model saw of a tab holds a secret field or a form with one. */
  const holdsSecret = (tabId) => [...(seen.get(tabId)?.facts.values() || [])].some((f) => f.secret || f.form?.secret);

  /** In the mode `every`, an action that no other rule asks about still asks. */
  const everyAction = () => (scope.mode === 'every' ? checkPermission(scope, '') : null);

  /** After an action the extension did not answer with the page: show it again (as a diff). */
  async function after(tabId, done, signal) {
    return `${done}\n${await look(tabId, { diff: true }, signal)}`;
  }

  /**
   * The first action on a site in a task asks the person (once, for this
   * task, always for this site); in the mode `every`, every action does.
   * @returns {Promise<string|null>} why nothing was done, or null to go on
   */
  async function permitted(tabId, summary, signal) {
    const site = seen.get(tabId)?.site ?? '';
    const ask = checkPermission(scope, site);
    if (!ask) return null;
    const answer = await host.permit({ site, summary, tabId, signal });
    signal?.throwIfAborted();
    if (!answer) return declined(summary, ask);
    if (answer === 'task' || answer === 'always') (scope.permitted ??= new Set()).add(site);
    if (answer === 'always') scope.always?.add(site);
    return null;
  }

  const tabProp = { type: 'integer', description: 'Tab id (from `tabs`); default: the tab you are working in' };
  const schema = (properties, required = []) => jsonSchema({ type: 'object', properties, required, additionalProperties: false });

  return {
    snapshot: {
      description: 'Read a tab as compact text with element refs (A12). mode "interactive" lists only controls; diff: only what changed since your last look; root: only the part of the page around a ref.',
      inputSchema: schema({
        tab: tabProp,
        mode: { type: 'string', enum: ['full', 'interactive'] },
        diff: { type: 'boolean' },
        root: { type: 'string', description: 'A ref: snapshot only its part of the page' },
      }),
      execute: step('snapshot', (i) => `snapshot${Number.isInteger(i.tab) && i.tab !== scope.current ? ` tab ${i.tab}` : ''}${i.mode === 'interactive' ? ' (interactive)' : ''}${i.diff ? ' (changes)' : ''}`,
        async (input, signal) => {
          const tabId = tabOf(input);
          return (await allowTab(tabId, 'reading the page', signal)) ?? look(tabId, input, signal);
        }),
    },

    act: {
      description: 'Act on an element by its ref from the latest snapshot: click, fill (replace a field\'s text), type (key by key), press (a key such as Enter), select (an option), check, uncheck, hover, drag (onto the ref in to: a card to another column, an item to another place in a list), focus, scroll ("up", "down"). Returns the page afterwards. Never for passwords, card numbers or codes: use ask_user with secret_ref.',
      inputSchema: schema({
        ref: { type: 'string', description: 'Element ref such as A12 (optional for press and scroll)' },
        action: { type: 'string', enum: ACTIONS },
        value: { type: 'string', description: 'Text for fill/type, key for press, option for select, direction for scroll' },
        to: { type: 'string', description: 'drag: the ref to drop it on' },
        tab: tabProp,
      }, ['action']),
      execute: step('act', (i) => `${i.action} ${describe(tabOf(i), i.ref)}${i.to ? ` onto ${describe(tabOf(i), i.to)}` : ''}`.trim(), async (input, signal) => {
        const { ref, action, value, to } = input;
        const tabId = tabOf(input);
        const blocked = await allowTab(tabId, `${action} ${ref || ''}`.trim(), signal);
        if (blocked) return blocked;
        const fact = ref ? await factOf(tabId, ref) : null;
        const focusedSecret = ref ? null : [...(seen.get(tabId)?.facts.values() || [])].find((f) => f.secret && f.focused);
        if (((action === 'fill' || action === 'type') && fact?.secret) || (action === 'press' && typesCharacter(value) && (fact?.secret || focusedSecret))) {
          // The model never types a secret: the person does, in the panel.
          const target = fact || focusedSecret;
          const typed = await host.askSecret({ tabId, ref: target.ref, name: target.name, reason: target.secret, signal });
          signal?.throwIfAborted();
          if (!typed) return `The person did not type the ${target.secret} into ${target.ref}; nothing was typed.`;
          return after(tabId, `You may not type secrets: the person typed the ${target.secret} into ${target.ref} themselves.`, signal);
        }
        const toFact = to ? await factOf(tabId, to) : null;
        const what = `${action} ${describe(tabId, ref)}${to ? ` onto ${describe(tabId, to)}` : ''}`.trim();
        if (!HARMLESS_ACTS.has(action)) {
          const refused = await permitted(tabId, what, signal);
          if (refused) return refused;
        }
        const ask = checkAct({ action, value, fact, toFact, pageHasSecret: holdsSecret(tabId), scope, words });
        if (!(await confirmed(ask, what, tabId, signal))) return declined(what, ask);
        if (ask?.kind === 'site') scope.sites.add(ask.site);
        signal?.throwIfAborted();
        // One call is one step: the extension waits for the page to settle and answers with what changed.
        const request = { cmd: 'act', tabId, ...(ref ? { ref } : {}), action, ...(value !== undefined ? { value } : {}), ...(to ? { to } : {}), ...guardOf(scope) };
        const res = await browser.call({ ...request, snapshot: { diff: seen.has(tabId) } });
        if (!res.ok) return errorText(res.error);
        const said = guarded(scope, res);
        if (typeof res.text === 'string') return `Done: ${what}.${said}\n${view(tabId, res, {})}`;
        // Done, but no page to show (the action closed its tab, …): say why.
        return `Done: ${what}.${said}${res.snapshotError ? `\n${errorText(res.snapshotError)}` : ''}`;
      }),
    },

    navigate: {
      description: 'Open a URL in the tab.',
      inputSchema: schema({ url: { type: 'string' }, tab: tabProp }, ['url']),
      execute: step('navigate', (i) => `navigate ${inline(String(i.url).replace(/^https?:\/\//, ''), 120)}`, async (input, signal) => {
        const tabId = tabOf(input);
        // A URL as the snapshot printed it (`/docs`, `//other.org/a`) is the page's: the site it
        // leads to is judged, and sent, in full.
        const url = absoluteUrl(input.url, seen.get(tabId)?.url);
        if (!url) return `Error bad_request: ${inline(String(input.url), 200)} is not a URL: give a full http or https URL`;
        const blocked = await allowTab(tabId, `navigate to ${url}`, signal);
        if (blocked) return blocked;
        const ask = checkSite(scope, url) ?? everyAction();
        if (!(await confirmed(ask, `navigate to ${url}`, tabId, signal))) return declined(`navigating to ${url}`, ask);
        if (ask?.kind === 'site') scope.sites.add(ask.site);
        const res = await browser.call({ cmd: 'navigate', tabId, url, ...guardOf(scope) });
        if (!res.ok) return errorText(res.error);
        guarded(scope, res);
        return after(tabId, `Navigated to ${inline(url)}.`, signal);
      }),
    },

    back: {
      description: 'Go back one page in the tab\'s history.',
      inputSchema: schema({ tab: tabProp }),
      execute: step('back', 'back', async (input, signal) => {
        const tabId = tabOf(input);
        const blocked = await allowTab(tabId, 'going back', signal);
        if (blocked) return blocked;
        const res = await browser.call({ cmd: 'back', tabId });
        if (!res.ok) return errorText(res.error);
        return after(tabId, 'Went back.', signal);
      }),
    },

    wait_for: {
      description: 'Wait until text appears on the page (or, with gone: true, disappears); returns the page. For pages that load or change slowly.',
      inputSchema: schema({ text: { type: 'string' }, gone: { type: 'boolean' }, timeout_ms: { type: 'integer' }, tab: tabProp }, ['text']),
      execute: step('wait_for', (i) => `wait for ${JSON.stringify(String(i.text).slice(0, 60))}${i.gone ? ' to go' : ''}`, async (input, signal) => {
        const tabId = tabOf(input);
        const blocked = await allowTab(tabId, 'reading the page', signal);
        if (blocked) return blocked;
        // The extension waits (bounded), as it does for every other caller.
        const timeout = Math.min(Math.max(input.timeout_ms ?? WAIT_DEFAULT_MS, 0), WAIT_MAX_MS);
        const res = await browser.call({ cmd: 'wait_for', tabId, ...(input.gone ? { textGone: input.text } : { text: input.text }), timeout });
        signal?.throwIfAborted();
        if (!res.ok && res.error?.code !== 'timeout') return errorText(res.error);
        const said = res.ok ? `The text ${input.gone ? 'is gone' : 'appeared'}.` : `Error timeout: after ${timeout / 1000} s the text ${input.gone ? 'is still there' : 'has not appeared'}.`;
        return `${said}\n${await look(tabId, {}, signal)}`;
      }),
    },

    tabs: {
      description: 'Tabs of this window: list them, switch to one (it becomes the tab you work in), or open a URL in a new tab (action "open").',
      inputSchema: schema({ action: { type: 'string', enum: ['list', 'switch', 'open'] }, tab: { type: 'integer' }, url: { type: 'string' } }, ['action']),
      execute: step('tabs', (i) => `tabs ${i.action}${i.tab !== undefined ? ` ${i.tab}` : ''}${i.url ? ` ${inline(i.url, 120)}` : ''}`, async (input, signal) => {
        if (input.action === 'list') {
          const res = await browser.call({ cmd: 'tabs', action: 'list' });
          if (!res.ok) return errorText(res.error);
          const windowId = res.tabs.find((t) => t.tabId === scope.current)?.windowId;
          const lines = res.tabs.filter((t) => windowId === undefined || t.windowId === windowId)
            .map((t) => `tab ${t.tabId} "${inline(t.title, 120)}" ${inline(t.url, 200)}${t.active ? ' (active)' : ''}${t.tabId === scope.current ? ' (this task)' : ''}`);
          return `<tabs>\n${lines.join('\n')}\n</tabs>`;
        }
        if (input.action === 'switch') {
          if (!Number.isInteger(input.tab)) return 'Error bad_request: switch needs tab';
          const blocked = await allowTab(input.tab, 'switching to the tab', signal);
          if (blocked) return blocked;
          const res = await browser.call({ cmd: 'tabs', action: 'switch', tabId: input.tab });
          if (!res.ok) return errorText(res.error);
          scope.current = input.tab;
          return `Switched: you now work in tab ${input.tab}.`;
        }
        if (input.action === 'open') {
          if (!input.url) return 'Error bad_request: open needs url';
          const ask = checkSite(scope, input.url) ?? everyAction();
          if (!(await confirmed(ask, `open ${input.url} in a new tab`, scope.current, signal))) return declined(`opening ${input.url}`, ask);
          if (ask?.kind === 'site') scope.sites.add(ask.site);
          const res = await browser.call({ cmd: 'tabs', action: 'open', url: input.url, ...guardOf(scope) });
          if (!res.ok) return errorText(res.error);
          guarded(scope, res);
          const tabId = res.tabId;
          scope.tabs.add(tabId);
          scope.current = tabId;
          return after(tabId, `Opened tab ${tabId}; you now work in it.`, signal);
        }
        return `Error bad_request: unknown action ${inline(input.action)}`;
      }),
    },

    resolve: {
      description: 'The full URL of a link (and the role and name of any ref).',
      inputSchema: schema({ ref: { type: 'string' }, tab: tabProp }, ['ref']),
      execute: step('resolve', (i) => `resolve ${i.ref}`, async (input, signal) => {
        const tabId = tabOf(input);
        const blocked = await allowTab(tabId, 'reading the page', signal);
        if (blocked) return blocked;
        const res = await browser.call({ cmd: 'resolve', tabId, ref: input.ref });
        if (!res.ok) return errorText(res.error);
        return `${input.ref}: ${inline(res.role, 40)} "${inline(res.name)}"${res.url ? ` ${inline(res.url, 2000)}` : ''}`;
      }),
    },

    ask_user: {
      description: 'Ask the person something only they know, and wait for the answer. With secret_ref (a field marked secret=…), the person types the password, card number or code into that field themselves; you never see it.',
      inputSchema: schema({ question: { type: 'string' }, secret_ref: { type: 'string' } }, ['question']),
      execute: step('ask_user', (i) => (i.secret_ref ? `ask you to type into ${i.secret_ref}` : 'ask you'), async (input, signal) => {
        if (input.secret_ref) {
          const tabId = scope.current;
          // Only a field the extension found secret: the person's secret never goes into a field the page chose to call one.
          const fact = await factOf(tabId, input.secret_ref);
          if (!fact?.secret) return `Error not_secret: ${inline(input.secret_ref, 16)} is not a password, card or code field; nothing was asked. Use secret_ref only for a field marked secret=…`;
          const typed = await host.askSecret({ tabId, ref: input.secret_ref, name: fact.name, reason: fact.secret, signal });
          signal?.throwIfAborted();
          if (!typed) return `The person did not type it; ${input.secret_ref} is unchanged.`;
          return after(tabId, `The person typed it into ${input.secret_ref}.`, signal);
        }
        const answer = await host.ask({ question: input.question, signal });
        signal?.throwIfAborted();
        return `The person answered: ${answer}`;
      }),
    },

    ...(images ? {
      screenshot: {
        description: 'See a tab as a picture (PNG): the visible part of the page, or one element by its ref (scrolled into view). For what text cannot say: layout, charts, images, colours. Secret fields are painted over. Read refs from snapshot, not from the picture.',
        inputSchema: schema({ ref: { type: 'string', description: 'Element ref such as A12; default: the whole visible page' }, tab: tabProp }),
        execute: step('screenshot', (i) => `screenshot${i.ref ? ` ${describe(tabOf(i), i.ref)}` : ''}${Number.isInteger(i.tab) && i.tab !== scope.current ? ` tab ${i.tab}` : ''}`, async (input, signal) => {
          const tabId = tabOf(input);
          const blocked = await allowTab(tabId, 'reading the page', signal);
          if (blocked) return blocked;
          const res = await browser.call({ cmd: 'screenshot', tabId, ...(input.ref ? { ref: input.ref } : {}) });
          if (!res.ok) return errorText(res.error);
          const of = res.ref ? `${describe(tabId, res.ref)} on tab ${tabId}` : `the visible part of tab ${tabId}`;
          const notes = [res.masked ? `${res.masked} secret field${res.masked === 1 ? '' : 's'} painted over` : '', res.clipped ? 'only its part on screen' : ''].filter(Boolean);
          return { text: `Screenshot of ${of}: ${res.width}×${res.height} PNG${notes.length ? ` (${notes.join('; ')})` : ''}.`, image: { mediaType: res.mimeType, data: res.data } };
        }),
        toModelOutput: ({ output }) => imageOutput(output),
      },
    } : {}),

    done: {
      description: 'Finish: the task is done, or cannot be done. summary: what happened, in a few words of Markdown.',
      inputSchema: schema({ summary: { type: 'string' } }, ['summary']),
      execute: step('done', 'done', async (input) => {
        onStep({ type: 'done', summary: String(input.summary || '') });
        return 'Finished.';
      }),
    },
  };
}

/** `url` as `navigate` reads it against `base` (`pageUrl`), in full; null where it is no URL. */
function absoluteUrl(url, base) {
  try {
    return pageUrl(String(url), base).href;
  } catch {
    return null;
  }
}
