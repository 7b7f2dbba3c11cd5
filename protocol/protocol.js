// The message protocol, defined once: commands with their request fields and
// results, snapshot options, actions and error codes. The service worker's
// validation, the side panel's action list, the JSON Schema and the
// TypeScript declarations (scripts/protocol.mjs) and the README's tables are
// all derived from these tables, so adding a command, an action, an option or
// an error code is one edit here.
//
// Field types are JSON Schema fragments (the subset validate.js reads: type,
// enum, minimum, maximum, maxLength, anyOf, properties, items).

/** Bumped when a request or an answer changes incompatibly. */
export const PROTOCOL_VERSION = 1;

/**
 * What this extension can do beyond the commands, listed by `hello` so that
 * a client of another version decides from the list, never from the words
 * of an error.
 */
export const FEATURES = {
  diff: 'snapshot option `diff`: what changed since the previous snapshot',
  'act-snapshot': '`act` with `snapshot`: waits for the page to settle and answers with its snapshot or what changed',
  facts: 'snapshot and act answers carry typed `refs` and `page` facts',
  'wait-for': '`wait_for` waits for a text, its going, a ref\'s going or a URL',
};

/** A screenshot's PNG larger than this (bytes) is refused with `image_too_large` (about 4 MB as base64, under what model APIs take). */
export const MAX_SCREENSHOT_BYTES = 3 * 1024 * 1024;

/** A request larger than this (in JSON characters) is refused with `too_large`. */
export const MAX_REQUEST_CHARS = 1 << 20;

/** An `upload`'s files together may hold at most this many bytes (`too_large` beyond). */
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/**
 * An `upload` request's own limit in JSON characters: its bytes as base64 and room for names.
 * One request rather than chunks: a file half set in an input is worse than one refused whole.
 */
export const MAX_UPLOAD_CHARS = Math.ceil(MAX_UPLOAD_BYTES / 3) * 4 + 65536;

/** Every error code any caller can see, with what it means. */
export const ERRORS = {
  bad_request: 'malformed request: not an object, a missing or unknown field, a wrong value type',
  too_large: 'the request is larger than 1 MB (an `upload`: its files larger than 10 MB together)',
  unknown_command: '`cmd` is not a command of this protocol',
  forbidden: 'the caller may not reach this tab, frame, ref or command',
  consent_required: 'the person has not allowed this site yet: the axsnap panel asks them now (Allow once, Always allow, Deny)',
  denied: 'the person denied this site access',
  revoked: 'the person revoked this site\'s access (open ports are closed)',
  rate_limited: 'this site sent too many requests: wait a second and retry',
  bad_options: 'an unknown snapshot option or a value it cannot take',
  bad_ref: 'not a ref (refs look like `A7`)',
  unknown_ref: 'the ref was never issued to this caller in this tab',
  stale_ref: 'the element is gone (removed, or the page navigated): take a new snapshot',
  not_visible: 'the element has no box on screen; nothing was done',
  image_too_large: 'the screenshot\'s PNG is larger than 3 MB: take one of a single element instead',
  obscured: 'another element is at the point the press would hit (checked after the pointer moved there); nothing was clicked',
  missed: 'the element moved or was covered between the button going down and coming up: the click went to another element (which the page may have acted on); take a new snapshot before clicking again',
  focus_moved: 'the page moved the focus away from the element; nothing (more) was typed',
  not_fillable: 'the element is not a text field',
  not_a_select: 'the element is not a `<select>`',
  no_such_option: 'the `<select>` has no option with that value or label',
  not_checkable: 'the element is not a checkbox, radio or switch',
  not_a_file_input: 'the element is not an enabled `<input type=file>`, or it takes one file and was given more',
  no_tab: 'the tab does not exist (closed?)',
  detached: 'the debugger was detached from the tab; the next request attaches again',
  debugger_busy: 'another debugger (DevTools) is attached to the tab',
  restricted_page: 'Chrome allows no extension to read this page (`chrome://`, `devtools://`, `view-source:`, other extensions, the Web Store)',
  no_history: 'the tab has no earlier page to go back to',
  load_failed: 'Chrome could not load the page and shows its error page instead (no such host, connection refused, …); `error.tabId` is the tab, and a snapshot reads that page',
  storage_full: 'this tab\'s refs could not be kept while the service worker was stopped: take a new snapshot',
  bad_input: 'the core could not read the accessibility tree',
  cdp_error: 'Chrome refused a debugger command',
  page_error: 'a script in the page failed while acting',
  timeout: 'a wait ran out of time: a debugger call past its deadline (nothing more was done: try again), `wait_for`, an answer over the desktop-agents bridge, or a request of the client package (`packages/client`)',
  page_busy: 'the page does not answer at all (a script that never yields, or a dialog in a tab sharing its process); nothing more was done',
  dialog_open: 'a JavaScript dialog is open on the tab (`error.dialog` has its `type` and `message`): answer it with the `dialog` action',
  no_dialog: 'there is no dialog to answer on this tab',
  no_extension: 'desktop agents (axsnap-mcp): the extension is not connected; the person turns on "Allow desktop agents" and pairs in the side panel',
  disconnected: 'the extension went away while the call ran (turned off, reloaded; for desktop agents, axsnap-mcp lost it); it may or may not have been done',
  declined: 'the person declined in the side panel: the step would have left the sites this co-pilot task or desktop agent may reach (a form sent to another site, a navigation, a new window); nothing was sent',
  confirmation_unavailable: 'the step needs the person\'s OK in the side panel (it leaves the sites this co-pilot task or desktop agent may reach), and no side panel is open, or nobody answered in time; nothing was sent',
  internal: 'a bug in axsnap: please report it',
};

/** @typedef {Record<string, any>} Fragment  a JSON Schema fragment */
/** @type {(description: string, extra?: Fragment) => Fragment} */
const integer = (description, extra = {}) => ({ type: 'integer', minimum: 0, description, ...extra });
/** @type {(description: string, extra?: Fragment) => Fragment} */
const string = (description, extra = {}) => ({ type: 'string', description, ...extra });
const boolean = (description) => ({ type: 'boolean', description });

/**
 * The extension's snapshot options. The core parses and defaults them
 * (crates/axsnap-core/src/options.rs, Defaults::Agent); `default` here only
 * documents its defaults, and a test checks the two agree.
 */
export const OPTIONS = {
  mode: { enum: ['full', 'interactive'], default: 'full', description: '`full` (everything a reader sees) or `interactive` (actionable nodes with their landmarks, headings, tables, menus)' },
  format: { enum: ['text', 'json'], default: 'text', description: '`text` or `json` (rows `[depth, role, name, props, ref]`)' },
  maxChars: integer('cut on a line boundary to at most N characters; `0` = no cap', { default: 12000 }),
  full: boolean('shorthand for `maxChars: 0`'),
  maxDepth: integer('hide lines nested deeper than N; one line says how many were hidden'),
  maxText: integer('clip each text and name to N characters'),
  maxUrl: integer('clip link URLs longer than N characters (64 when the output is capped)', { default: 64 }),
  root: string('snapshot only the part of the page around a ref from an earlier snapshot', { maxLength: 16 }),
  diff: boolean('answer with what changed since the previous snapshot of this tab (same document and options), or the full snapshot saying why; the answer\'s `diff` says which'),
  viewport: boolean('mark where the page leaves and enters the viewport with a line each time (`(below the fold)`, `(above the view)`, `(in view)`), in full snapshots too; capped snapshots always keep what is nearest the viewport'),
  fresh: boolean('read the whole accessibility tree again rather than only what changed since the previous snapshot (the answer is the same; `stats.fetch` says how it was read)'),
};

const scrollAmount = { anyOf: [{ enum: ['up', 'down'] }, { type: 'number', minimum: -1e6, maximum: 1e6 }] };
/** One call scrolls at most this far (pixels); `deltaY` in the answer says how far it went. */
export const MAX_SCROLL = 100000;

/**
 * A URL as `navigate` reads it: absolute, or relative to `base` (a page's http or https URL) in
 * the forms snapshots print links in (`/docs`, `//other.org/a`, `?page=2`, `#top`). Other words
 * (`example.com`, `not a url`) are no URL, as reading them as a path would be a guess. Throws
 * as `new URL` does.
 * @param {string} url @param {string} [base]
 */
export function pageUrl(url, base) {
  return new URL(url, /^[/?#]/.test(String(url)) && /^https?:/i.test(base || '') ? base : undefined);
}

/**
 * Actions of `act`: whether they need a `ref` (`none`: they take none), the
 * `value` they take (a JSON Schema fragment; none when absent), any fields
 * of their own (`fields`, optional; `required`: those it cannot do without)
 * and what they answer besides `action` and `ref` (`result`, optional).
 * Adding an action is one entry here.
 * @type {Record<string, {ref: 'required'|'optional'|'none', value?: Fragment, valueRequired?: boolean,
 *   fields?: Record<string, Fragment>, required?: string[], result?: Record<string, Fragment>, description: string}>}
 */
export const ACTIONS = {
  click: { ref: 'required', description: 'click the element\'s centre (refused when hidden or covered)' },
  fill: { ref: 'required', value: string('the new value'), valueRequired: true, description: 'replace the field\'s value; fires input and change' },
  type: { ref: 'required', value: string('the text to type'), valueRequired: true, description: 'type key by key at the caret' },
  press: { ref: 'optional', value: string('`Enter`, `Tab`, `Escape`, `Backspace`, `Delete`, an arrow, `Home`, `End`, `PageUp`, `PageDown`, `Space`, or one character'), valueRequired: true, description: 'press one key, in the element or (without a ref) where the focus is' },
  select: { ref: 'required', value: string('an option\'s value or label'), valueRequired: true, result: { selected: string('the label of the option chosen') }, description: 'choose an option of a `<select>`' },
  check: { ref: 'required', result: { checked: boolean('the state now') }, description: 'make a checkbox, radio or switch checked' },
  uncheck: { ref: 'required', result: { checked: boolean('the state now') }, description: 'make a checkbox or switch unchecked' },
  hover: { ref: 'required', description: 'move the mouse over the element' },
  drag: {
    ref: 'required', fields: { to: string('the ref to drop it on, like `A9` (in the same frame)', { maxLength: 16 }) }, required: ['to'],
    result: {
      to: string('the ref dropped on'),
      dragged: { enum: ['html5', 'mouse'], description: '`html5`: the page started an HTML5 drag (`draggable`), finished with dragover and drop at the target; `mouse`: a press, moves and a release (pointer-driven lists and boards)' },
    },
    description: 'drag the element onto another one: press at its centre, move past the pages\' drag thresholds to the target\'s centre, release (refused when either is hidden or covered)',
  },
  focus: { ref: 'required', description: 'focus the element' },
  scroll: {
    ref: 'optional', value: { ...scrollAmount, description: '`"up"`, `"down"` or pixels (down is positive; at most 100,000 per call)' },
    result: { deltaY: { type: 'number', description: 'the pixels scrolled' } },
    description: 'scroll the page or the element; with a ref and no value, scroll it into view',
  },
  dialog: {
    ref: 'none', value: { enum: ['accept', 'dismiss'], description: '`"accept"` or `"dismiss"`' }, valueRequired: true,
    fields: { text: string('a prompt\'s answer', { maxLength: 100000 }) },
    result: {
      accepted: boolean('whether the dialog was accepted'),
      dialog: {
        type: 'object', additional: true, description: 'the dialog answered; any action whose last step opened one (a `confirm()` in a click handler) says which here',
        properties: { type: string('alert, confirm, prompt or beforeunload'), message: string('its message'), url: string('the page that opened it') },
      },
    },
    description: 'answer the tab\'s JavaScript dialog (alert, confirm, prompt, beforeunload)',
  },
};

const tabId = integer('the tab; default: the caller\'s tab (a web page\'s own tab, else the active tab)');
const ref = string('a ref from a snapshot, like `A7`', { maxLength: 16 });
const url = string('an http or https URL', { maxLength: 8192 });
const timeout = integer('how long to wait for the page to load, in ms (at most 60000)', { default: 15000, maximum: 60000 });
/** A co-pilot task's scope (guard.js): judged like a desktop agent's requests, against these sites. */
const guard = {
  type: 'object', description: 'the side panel\'s co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages',
  properties: { sites: { type: 'array', items: { type: 'string', maxLength: 253 }, description: 'the allowed sites' } },
};
/** Sites the person allowed in the side panel while a guarded request ran. */
const allowedSites = { type: 'array', items: { type: 'string' }, description: 'guarded requests: the sites the person allowed in the side panel during this request (the co-pilot adds them to its task\'s scope)' };

/** What a guarded request's network edge refused while it ran (edge.js). */
const blocked = {
  type: 'array', description: 'guarded requests: what the page tried as the action ran and the network edge refused (a form sent, a navigation or a new window to a site not allowed, that the person declined or nobody could answer); the action itself was done',
  items: { type: 'object', properties: { url: string('the request\'s URL'), site: string('its site'), kind: { enum: ['form', 'navigation', 'popup'], description: 'what it was' },
    reason: { enum: ['declined', 'confirmation_unavailable'], description: 'the person declined, or nobody could answer' } } },
};

/** A tab as `tabs` and the navigation commands describe it. */
const TAB = {
  tabId: integer('the tab'),
  windowId: integer('its window'),
  title: string('its title'),
  url: string('its URL'),
  active: boolean('whether it is the active tab of its window'),
};
const LOADED = { ...TAB, loaded: boolean('whether the page finished loading within the timeout') };
const GUARDED_LOAD = { ...LOADED, allowedSites };

/** Tab operations of `tabs`: which fields each needs and takes, and what it answers. */
export const TAB_ACTIONS = {
  list: { required: [], allowed: [], result: { tabs: { type: 'array', items: { type: 'object', properties: TAB }, description: 'the tabs' } }, description: 'the tabs this caller may reach' },
  open: { required: ['url'], allowed: ['url', 'active', 'timeout', 'guard'], result: GUARDED_LOAD, optionalResult: ['allowedSites'], description: 'open a URL in a new tab and wait for it to load (bounded)' },
  switch: { required: ['tabId'], allowed: ['tabId'], result: TAB, description: 'make a tab the active one of its window, and its window the focused one' },
  close: { required: ['tabId'], allowed: ['tabId'], result: { tabId: integer('the tab closed') }, description: 'close a tab' },
};

/** A snapshot's sizes and timings (`SnapshotStats` in the TypeScript declarations). */
export const STATS = {
  type: 'object', additional: true, description: 'sizes and timings', ts: 'SnapshotStats',
  properties: {
    refs: integer('refs in the output'), chars: integer('characters'), tokensEst: integer('estimated tokens'),
    lines: integer('lines'), nodesIn: integer('accessibility nodes read'), nodesOut: integer('nodes printed'),
    truncatedLines: integer('lines left out by the caps'), frames: integer('frames read'),
    framesFailed: { type: 'array', items: { type: 'string' }, description: 'frames that could not be read' },
    framesPartial: { type: 'array', description: 'frames too large to read whole, read as a window: how many elements each has, read, and left out above and below',
      items: { type: 'object', properties: { frame: { type: 'string' }, elements: { type: 'integer' }, read: { type: 'integer' }, above: { type: 'integer' }, below: { type: 'integer' } } } },
    secrets: integer('secret fields redacted'),
    fetch: { type: 'object', additional: true, description: 'how the tree was read: `incremental` (only what changed since the previous snapshot, `changed` places, `nodesRead` nodes), else `reason` why it was read whole; with an incremental read, `clickFacts`: `updated` where the page changed or `read whole`',
      properties: { incremental: { type: 'boolean' }, reason: { type: 'string' }, changed: { type: 'integer' }, nodesRead: { type: 'integer' }, next: { type: 'string' } } },
    timings: { type: 'object', additional: true, description: 'milliseconds per stage', properties: {
      attachMs: { type: 'number' }, fetchMs: { type: 'number' }, secretsMs: { type: 'number' }, clickablesMs: { type: 'number' },
      serializeMs: { type: 'number' }, totalMs: { type: 'number' } } },
  },
};

/** The kinds of secret field the core finds (crates/axsnap-core/src/secrets). */
export const SECRET_KINDS = ['password', 'current-password', 'new-password', 'credit-card', 'one-time-code'];

/**
 * What an answer says, typed, of each ref it shows (`RefFact`): every guard
 * decides from these, never from the printed text.
 */
export const REF_FACT = {
  type: 'object', ts: 'RefFact', optional: ['url', 'secret', 'focused', 'form'],
  description: 'what a ref is, typed: guards decide from these facts, never from the printed text',
  properties: {
    role: string('its role as the snapshot prints it (`button`, `link`, `textbox`, `clickable`, …)'),
    name: string('its name (secrets cut out)'),
    url: string('a link\'s full URL'),
    secret: { enum: SECRET_KINDS, description: 'the field holds a secret of this kind: the model never types into it' },
    focused: boolean('it has the focus (keys pressed without a ref go to it)'),
    form: {
      type: 'object', optional: ['url', 'submits'], description: 'the form the element belongs to (its `form` owner, else the form around it)',
      properties: {
        method: { enum: ['get', 'post', 'dialog'], description: 'how it submits' },
        url: string('where it submits, in full (a submit button\'s `formaction` counts)'),
        site: string('the site it submits to (registrable domain by the Public Suffix List); `\'\'` when not a web URL'),
        submits: boolean('pressing this element (or Enter in it) submits the form'),
        secret: boolean('the form holds a password, card or one-time-code field'),
      },
    },
  },
};

/** The page an answer shows (`PageFact`). */
export const PAGE_FACT = {
  type: 'object', ts: 'PageFact', description: 'the page an answer shows: its title, URL and site',
  properties: { title: string('its title'), url: string('its URL'), site: string('its site (registrable domain by the Public Suffix List)') },
};

/** Typed facts that travel with every snapshot text. */
const FACTS = {
  refs: { type: 'object', values: REF_FACT, ts: 'Record<string, RefFact>', description: 'for each ref the text shows, what it is (`RefFact`)' },
  page: PAGE_FACT,
};

/** With `options.diff`: whether `text` is what changed or the whole page, and why. */
const DIFF = {
  type: 'object', description: 'with `options.diff`: `full: false` when `text` holds what changed, else the whole page and `reason`',
  properties: {
    full: boolean('`text` is the whole page'), reason: string('why the whole page was sent'),
    added: integer('lines added'), removed: integer('lines removed'), changed: integer('lines changed'),
    closed: string('a modal dialog closed (its line\'s words, `dialog "New project"`): the diff compares with the page as it was before the dialog opened'),
  },
};

/** What a snapshot answers (besides `ok` and `id`). */
const SNAPSHOT = { tabId: integer('the tab'), text: string('the snapshot'), stats: STATS, ...FACTS };

/** A subscription's name, given by `watch` and carried by its events. */
const watchId = string('the subscription, as `watch` named it', { maxLength: 32 });

/**
 * The commands. `fields`: request fields (besides `cmd` and `id`);
 * `required`: the fields that must be present; `variants`: per-value rules
 * of one field (`act` and `tabs` by `action`): the fields each case needs
 * (`required`) and takes (`allowed`), their types where narrower (`fields`),
 * and its own `result` where the cases answer differently; `result`: the
 * fields of a successful answer (besides `ok` and `id`); `optionalResult`:
 * the result fields that are not always present.
 */
export const COMMANDS = {
  snapshot: {
    description: 'the compact text (or JSON) view of a tab, with refs to act on',
    fields: { tabId, options: { type: 'object', properties: OPTIONS, description: 'snapshot options' } },
    result: {
      tabId: integer('the tab'),
      text: string('the snapshot'),
      stats: STATS,
      ...FACTS,
      diff: DIFF,
    },
    optionalResult: ['diff'],
  },
  act: {
    description: 'act on an element by ref; with `snapshot`, wait until the page settles and answer with its snapshot (or what changed)',
    fields: {
      tabId, ref, action: { enum: Object.keys(ACTIONS), description: 'what to do' },
      value: { anyOf: [{ type: 'string' }, { type: 'number' }], description: 'the action\'s value' },
      snapshot: {
        type: 'object', properties: OPTIONS,
        description: 'after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller\'s previous snapshot',
      },
      ...Object.assign({}, ...Object.values(ACTIONS).map((a) => a.fields || {})),
      guard,
    },
    required: ['action'],
    variants: { field: 'action', cases: actionCases() },
    result: {
      action: { enum: Object.keys(ACTIONS), description: 'the action done' }, ref: string('the ref acted on'),
      ...Object.assign({}, ...Object.values(ACTIONS).map((a) => a.result || {})),
      settled: {
        type: 'object', description: 'with `snapshot`: how the wait for the page went',
        properties: {
          ms: integer('from the action to the page settling (or the deadline)'), navigated: boolean('the action loaded a new page or changed the URL'),
          quiet: boolean('the page settled; false: the deadline (5 s) came first and the snapshot shows the page as it was then'),
        },
      },
      text: string('with `snapshot`: the snapshot, or what changed'), stats: STATS, ...FACTS, diff: DIFF,
      snapshotError: { type: 'object', properties: { code: { type: 'string' }, message: { type: 'string' } }, description: 'with `snapshot`: why there is none (the action was done)' },
      blocked,
      allowedSites,
    },
    optionalResult: ['ref', ...Object.values(ACTIONS).flatMap((a) => Object.keys(a.result || {})), 'settled', 'text', 'stats', ...Object.keys(FACTS), 'diff', 'snapshotError', 'blocked', 'allowedSites'],
  },
  resolve: {
    description: 'where a ref points: its frame, DOM node, role, name and a link\'s full URL',
    fields: { tabId, ref },
    required: ['ref'],
    result: {
      ref: string('the ref'), backendNodeId: integer('the DOM node (backendDOMNodeId)'), frame: string('the frame'),
      role: string('its role'), name: string('its name'), url: string('a link\'s full URL'),
    },
    optionalResult: ['url'],
  },
  highlight: {
    description: 'outline an element in the page until the next `highlight`, drawn by Chrome above the page (the page cannot see it); without `ref`, clear the outline. Not for web pages',
    fields: { tabId, ref },
    result: { ref: string('the ref outlined') },
    optionalResult: ['ref'],
  },
  reset: {
    description: 'forget the refs this caller holds for the tab',
    fields: { tabId },
    result: {},
  },
  tabs: {
    description: 'list, open, switch to or close tabs',
    fields: {
      action: { enum: Object.keys(TAB_ACTIONS), default: 'list', description: 'what to do (default `list`)' },
      tabId: integer('the tab to switch to or close'), url, active: boolean('`open`: make the new tab active (default true)'), timeout, guard,
    },
    variants: { field: 'action', cases: TAB_ACTIONS },
  },
  navigate: {
    description: 'load a URL in a tab and wait for it (bounded)',
    fields: { tabId, url: string('an http or https URL, or one relative to the tab\'s page as snapshots print links (`/docs`, `?page=2`, `//other.org/a`)', { maxLength: 8192 }), timeout, guard },
    required: ['url'],
    result: GUARDED_LOAD,
    optionalResult: ['allowedSites'],
  },
  back: {
    description: 'go back one page in a tab\'s history and wait for it (bounded)',
    fields: { tabId, timeout },
    result: LOADED,
  },
  wait_for: {
    description: 'wait until a text appears or is gone, a ref\'s element goes, or the URL contains a string (bounded)',
    fields: {
      tabId,
      text: string('wait until the page shows this text (as a snapshot shows it)', { maxLength: 1000 }),
      textGone: string('wait until the page no longer shows this text', { maxLength: 1000 }),
      refGone: string('wait until this ref\'s element is gone: removed, hidden, or the page navigated', { maxLength: 16 }),
      url: string('wait until the tab\'s URL contains this', { maxLength: 8192 }),
      timeout: integer('give up after this many ms with a `timeout` error (at most 60000)', { default: 10000, maximum: 60000 }),
    },
    result: { waitedMs: integer('how long it waited, in ms') },
  },
  hello: {
    description: 'the handshake: protocol version, and what this caller may do now (a site not yet allowed is asked about in the panel)',
    fields: {},
    result: {
      version: string('the core\'s version'), protocol: integer('PROTOCOL_VERSION'),
      access: { enum: ['extension', 'none', 'once', 'always', 'denied', 'revoked'], description: 'the person\'s answer for this caller\'s origin (`none`: not asked yet; the prompt is queued)' },
      commands: { type: 'array', items: { type: 'string' }, description: 'the commands this caller may use now' },
      tabs: { type: 'array', items: { type: 'integer' }, description: 'the tabs this caller may reach now' },
      features: { type: 'array', items: { enum: Object.keys(FEATURES) }, description: 'what this extension can do beyond the commands (`FEATURES`): decide from this list, never from an error\'s words' },
    },
  },
  ping: {
    description: 'is the extension there, and which version',
    fields: {},
    result: { version: string('the core\'s version'), protocol: integer('PROTOCOL_VERSION') },
  },
  watch: {
    description: 'over a long-lived port: the tab\'s snapshot now, then a `change` event each time it changes (the diff where the extension makes diffs), at most one per `interval` ms, until `unwatch`, the tab closes, the site loses access or the port closes',
    fields: {
      tabId, options: { type: 'object', properties: OPTIONS, description: 'snapshot options of every snapshot it takes' },
      interval: integer('the least time between two looks at the tab, in ms', { default: 1000, minimum: 250, maximum: 60000 }),
    },
    result: { watch: watchId, ...SNAPSHOT },
  },
  screenshot: {
    description: 'a PNG of the tab\'s viewport, or of one element by ref (scrolled into view; only its part on screen); secret fields (passwords, cards, one-time codes) are painted over as the snapshot cuts them',
    fields: { tabId, ref: string('the element to capture, like `A7`; default: the whole viewport', { maxLength: 16 }) },
    result: {
      tabId: integer('the tab'), ref: string('the element captured'),
      mimeType: { enum: ['image/png'], description: 'always `image/png`' },
      data: string('the PNG, base64'),
      width: integer('its width in pixels'), height: integer('its height in pixels'),
      masked: integer('secret fields painted over'),
      clipped: boolean('the element is larger than the viewport or partly off screen: only its part on screen is shown'),
    },
    optionalResult: ['ref'],
  },
  upload: {
    description: 'put files into a file input by ref, as if the person had picked them: the bytes travel in the request (never a path; 10 MB together at most), then the input fires input and change. Guarded callers: what the page then sends to another site is held as for `act`',
    fields: {
      tabId, ref: string('the `<input type=file>`, like `A7`', { maxLength: 16 }),
      files: {
        type: 'array', description: 'the files, in order (one unless the input is `multiple`; an empty list clears it)',
        items: {
          type: 'object', required: ['name', 'data'],
          properties: {
            name: string('the file\'s name as the page sees it (no folder)', { maxLength: 255 }),
            mimeType: string('its type as the page sees it, like `application/pdf` (default: none)', { maxLength: 127 }),
            data: string('its bytes, base64'),
          },
        },
      },
      guard,
    },
    required: ['ref', 'files'],
    maxChars: MAX_UPLOAD_CHARS,
    result: {
      tabId: integer('the tab'), ref: string('the input'),
      files: { type: 'array', items: { type: 'string' }, description: 'the names the input holds now' },
      bytes: integer('their size together'),
      blocked, allowedSites,
    },
    optionalResult: ['blocked', 'allowedSites'],
  },
  unwatch: {
    description: 'end a subscription of this port',
    fields: { watch: watchId },
    required: ['watch'],
    result: {},
  },
};

function actionCases() {
  return Object.fromEntries(Object.entries(ACTIONS).map(([name, a]) => [name, {
    required: [...(a.ref === 'required' ? ['ref'] : []), ...(a.valueRequired ? ['value'] : []), ...(a.required || [])],
    allowed: ['tabId', ...(a.ref === 'none' ? [] : ['ref']), ...(a.value ? ['value'] : []), 'snapshot', ...Object.keys(a.fields || {}), ...(a.ref === 'none' ? [] : ['guard'])],
    fields: { ...(a.value ? { value: a.value } : {}), ...a.fields },
  }]));
}

/**
 * What a long-lived port (a localhost page's `chrome.runtime.connect`, or the
 * bridge's) pushes without being asked: `{ok, event, ...fields}`, never with
 * an `id`. `ok: false` events end something.
 * @type {Record<string, {ok: boolean, fields: Record<string, Fragment>, optional?: string[], description: string}>}
 */
export const EVENTS = {
  change: {
    ok: true,
    fields: {
      watch: watchId, ...SNAPSHOT,
      diff: DIFF,
    },
    optional: ['diff'],
    description: 'a watched tab changed: `text` says how (the diff since the previous event, or the whole snapshot)',
  },
  ended: {
    ok: false,
    fields: { watch: watchId, error: { type: 'object', ts: '{ code: ErrorCode; message: string }', description: 'why: `no_tab` (closed), `revoked`, `denied`, or the code of the snapshot that failed' } },
    description: 'a subscription ended without `unwatch`; no more events of it follow',
  },
  closed: {
    ok: false,
    fields: { error: { type: 'object', ts: '{ code: ErrorCode; message: string }', description: 'why: `revoked` or `denied`' } },
    description: 'the person denied or revoked this site: the port closes right after',
  },
  disconnected: {
    ok: false,
    fields: {},
    description: 'the port to the extension dropped (the extension was reloaded or updated); requests in flight get no answer',
  },
};

/** Fields every request may carry besides its command's. */
export const COMMON_FIELDS = {
  cmd: { enum: Object.keys(COMMANDS), description: 'the command' },
  id: { anyOf: [{ type: 'string', maxLength: 64 }, { type: 'integer' }], description: 'a caller\'s request id, echoed in the answer' },
};
