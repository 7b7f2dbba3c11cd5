// The client of axsnap's message protocol for web pages. It finds the way to
// the extension (a localhost page's externally_connectable port, else the
// bridge content script's window.postMessage channel), numbers requests,
// times them out, turns failures into AxsnapError with the protocol's code,
// and hands the port's events to listeners. It adds no command of its own:
// every request goes to the extension as written, and every answer comes back
// as the extension wrote it (the types are the protocol's, generated from
// protocol/protocol.js).

import type {
  ActRequest, Answer, ChangeEvent, Command, Commands, EndedEvent, ErrorCode, Failure, HelloResult, PortEvent, RequestId,
  SnapshotOptions, WatchRequest,
} from './protocol.js';

export type * from './protocol.js';

/** The extension's id (pinned by its manifest key). */
export const EXTENSION_ID = 'igfmikjflpmjjplejblhobglmclempkh';

/** The successful answer to a request of command C, exactly as the extension sends it. */
export type Success<C extends Command> = Extract<Answer<C>, { ok: true }>;

/**
 * A request of a command these types do not know yet (a newer extension's):
 * passed through as it is. A known command must match its own type.
 */
export interface UntypedRequest<C extends string = string> { cmd: C extends Command ? never : C; id?: RequestId; [field: string]: unknown }

export interface ConnectOptions {
  /** How to reach the extension: `auto` (default) tries `external`, then `bridge`. */
  via?: 'auto' | 'external' | 'bridge';
  /** The extension's id, for `external` (default: axsnap's). */
  extensionId?: string;
  /** How long to look for the bridge, in ms (default 1500). */
  probeTimeout?: number;
  /** How long a request may take before it fails with `timeout`, in ms (default 30000). */
  timeout?: number;
}

export interface RequestOptions {
  /** This request's time limit in ms (default: the client's). */
  timeout?: number;
  /** Gives up on the answer: the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** A request refused or failed: `code` is the protocol's error code. */
export class AxsnapError extends Error {
  readonly code: ErrorCode;
  /** Facts the error carries beside code and message (a dialog's type and text). */
  readonly details: Record<string, unknown>;
  /** The failure as the extension answered it; absent when the client itself gave up (timeout, disconnected). */
  readonly answer?: Failure;

  constructor(code: ErrorCode, message: string, answer?: Failure) {
    super(message);
    this.name = 'AxsnapError';
    this.code = code;
    const { code: _c, message: _m, ...details } = answer?.error ?? { code, message };
    this.details = details;
    this.answer = answer;
  }
}

/** One way to the extension: sends requests, reports what comes back. */
interface Transport {
  readonly via: 'external' | 'bridge';
  send(msg: object): void;
  close(): void;
}

type Incoming = (data: unknown) => void;

const DEFAULT_TIMEOUT = 30000;
/** Navigation commands wait up to their own `timeout` in the extension: give them that and a margin. */
const MARGIN = 5000;

let clients = 0;

/**
 * Finds the extension and shakes hands (`hello`). Resolves once the extension
 * answered, whatever the person decided about this site (see `access`);
 * rejects with `consent_required` when no way to it exists from this page (no
 * extension, or a site off localhost that the person has not let connect).
 */
export async function connect(options: ConnectOptions = {}): Promise<Client> {
  const via = options.via ?? 'auto';
  const tried: string[] = [];
  if (via !== 'bridge') {
    const client = await attempt(external(options.extensionId ?? EXTENSION_ID), options);
    if (client) return client;
    tried.push('externally_connectable');
  }
  if (via !== 'external') {
    const client = await attempt(bridge(options.probeTimeout ?? 1500), options);
    if (client) return client;
    tried.push('the bridge');
  }
  throw new AxsnapError('consent_required', `axsnap is not reachable from this page (tried ${tried.join(' and ')}): `
    + 'install the axsnap extension, then in its side panel open Sites and choose "Let this tab\'s site connect"');
}

/** A client over one transport, once `hello` was answered; null when the transport is not there. */
async function attempt(open: (incoming: Incoming) => Promise<Transport | null>, options: ConnectOptions): Promise<Client | null> {
  const client = new Client(options.timeout ?? DEFAULT_TIMEOUT);
  const transport = await open((data) => client.receive(data)).catch(() => null);
  if (!transport) return null;
  client.use(transport);
  try {
    await client.hello();
    return client;
  } catch (e) {
    client.close();
    // Refusals mean the extension is there and answering: anything else (no answer, no port) means try elsewhere.
    if (e instanceof AxsnapError && e.answer) throw e;
    return null;
  }
}

/** externally_connectable: a port straight to the extension (pages on 127.0.0.1 and localhost). */
function external(extensionId: string): (incoming: Incoming) => Promise<Transport | null> {
  return async (incoming) => {
    const runtime = (globalThis as any).chrome?.runtime;
    if (!runtime?.connect) return null;
    let port: any = null;
    let closed = false;
    const open = () => {
      port = runtime.connect(extensionId);
      port.onMessage.addListener(incoming);
      port.onDisconnect.addListener(() => {
        void runtime.lastError; // read, so Chrome does not log it as unchecked
        port = null;
        if (!closed) incoming({ ok: false, event: 'disconnected' });
      });
    };
    return {
      via: 'external',
      // A dropped port (extension reloaded, site revoked) is opened again by the next request.
      send: (msg) => { if (!port) open(); port.postMessage(msg); },
      close: () => { closed = true; port?.disconnect(); port = null; },
    };
  };
}

/** The bridge content script: window.postMessage to and from this page's own window. */
function bridge(probeTimeout: number): (incoming: Incoming) => Promise<Transport | null> {
  return (incoming) => new Promise((resolve) => {
    const w = globalThis.window;
    if (!w?.postMessage) return resolve(null);
    let found = false;
    // The document's own origin: opaque ("null") in a sandboxed frame, where postMessage needs '*'.
    const origin = w.origin;
    const target = origin === 'null' ? '*' : origin;
    const listen = (e: MessageEvent) => {
      // Only what this window posted to itself: another frame or window can post here, but not as us.
      if (e.source !== w || e.origin !== origin) return;
      const d = e.data;
      if (!d || typeof d !== 'object') return;
      if (d.axsnap === 'bridge' && !found) { found = true; clearTimeout(timer); resolve(transport); }
      if (d.axsnap === 'answer') incoming(d.answer);
      if (d.axsnap === 'event') incoming(d.event);
    };
    const transport: Transport = {
      via: 'bridge',
      send: (msg) => w.postMessage({ axsnap: 'request', msg }, target),
      close: () => w.removeEventListener('message', listen),
    };
    const timer = setTimeout(() => { transport.close(); resolve(null); }, probeTimeout);
    w.addEventListener('message', listen);
    w.postMessage({ axsnap: 'probe' }, target);
  });
}

interface Pending {
  resolve: (answer: any) => void;
  reject: (error: unknown) => void;
  timer: ReturnType<typeof setTimeout>;
  cleanup: () => void;
  id?: RequestId;
}

/** A subscription to a tab's changes (`Client.watch`). */
export interface Subscription {
  /** The answer to `watch`: its id (`watch`) and the snapshot it starts from. */
  first: Success<'watch'>;
  /** Ends it (`unwatch`); no more events of it reach the listener. */
  stop(): Promise<void>;
}

type Omit2<T, K extends keyof any> = T extends unknown ? Omit<T, K> : never;

/** A connection to axsnap. Make one with `connect()`. */
export class Client {
  /** How it reaches the extension. */
  via: 'external' | 'bridge' = 'bridge';
  /** The latest `hello` answer: protocol version, and what this site may do now. */
  info: Success<'hello'> | null = null;
  private transport: Transport | null = null;
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<(event: PortEvent) => void>();
  private readonly prefix = `ax${Math.random().toString(36).slice(2, 8)}${++clients}.`;
  private next = 0;
  private closed = false;

  /** @internal */
  constructor(private readonly timeout: number) {}

  /** @internal */
  use(transport: Transport) {
    this.transport = transport;
    this.via = transport.via;
  }

  /** The person's answer for this site: `none` (asked in the panel now), `once`, `always`, `denied` or `revoked`. */
  get access(): HelloResult['access'] | undefined {
    return this.info?.access;
  }

  /**
   * Sends one protocol request and resolves with the extension's answer as it
   * is (`{ok: true, ...}`), or rejects with an AxsnapError carrying its code.
   */
  request<C extends Command>(req: Commands[C]['request'] & { cmd: C }, options?: RequestOptions): Promise<Success<C>>;
  request<C extends string>(req: UntypedRequest<C>, options?: RequestOptions): Promise<{ ok: true; id?: RequestId; [field: string]: unknown }>;
  request(req: { cmd: string; id?: RequestId; [field: string]: unknown }, options: RequestOptions = {}): Promise<any> {
    if (this.closed || !this.transport) return Promise.reject(new AxsnapError('disconnected', 'this client is closed: connect() again'));
    const transport = this.transport;
    const key = `${this.prefix}${++this.next}`;
    const own = Object.prototype.hasOwnProperty.call(req, 'id');
    const waits = typeof req.timeout === 'number' ? req.timeout + MARGIN : 0;
    const limit = Math.max(options.timeout ?? this.timeout, waits);
    return new Promise((resolve, reject) => {
      const { signal } = options;
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => this.settle(key)?.reject(signal!.reason);
      signal?.addEventListener('abort', onAbort, { once: true });
      const timer = setTimeout(() => {
        this.settle(key)?.reject(new AxsnapError('timeout', `no answer to ${req.cmd} within ${limit} ms`));
      }, limit);
      this.pending.set(key, { resolve, reject, timer, id: own ? req.id : undefined, cleanup: () => signal?.removeEventListener('abort', onAbort) });
      try {
        transport.send({ ...req, id: key });
      } catch (e) {
        this.settle(key)?.reject(new AxsnapError('disconnected', `could not reach the extension: ${(e as Error)?.message ?? e}`));
      }
    });
  }

  /** The handshake again: protocol version, access and reachable tabs now (also kept in `info`). */
  async hello(options?: RequestOptions): Promise<Success<'hello'>> {
    this.info = await this.request({ cmd: 'hello' }, options);
    return this.info;
  }

  /** A snapshot of a tab (default: this page's own), with refs to act on. */
  snapshot(options: SnapshotOptions & { tabId?: number } = {}, request?: RequestOptions): Promise<Success<'snapshot'>> {
    const { tabId, ...rest } = options;
    return this.request({ cmd: 'snapshot', ...(tabId === undefined ? {} : { tabId }), options: rest }, request);
  }

  /** One action on an element by ref: `ax.act({ref: 'A4', action: 'click'})`. */
  act(action: Omit2<ActRequest, 'cmd'>, options?: RequestOptions): Promise<Success<'act'>> {
    return this.request({ cmd: 'act', ...action } as ActRequest, options);
  }

  /** Where a ref points: its frame, DOM node, role, name and a link's full URL. */
  resolve(ref: string, tabId?: number, options?: RequestOptions): Promise<Success<'resolve'>> {
    return this.request({ cmd: 'resolve', ref, ...(tabId === undefined ? {} : { tabId }) }, options);
  }

  /** The tabs this site may reach: its own, and those the person shared with it. */
  async tabs(options?: RequestOptions) {
    const answer = await this.request({ cmd: 'tabs', action: 'list' }, options);
    return (answer as Extract<typeof answer, { tabs: unknown }>).tabs;
  }

  /**
   * Subscribes to a tab's changes (`watch`): resolves with the snapshot it
   * starts from; `listener` then gets a `change` event each time the tab
   * changes (the diff where the extension makes diffs) and an `ended` event
   * if the extension ends it (tab closed, access lost). `stop()` ends it.
   */
  async watch(request: Omit<WatchRequest, 'cmd'> = {}, listener: (event: ChangeEvent | EndedEvent) => void = () => {},
    options?: RequestOptions): Promise<Subscription> {
    const first = await this.request({ cmd: 'watch', ...request }, options);
    const off = this.on((e) => {
      if ((e.event !== 'change' && e.event !== 'ended') || e.watch !== first.watch) return;
      if (e.event === 'ended') off();
      listener(e);
    });
    return {
      first,
      stop: async () => {
        off();
        await this.request({ cmd: 'unwatch', watch: first.watch }).catch(() => {});
      },
    };
  }

  /**
   * Waits until the person allowed this site (the panel asks them), asking
   * again every `every` ms. Rejects with `denied` or `revoked` at once when
   * that is the answer, `timeout` when none came in time.
   */
  async untilAllowed({ timeout = 120000, every = 1000, signal }: { timeout?: number; every?: number; signal?: AbortSignal } = {}): Promise<Success<'hello'>> {
    const end = Date.now() + timeout;
    for (;;) {
      const info = await this.hello({ signal });
      if (info.access === 'once' || info.access === 'always' || info.access === 'extension') {
        if (info.commands.includes('snapshot')) return info;
      }
      if (info.access === 'denied' || info.access === 'revoked') {
        throw new AxsnapError(info.access, `the person ${info.access} this site's access to axsnap`);
      }
      if (Date.now() + every > end) throw new AxsnapError('timeout', `the person did not allow this site within ${timeout} ms`);
      await new Promise((r) => setTimeout(r, every));
    }
  }

  /** Calls `listener` with each event the port pushes; returns the function that stops it. */
  on(listener: (event: PortEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The port's events as an async stream; it ends when the client closes or `signal` aborts. */
  async *events({ signal }: { signal?: AbortSignal } = {}): AsyncGenerator<PortEvent, void, undefined> {
    const queue: PortEvent[] = [];
    let wake: (() => void) | null = null;
    const stop = this.on((e) => { queue.push(e); wake?.(); });
    const onAbort = () => wake?.();
    signal?.addEventListener('abort', onAbort);
    try {
      while (!this.closed && !signal?.aborted) {
        if (queue.length) { yield queue.shift()!; continue; }
        await new Promise<void>((r) => { wake = r; });
        wake = null;
      }
    } finally {
      stop();
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Stops listening and fails requests still waiting with `disconnected`. */
  close() {
    if (this.closed) return;
    this.closed = true;
    this.failAll('disconnected', 'the client was closed');
    this.transport?.close();
    for (const l of this.listeners) l({ ok: false, event: 'disconnected' });
    this.listeners.clear();
  }

  /** @internal  Everything the transport hears: answers to our requests, and events. */
  receive(data: unknown) {
    if (!data || typeof data !== 'object') return;
    const d = data as Record<string, any>;
    if (typeof d.event === 'string' && !('id' in d)) return this.event(d as PortEvent);
    if (typeof d.id !== 'string' || !d.id.startsWith(this.prefix)) return; // another client's answer in this page
    const p = this.settle(d.id);
    if (!p) return;
    const answer: Record<string, any> = { ...d };
    if (p.id === undefined) delete answer.id;
    else answer.id = p.id;
    if (answer.ok === true) {
      p.resolve(answer);
    } else {
      const error = answer.error && typeof answer.error === 'object' ? answer.error : { code: 'internal', message: 'malformed answer' };
      p.reject(new AxsnapError(error.code, error.message, answer as Failure));
    }
  }

  private event(e: PortEvent) {
    if (e.event === 'closed') this.failAll(e.error.code, e.error.message);
    if (e.event === 'disconnected') this.failAll('disconnected', 'the port to the extension dropped while the request ran; it may or may not have been done');
    for (const l of this.listeners) {
      try { l(e); } catch { /* a listener's failure is its own */ }
    }
  }

  private settle(key: string): Pending | undefined {
    const p = this.pending.get(key);
    if (!p) return undefined;
    this.pending.delete(key);
    clearTimeout(p.timer);
    p.cleanup();
    return p;
  }

  private failAll(code: ErrorCode, message: string) {
    for (const key of [...this.pending.keys()]) this.settle(key)?.reject(new AxsnapError(code, message));
  }
}
