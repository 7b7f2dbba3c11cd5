// The axsnap message protocol, version 1: every request, answer and error code.
// Generated from protocol/protocol.js by scripts/protocol.mjs: do not edit.

export type ProtocolVersion = 1;

/** A caller's request id, echoed in the answer. */
export type RequestId = string | number;

/** Every error code, with its meaning. */
export type ErrorCode =
  /** malformed request: not an object, a missing or unknown field, a wrong value type */
  | "bad_request"
  /** the request is larger than 1 MB (an upload: its files larger than 10 MB together) */
  | "too_large"
  /** cmd is not a command of this protocol */
  | "unknown_command"
  /** the caller may not reach this tab, frame, ref or command */
  | "forbidden"
  /** the person has not allowed this site yet: the axsnap panel asks them now (Allow once, Always allow, Deny) */
  | "consent_required"
  /** the person denied this site access */
  | "denied"
  /** the person revoked this site's access (open ports are closed) */
  | "revoked"
  /** this site sent too many requests: wait a second and retry */
  | "rate_limited"
  /** an unknown snapshot option or a value it cannot take */
  | "bad_options"
  /** not a ref (refs look like A7) */
  | "bad_ref"
  /** the ref was never issued to this caller in this tab */
  | "unknown_ref"
  /** the element is gone (removed, or the page navigated): take a new snapshot */
  | "stale_ref"
  /** the element has no box on screen; nothing was done */
  | "not_visible"
  /** the screenshot's PNG is larger than 3 MB: take one of a single element instead */
  | "image_too_large"
  /** another element is at the point the press would hit (checked after the pointer moved there); nothing was clicked */
  | "obscured"
  /** the element moved or was covered between the button going down and coming up: the click went to another element (which the page may have acted on); take a new snapshot before clicking again */
  | "missed"
  /** the page moved the focus away from the element; nothing (more) was typed */
  | "focus_moved"
  /** the element is not a text field */
  | "not_fillable"
  /** the element is not a <select> */
  | "not_a_select"
  /** the <select> has no option with that value or label */
  | "no_such_option"
  /** the element is not a checkbox, radio or switch */
  | "not_checkable"
  /** the element is not an enabled <input type=file>, or it takes one file and was given more */
  | "not_a_file_input"
  /** the tab does not exist (closed?) */
  | "no_tab"
  /** the debugger was detached from the tab; the next request attaches again */
  | "detached"
  /** another debugger (DevTools) is attached to the tab */
  | "debugger_busy"
  /** Chrome allows no extension to read this page (chrome://, devtools://, view-source:, other extensions, the Web Store) */
  | "restricted_page"
  /** the tab has no earlier page to go back to */
  | "no_history"
  /** Chrome could not load the page and shows its error page instead (no such host, connection refused, …); error.tabId is the tab, and a snapshot reads that page */
  | "load_failed"
  /** this tab's refs could not be kept while the service worker was stopped: take a new snapshot */
  | "storage_full"
  /** the core could not read the accessibility tree */
  | "bad_input"
  /** Chrome refused a debugger command */
  | "cdp_error"
  /** a script in the page failed while acting */
  | "page_error"
  /** a wait ran out of time: a debugger call past its deadline (nothing more was done: try again), wait_for, an answer over the desktop-agents bridge, or a request of the client package (packages/client) */
  | "timeout"
  /** the page does not answer at all (a script that never yields, or a dialog in a tab sharing its process); nothing more was done */
  | "page_busy"
  /** a JavaScript dialog is open on the tab (error.dialog has its type and message): answer it with the dialog action */
  | "dialog_open"
  /** there is no dialog to answer on this tab */
  | "no_dialog"
  /** desktop agents (axsnap-mcp): the extension is not connected; the person turns on "Allow desktop agents" and pairs in the side panel */
  | "no_extension"
  /** the extension went away while the call ran (turned off, reloaded; for desktop agents, axsnap-mcp lost it); it may or may not have been done */
  | "disconnected"
  /** the person declined in the side panel: the step would have left the sites this co-pilot task or desktop agent may reach (a form sent to another site, a navigation, a new window); nothing was sent */
  | "declined"
  /** the step needs the person's OK in the side panel (it leaves the sites this co-pilot task or desktop agent may reach), and no side panel is open, or nobody answered in time; nothing was sent */
  | "confirmation_unavailable"
  /** a bug in axsnap: please report it */
  | "internal";

/** Snapshot options. */
export interface SnapshotOptions {
  /** `full` (everything a reader sees) or `interactive` (actionable nodes with their landmarks, headings, tables, menus) */
  mode?: "full" | "interactive";
  /** `text` or `json` (rows `[depth, role, name, props, ref]`) */
  format?: "text" | "json";
  /** cut on a line boundary to at most N characters; `0` = no cap */
  maxChars?: number;
  /** shorthand for `maxChars: 0` */
  full?: boolean;
  /** hide lines nested deeper than N; one line says how many were hidden */
  maxDepth?: number;
  /** clip each text and name to N characters */
  maxText?: number;
  /** clip link URLs longer than N characters (64 when the output is capped) */
  maxUrl?: number;
  /** snapshot only the part of the page around a ref from an earlier snapshot */
  root?: string;
  /** answer with what changed since the previous snapshot of this tab (same document and options), or the full snapshot saying why; the answer's `diff` says which */
  diff?: boolean;
  /** mark where the page leaves and enters the viewport with a line each time (`(below the fold)`, `(above the view)`, `(in view)`), in full snapshots too; capped snapshots always keep what is nearest the viewport */
  viewport?: boolean;
  /** read the whole accessibility tree again rather than only what changed since the previous snapshot (the answer is the same; `stats.fetch` says how it was read) */
  fresh?: boolean;
}

export type Action = "click" | "fill" | "type" | "press" | "select" | "check" | "uncheck" | "hover" | "drag" | "focus" | "scroll" | "dialog";

/** sizes and timings: what `snapshot` (and `watch`) measured. */
export type SnapshotStats = {
  /** refs in the output */
  refs: number;
  /** characters */
  chars: number;
  /** estimated tokens */
  tokensEst: number;
  /** lines */
  lines: number;
  /** accessibility nodes read */
  nodesIn: number;
  /** nodes printed */
  nodesOut: number;
  /** lines left out by the caps */
  truncatedLines: number;
  /** frames read */
  frames: number;
  /** frames that could not be read */
  framesFailed: Array<string>;
  /** frames too large to read whole, read as a window: how many elements each has, read, and left out above and below */
  framesPartial: Array<{
    frame: string;
    elements: number;
    read: number;
    above: number;
    below: number;
  }>;
  /** secret fields redacted */
  secrets: number;
  /** how the tree was read: `incremental` (only what changed since the previous snapshot, `changed` places, `nodesRead` nodes), else `reason` why it was read whole; with an incremental read, `clickFacts`: `updated` where the page changed or `read whole` */
  fetch: {
    incremental: boolean;
    reason: string;
    changed: number;
    nodesRead: number;
    next: string;
    [key: string]: unknown;
  };
  /** milliseconds per stage */
  timings: {
    attachMs: number;
    fetchMs: number;
    secretsMs: number;
    clickablesMs: number;
    serializeMs: number;
    totalMs: number;
    [key: string]: unknown;
  };
  [key: string]: unknown;
};

/** what a ref is, typed: guards decide from these facts, never from the printed text */
export type RefFact = {
  /** its role as the snapshot prints it (`button`, `link`, `textbox`, `clickable`, …) */
  role: string;
  /** its name (secrets cut out) */
  name: string;
  /** a link's full URL */
  url?: string;
  /** the field holds a secret of this kind: the model never types into it */
  secret?: "password" | "current-password" | "new-password" | "credit-card" | "one-time-code";
  /** it has the focus (keys pressed without a ref go to it) */
  focused?: boolean;
  /** the form the element belongs to (its `form` owner, else the form around it) */
  form?: {
    /** how it submits */
    method: "get" | "post" | "dialog";
    /** where it submits, in full (a submit button's `formaction` counts) */
    url?: string;
    /** the site it submits to (registrable domain by the Public Suffix List); `''` when not a web URL */
    site: string;
    /** pressing this element (or Enter in it) submits the form */
    submits?: boolean;
    /** the form holds a password, card or one-time-code field */
    secret: boolean;
  };
};

/** the page an answer shows: its title, URL and site */
export type PageFact = {
  /** its title */
  title: string;
  /** its URL */
  url: string;
  /** its site (registrable domain by the Public Suffix List) */
  site: string;
};

/** the compact text (or JSON) view of a tab, with refs to act on */
export interface SnapshotRequest {
  cmd: "snapshot";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** snapshot options */
  options?: SnapshotOptions;
}

export interface SnapshotResult {
  /** the tab */
  tabId: number;
  /** the snapshot */
  text: string;
  /** sizes and timings */
  stats: SnapshotStats;
  /** for each ref the text shows, what it is (`RefFact`) */
  refs: Record<string, RefFact>;
  /** the page an answer shows: its title, URL and site */
  page: PageFact;
  /** with `options.diff`: `full: false` when `text` holds what changed, else the whole page and `reason` */
  diff?: {
    /** `text` is the whole page */
    full: boolean;
    /** why the whole page was sent */
    reason: string;
    /** lines added */
    added: number;
    /** lines removed */
    removed: number;
    /** lines changed */
    changed: number;
    /** a modal dialog closed (its line's words, `dialog "New project"`): the diff compares with the page as it was before the dialog opened */
    closed: string;
  };
}

export interface ActRequest_Click {
  cmd: "act";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** click the element's centre (refused when hidden or covered) */
  action: "click";
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref: string;
  /** after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller's previous snapshot */
  snapshot?: SnapshotOptions;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}
export interface ActRequest_Fill {
  cmd: "act";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** replace the field's value; fires input and change */
  action: "fill";
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref: string;
  /** the new value */
  value: string;
  /** after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller's previous snapshot */
  snapshot?: SnapshotOptions;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}
export interface ActRequest_Type {
  cmd: "act";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** type key by key at the caret */
  action: "type";
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref: string;
  /** the text to type */
  value: string;
  /** after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller's previous snapshot */
  snapshot?: SnapshotOptions;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}
export interface ActRequest_Press {
  cmd: "act";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** press one key, in the element or (without a ref) where the focus is */
  action: "press";
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref?: string;
  /** `Enter`, `Tab`, `Escape`, `Backspace`, `Delete`, an arrow, `Home`, `End`, `PageUp`, `PageDown`, `Space`, or one character */
  value: string;
  /** after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller's previous snapshot */
  snapshot?: SnapshotOptions;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}
export interface ActRequest_Select {
  cmd: "act";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** choose an option of a `<select>` */
  action: "select";
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref: string;
  /** an option's value or label */
  value: string;
  /** after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller's previous snapshot */
  snapshot?: SnapshotOptions;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}
export interface ActRequest_Check {
  cmd: "act";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** make a checkbox, radio or switch checked */
  action: "check";
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref: string;
  /** after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller's previous snapshot */
  snapshot?: SnapshotOptions;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}
export interface ActRequest_Uncheck {
  cmd: "act";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** make a checkbox or switch unchecked */
  action: "uncheck";
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref: string;
  /** after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller's previous snapshot */
  snapshot?: SnapshotOptions;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}
export interface ActRequest_Hover {
  cmd: "act";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** move the mouse over the element */
  action: "hover";
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref: string;
  /** after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller's previous snapshot */
  snapshot?: SnapshotOptions;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}
export interface ActRequest_Drag {
  cmd: "act";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** drag the element onto another one: press at its centre, move past the pages' drag thresholds to the target's centre, release (refused when either is hidden or covered) */
  action: "drag";
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref: string;
  /** after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller's previous snapshot */
  snapshot?: SnapshotOptions;
  /** the ref to drop it on, like `A9` (in the same frame) */
  to: string;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}
export interface ActRequest_Focus {
  cmd: "act";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** focus the element */
  action: "focus";
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref: string;
  /** after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller's previous snapshot */
  snapshot?: SnapshotOptions;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}
export interface ActRequest_Scroll {
  cmd: "act";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** scroll the page or the element; with a ref and no value, scroll it into view */
  action: "scroll";
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref?: string;
  /** `"up"`, `"down"` or pixels (down is positive; at most 100,000 per call) */
  value?: "up" | "down" | number;
  /** after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller's previous snapshot */
  snapshot?: SnapshotOptions;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}
export interface ActRequest_Dialog {
  cmd: "act";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** answer the tab's JavaScript dialog (alert, confirm, prompt, beforeunload) */
  action: "dialog";
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** `"accept"` or `"dismiss"` */
  value: "accept" | "dismiss";
  /** after acting, wait until the page settles (bounded) and answer with this snapshot of it: `{diff: true}` for what changed since this caller's previous snapshot */
  snapshot?: SnapshotOptions;
  /** a prompt's answer */
  text?: string;
}
/** act on an element by ref; with `snapshot`, wait until the page settles and answer with its snapshot (or what changed) */
export type ActRequest = ActRequest_Click | ActRequest_Fill | ActRequest_Type | ActRequest_Press | ActRequest_Select | ActRequest_Check | ActRequest_Uncheck | ActRequest_Hover | ActRequest_Drag | ActRequest_Focus | ActRequest_Scroll | ActRequest_Dialog;

export interface ActResult {
  /** the action done */
  action: "click" | "fill" | "type" | "press" | "select" | "check" | "uncheck" | "hover" | "drag" | "focus" | "scroll" | "dialog";
  /** the ref acted on */
  ref?: string;
  /** the label of the option chosen */
  selected?: string;
  /** the state now */
  checked?: boolean;
  /** the ref dropped on */
  to?: string;
  /** `html5`: the page started an HTML5 drag (`draggable`), finished with dragover and drop at the target; `mouse`: a press, moves and a release (pointer-driven lists and boards) */
  dragged?: "html5" | "mouse";
  /** the pixels scrolled */
  deltaY?: number;
  /** whether the dialog was accepted */
  accepted?: boolean;
  /** the dialog answered; any action whose last step opened one (a `confirm()` in a click handler) says which here */
  dialog?: {
    /** alert, confirm, prompt or beforeunload */
    type: string;
    /** its message */
    message: string;
    /** the page that opened it */
    url: string;
    [key: string]: unknown;
  };
  /** with `snapshot`: how the wait for the page went */
  settled?: {
    /** from the action to the page settling (or the deadline) */
    ms: number;
    /** the action loaded a new page or changed the URL */
    navigated: boolean;
    /** the page settled; false: the deadline (5 s) came first and the snapshot shows the page as it was then */
    quiet: boolean;
  };
  /** with `snapshot`: the snapshot, or what changed */
  text?: string;
  /** sizes and timings */
  stats?: SnapshotStats;
  /** for each ref the text shows, what it is (`RefFact`) */
  refs?: Record<string, RefFact>;
  /** the page an answer shows: its title, URL and site */
  page?: PageFact;
  /** with `options.diff`: `full: false` when `text` holds what changed, else the whole page and `reason` */
  diff?: {
    /** `text` is the whole page */
    full: boolean;
    /** why the whole page was sent */
    reason: string;
    /** lines added */
    added: number;
    /** lines removed */
    removed: number;
    /** lines changed */
    changed: number;
    /** a modal dialog closed (its line's words, `dialog "New project"`): the diff compares with the page as it was before the dialog opened */
    closed: string;
  };
  /** with `snapshot`: why there is none (the action was done) */
  snapshotError?: {
    code: string;
    message: string;
  };
  /** guarded requests: what the page tried as the action ran and the network edge refused (a form sent, a navigation or a new window to a site not allowed, that the person declined or nobody could answer); the action itself was done */
  blocked?: Array<{
    /** the request's URL */
    url: string;
    /** its site */
    site: string;
    /** what it was */
    kind: "form" | "navigation" | "popup";
    /** the person declined, or nobody could answer */
    reason: "declined" | "confirmation_unavailable";
  }>;
  /** guarded requests: the sites the person allowed in the side panel during this request (the co-pilot adds them to its task's scope) */
  allowedSites?: Array<string>;
}

/** where a ref points: its frame, DOM node, role, name and a link's full URL */
export interface ResolveRequest {
  cmd: "resolve";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref: string;
}

export interface ResolveResult {
  /** the ref */
  ref: string;
  /** the DOM node (backendDOMNodeId) */
  backendNodeId: number;
  /** the frame */
  frame: string;
  /** its role */
  role: string;
  /** its name */
  name: string;
  /** a link's full URL */
  url?: string;
}

/** outline an element in the page until the next `highlight`, drawn by Chrome above the page (the page cannot see it); without `ref`, clear the outline. Not for web pages */
export interface HighlightRequest {
  cmd: "highlight";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** a ref from a snapshot, like `A7` */
  ref?: string;
}

export interface HighlightResult {
  /** the ref outlined */
  ref?: string;
}

/** forget the refs this caller holds for the tab */
export interface ResetRequest {
  cmd: "reset";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
}

export interface ResetResult {
}

export interface TabsRequest_List {
  cmd: "tabs";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** the tabs this caller may reach */
  action?: "list";
}
export interface TabsRequest_Open {
  cmd: "tabs";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** open a URL in a new tab and wait for it to load (bounded) */
  action: "open";
  /** an http or https URL */
  url: string;
  /** `open`: make the new tab active (default true) */
  active?: boolean;
  /** how long to wait for the page to load, in ms (at most 60000) */
  timeout?: number;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}
export interface TabsRequest_Switch {
  cmd: "tabs";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** make a tab the active one of its window, and its window the focused one */
  action: "switch";
  /** the tab to switch to or close */
  tabId: number;
}
export interface TabsRequest_Close {
  cmd: "tabs";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** close a tab */
  action: "close";
  /** the tab to switch to or close */
  tabId: number;
}
/** list, open, switch to or close tabs */
export type TabsRequest = TabsRequest_List | TabsRequest_Open | TabsRequest_Switch | TabsRequest_Close;

export type TabsResult =
  | {
    /** the tabs */
    tabs: Array<{
      /** the tab */
      tabId: number;
      /** its window */
      windowId: number;
      /** its title */
      title: string;
      /** its URL */
      url: string;
      /** whether it is the active tab of its window */
      active: boolean;
    }>;
  }
  | {
    /** the tab */
    tabId: number;
    /** its window */
    windowId: number;
    /** its title */
    title: string;
    /** its URL */
    url: string;
    /** whether it is the active tab of its window */
    active: boolean;
    /** whether the page finished loading within the timeout */
    loaded: boolean;
    /** guarded requests: the sites the person allowed in the side panel during this request (the co-pilot adds them to its task's scope) */
    allowedSites?: Array<string>;
  }
  | {
    /** the tab */
    tabId: number;
    /** its window */
    windowId: number;
    /** its title */
    title: string;
    /** its URL */
    url: string;
    /** whether it is the active tab of its window */
    active: boolean;
  }
  | {
    /** the tab closed */
    tabId: number;
  };

/** load a URL in a tab and wait for it (bounded) */
export interface NavigateRequest {
  cmd: "navigate";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** an http or https URL, or one relative to the tab's page as snapshots print links (`/docs`, `?page=2`, `//other.org/a`) */
  url: string;
  /** how long to wait for the page to load, in ms (at most 60000) */
  timeout?: number;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}

export interface NavigateResult {
  /** the tab */
  tabId: number;
  /** its window */
  windowId: number;
  /** its title */
  title: string;
  /** its URL */
  url: string;
  /** whether it is the active tab of its window */
  active: boolean;
  /** whether the page finished loading within the timeout */
  loaded: boolean;
  /** guarded requests: the sites the person allowed in the side panel during this request (the co-pilot adds them to its task's scope) */
  allowedSites?: Array<string>;
}

/** go back one page in a tab's history and wait for it (bounded) */
export interface BackRequest {
  cmd: "back";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** how long to wait for the page to load, in ms (at most 60000) */
  timeout?: number;
}

export interface BackResult {
  /** the tab */
  tabId: number;
  /** its window */
  windowId: number;
  /** its title */
  title: string;
  /** its URL */
  url: string;
  /** whether it is the active tab of its window */
  active: boolean;
  /** whether the page finished loading within the timeout */
  loaded: boolean;
}

/** wait until a text appears or is gone, a ref's element goes, or the URL contains a string (bounded) */
export interface Wait_forRequest {
  cmd: "wait_for";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** wait until the page shows this text (as a snapshot shows it) */
  text?: string;
  /** wait until the page no longer shows this text */
  textGone?: string;
  /** wait until this ref's element is gone: removed, hidden, or the page navigated */
  refGone?: string;
  /** wait until the tab's URL contains this */
  url?: string;
  /** give up after this many ms with a `timeout` error (at most 60000) */
  timeout?: number;
}

export interface Wait_forResult {
  /** how long it waited, in ms */
  waitedMs: number;
}

/** the handshake: protocol version, and what this caller may do now (a site not yet allowed is asked about in the panel) */
export interface HelloRequest {
  cmd: "hello";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
}

export interface HelloResult {
  /** the core's version */
  version: string;
  /** PROTOCOL_VERSION */
  protocol: number;
  /** the person's answer for this caller's origin (`none`: not asked yet; the prompt is queued) */
  access: "extension" | "none" | "once" | "always" | "denied" | "revoked";
  /** the commands this caller may use now */
  commands: Array<string>;
  /** the tabs this caller may reach now */
  tabs: Array<number>;
  /** what this extension can do beyond the commands (`FEATURES`): decide from this list, never from an error's words */
  features: Array<"diff" | "act-snapshot" | "facts" | "wait-for">;
}

/** is the extension there, and which version */
export interface PingRequest {
  cmd: "ping";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
}

export interface PingResult {
  /** the core's version */
  version: string;
  /** PROTOCOL_VERSION */
  protocol: number;
}

/** over a long-lived port: the tab's snapshot now, then a `change` event each time it changes (the diff where the extension makes diffs), at most one per `interval` ms, until `unwatch`, the tab closes, the site loses access or the port closes */
export interface WatchRequest {
  cmd: "watch";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** snapshot options of every snapshot it takes */
  options?: SnapshotOptions;
  /** the least time between two looks at the tab, in ms */
  interval?: number;
}

export interface WatchResult {
  /** the subscription, as `watch` named it */
  watch: string;
  /** the tab */
  tabId: number;
  /** the snapshot */
  text: string;
  /** sizes and timings */
  stats: SnapshotStats;
  /** for each ref the text shows, what it is (`RefFact`) */
  refs: Record<string, RefFact>;
  /** the page an answer shows: its title, URL and site */
  page: PageFact;
}

/** a PNG of the tab's viewport, or of one element by ref (scrolled into view; only its part on screen); secret fields (passwords, cards, one-time codes) are painted over as the snapshot cuts them */
export interface ScreenshotRequest {
  cmd: "screenshot";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** the element to capture, like `A7`; default: the whole viewport */
  ref?: string;
}

export interface ScreenshotResult {
  /** the tab */
  tabId: number;
  /** the element captured */
  ref?: string;
  /** always `image/png` */
  mimeType: "image/png";
  /** the PNG, base64 */
  data: string;
  /** its width in pixels */
  width: number;
  /** its height in pixels */
  height: number;
  /** secret fields painted over */
  masked: number;
  /** the element is larger than the viewport or partly off screen: only its part on screen is shown */
  clipped: boolean;
}

/** put files into a file input by ref, as if the person had picked them: the bytes travel in the request (never a path; 10 MB together at most), then the input fires input and change. Guarded callers: what the page then sends to another site is held as for `act` */
export interface UploadRequest {
  cmd: "upload";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** the tab; default: the caller's tab (a web page's own tab, else the active tab) */
  tabId?: number;
  /** the `<input type=file>`, like `A7` */
  ref: string;
  /** the files, in order (one unless the input is `multiple`; an empty list clears it) */
  files: Array<{
    /** the file's name as the page sees it (no folder) */
    name: string;
    /** its type as the page sees it, like `application/pdf` (default: none) */
    mimeType?: string;
    /** its bytes, base64 */
    data: string;
  }>;
  /** the side panel's co-pilot: the sites its task may reach (registrable domains, `shop.example.co.uk`); a form sent, a navigation or a new window to another site is asked about in the side panel first, and refused when nobody can answer. Desktop agents are always guarded; the field is ignored for them and for web pages */
  guard?: {
    /** the allowed sites */
    sites?: Array<string>;
  };
}

export interface UploadResult {
  /** the tab */
  tabId: number;
  /** the input */
  ref: string;
  /** the names the input holds now */
  files: Array<string>;
  /** their size together */
  bytes: number;
  /** guarded requests: what the page tried as the action ran and the network edge refused (a form sent, a navigation or a new window to a site not allowed, that the person declined or nobody could answer); the action itself was done */
  blocked?: Array<{
    /** the request's URL */
    url: string;
    /** its site */
    site: string;
    /** what it was */
    kind: "form" | "navigation" | "popup";
    /** the person declined, or nobody could answer */
    reason: "declined" | "confirmation_unavailable";
  }>;
  /** guarded requests: the sites the person allowed in the side panel during this request (the co-pilot adds them to its task's scope) */
  allowedSites?: Array<string>;
}

/** end a subscription of this port */
export interface UnwatchRequest {
  cmd: "unwatch";
  /** a caller's request id, echoed in the answer */
  id?: RequestId;
  /** the subscription, as `watch` named it */
  watch: string;
}

export interface UnwatchResult {
}

/** Every command: its request and the fields of its successful answer. */
export interface Commands {
  snapshot: { request: SnapshotRequest; result: SnapshotResult };
  act: { request: ActRequest; result: ActResult };
  resolve: { request: ResolveRequest; result: ResolveResult };
  highlight: { request: HighlightRequest; result: HighlightResult };
  reset: { request: ResetRequest; result: ResetResult };
  tabs: { request: TabsRequest; result: TabsResult };
  navigate: { request: NavigateRequest; result: NavigateResult };
  back: { request: BackRequest; result: BackResult };
  wait_for: { request: Wait_forRequest; result: Wait_forResult };
  hello: { request: HelloRequest; result: HelloResult };
  ping: { request: PingRequest; result: PingResult };
  watch: { request: WatchRequest; result: WatchResult };
  screenshot: { request: ScreenshotRequest; result: ScreenshotResult };
  upload: { request: UploadRequest; result: UploadResult };
  unwatch: { request: UnwatchRequest; result: UnwatchResult };
}

export type Command = keyof Commands;
export type Request = Commands[Command]['request'];

export interface Failure {
  ok: false;
  id?: RequestId;
  /** Some errors carry facts to act on beside code and message (a dialog's type and text). */
  error: { code: ErrorCode; message: string; [fact: string]: unknown };
}

/** What a request of command C is answered with. */
export type Answer<C extends Command = Command> = ({ ok: true; id?: RequestId } & Commands[C]['result']) | Failure;

/** a watched tab changed: `text` says how (the diff since the previous event, or the whole snapshot) */
export interface ChangeEvent {
  ok: true;
  event: "change";
  /** the subscription, as `watch` named it */
  watch: string;
  /** the tab */
  tabId: number;
  /** the snapshot */
  text: string;
  /** sizes and timings */
  stats: SnapshotStats;
  /** for each ref the text shows, what it is (`RefFact`) */
  refs: Record<string, RefFact>;
  /** the page an answer shows: its title, URL and site */
  page: PageFact;
  /** with `options.diff`: `full: false` when `text` holds what changed, else the whole page and `reason` */
  diff?: {
    /** `text` is the whole page */
    full: boolean;
    /** why the whole page was sent */
    reason: string;
    /** lines added */
    added: number;
    /** lines removed */
    removed: number;
    /** lines changed */
    changed: number;
    /** a modal dialog closed (its line's words, `dialog "New project"`): the diff compares with the page as it was before the dialog opened */
    closed: string;
  };
}
/** a subscription ended without `unwatch`; no more events of it follow */
export interface EndedEvent {
  ok: false;
  event: "ended";
  /** the subscription, as `watch` named it */
  watch: string;
  /** why: `no_tab` (closed), `revoked`, `denied`, or the code of the snapshot that failed */
  error: { code: ErrorCode; message: string };
}
/** the person denied or revoked this site: the port closes right after */
export interface ClosedEvent {
  ok: false;
  event: "closed";
  /** why: `revoked` or `denied` */
  error: { code: ErrorCode; message: string };
}
/** the port to the extension dropped (the extension was reloaded or updated); requests in flight get no answer */
export interface DisconnectedEvent {
  ok: false;
  event: "disconnected";
}

/** What a long-lived port pushes without a request (never with an `id`). */
export type PortEvent = ChangeEvent | EndedEvent | ClosedEvent | DisconnectedEvent;
