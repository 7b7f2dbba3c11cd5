// The package's types: every request and answer is the protocol's own
// (generated from protocol/protocol.js, copied beside this file by the build).
import type {
  Action, ActRequest, ActResult, Command, Commands, ErrorCode, ResetResult, ResolveResult, SnapshotOptions, SnapshotResult,
  Wait_forRequest, Wait_forResult,
} from './protocol.js';

export type * from './protocol.js';

/** A failed request: the protocol's stable `code`, a message that says what to do next, and any facts it carries. */
export declare class AxsnapError extends Error {
  readonly code: ErrorCode;
  /** Facts beside code and message (a dialog's type and text). */
  readonly details: Record<string, unknown>;
}

/** The fields of an action beside its ref, action and value (`snapshot`, `to`, `key`…). */
export type ActMore<A extends Action> = Omit<Extract<ActRequest, { action: A }>, 'cmd' | 'id' | 'tabId' | 'action' | 'ref' | 'value'>;
type ValueOf<A extends Action> = Extract<ActRequest, { action: A }> extends { value?: infer V } ? V : never;
type Without<R> = R extends unknown ? Omit<R, 'tabId'> : never;

/** The commands on one page; tabs, navigation and subscriptions are the program's own (page.goto, newPage). */
export type PageCommand = Extract<Command, 'ping' | 'snapshot' | 'act' | 'resolve' | 'wait_for' | 'reset'>;

/** A page axsnap is attached to. */
export interface Attached {
  /** The page as text with refs (`A7`), its refs' facts, the page and the stats. */
  snapshot(options?: SnapshotOptions): Promise<SnapshotResult>;
  /** An action on a ref (null: on the page, for keys and scrolling), checked, done and settled as in the extension. */
  act<A extends Action>(ref: string | null, action: A, value?: ValueOf<A>, more?: Partial<ActMore<A>>): Promise<ActResult>;
  /** What a ref names. */
  resolve(ref: string): Promise<ResolveResult>;
  /** Waits until the page shows or stops showing a text, a ref's element is gone, or the URL contains a string. */
  waitFor(condition: Omit<Wait_forRequest, 'cmd' | 'id' | 'tabId'>): Promise<Wait_forResult>;
  /** Forgets the refs held for this page. */
  reset(): Promise<ResetResult>;
  /** A protocol request on this page, as written: ping, snapshot, act, resolve, wait_for or reset (others: `bad_request`). */
  request<C extends PageCommand>(msg: Without<Commands[C]['request']>): Promise<Commands[C]['result']>;
  /** Ends axsnap's hold on the page; the page stays open. */
  detach(): Promise<void>;
}

/** A Playwright Page or a Puppeteer Page: anything that opens a CDPSession of its own target. */
export type PageLike =
  | { context(): { newCDPSession(page: any): Promise<unknown> } }
  | { createCDPSession(): Promise<unknown> };

/** Attaches axsnap to a page of any Chromium: launched, or reached over CDP (connectOverCDP, puppeteer.connect). */
export declare function attach(page: PageLike): Promise<Attached>;
