// The client package's own logic, without a browser: finding a way in,
// matching answers to requests, errors, timeouts and events, over a stand-in
// chrome.runtime port and a stand-in window. That it works with the real
// extension is tests/e2e/client.test.mjs's job.
import { test, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildClient, CLIENT_DIST } from '../../scripts/client.mjs';

if (!existsSync(join(CLIENT_DIST, 'index.js'))) buildClient({ quiet: true });
const { connect, AxsnapError } = await import(join(CLIENT_DIST, 'index.js'));

/** A stand-in extension behind chrome.runtime.connect: `answer(msg)` makes each reply (or null for none). */
function fakeRuntime(answer, { absent = false } = {}) {
  const ports = [];
  globalThis.chrome = {
    runtime: {
      lastError: undefined,
      connect() {
        const listeners = { message: [], disconnect: [] };
        const port = {
          sent: [],
          onMessage: { addListener: (f) => listeners.message.push(f) },
          onDisconnect: { addListener: (f) => listeners.disconnect.push(f) },
          postMessage(msg) {
            port.sent.push(msg);
            const reply = answer(msg);
            if (reply) queueMicrotask(() => listeners.message.forEach((f) => f(reply)));
          },
          push: (m) => listeners.message.forEach((f) => f(m)),
          disconnect: () => listeners.disconnect.forEach((f) => f()),
        };
        ports.push(port);
        if (absent) setTimeout(() => port.disconnect(), 5);
        return port;
      },
    },
  };
  return ports;
}

const hello = (msg) => ({ ok: true, id: msg.id, version: '0.1.0', protocol: 1, access: 'always', commands: ['hello', 'snapshot'], tabs: [1] });

afterEach(() => {
  delete globalThis.chrome;
  delete globalThis.window;
});

test('connect: externally_connectable first; answers come back exactly as sent, with the caller\'s own id or none', async () => {
  const ports = fakeRuntime((msg) => (msg.cmd === 'hello' ? hello(msg) : { ok: true, id: msg.id, tabId: 1, text: 'page "x"', stats: { refs: 0 } }));
  const ax = await connect();
  assert.equal(ax.via, 'external');
  assert.equal(ax.access, 'always');
  assert.deepEqual(await ax.request({ cmd: 'snapshot' }), { ok: true, tabId: 1, text: 'page "x"', stats: { refs: 0 } });
  assert.equal((await ax.request({ cmd: 'snapshot', id: 7 })).id, 7);
  const sent = ports[0].sent.map((m) => m.id);
  assert.equal(new Set(sent).size, sent.length, 'every request has its own id');
  assert.ok(sent.every((id) => typeof id === 'string' && id.length <= 64), 'ids the protocol accepts');
  ax.close();
});

test('failures reject with AxsnapError carrying the protocol\'s code, facts and answer; other clients\' answers are ignored', async () => {
  const ports = fakeRuntime((msg) => (msg.cmd === 'hello' ? hello(msg)
    : { ok: false, id: msg.id, error: { code: 'page_error', message: 'a dialog is open', dialog: { type: 'alert' } } }));
  const ax = await connect();
  const e = await ax.request({ cmd: 'act', ref: 'A1', action: 'click' }).catch((x) => x);
  assert.ok(e instanceof AxsnapError);
  assert.equal(e.code, 'page_error');
  assert.equal(e.message, 'a dialog is open');
  assert.deepEqual(e.details, { dialog: { type: 'alert' } });
  assert.deepEqual(e.answer, { ok: false, error: { code: 'page_error', message: 'a dialog is open', dialog: { type: 'alert' } } });
  // An answer for someone else, and garbage: nothing happens.
  ports[0].push({ ok: true, id: 'someone-else.1' });
  ports[0].push(null);
  ports[0].push('text');
  ax.close();
});

test('timeouts, aborts, a dropped port and a revoke each end a waiting request with their code', async () => {
  const ports = fakeRuntime((msg) => (msg.cmd === 'hello' ? hello(msg) : null));
  const ax = await connect({ timeout: 50 });
  assert.equal((await ax.request({ cmd: 'snapshot' }).catch((x) => x)).code, 'timeout');
  assert.equal((await ax.request({ cmd: 'navigate', url: 'http://a.test/', timeout: 0 }, { timeout: 10 }).catch((x) => x)).code, 'timeout');
  const ctl = new AbortController();
  const aborted = ax.request({ cmd: 'snapshot' }, { signal: ctl.signal }).catch((x) => x);
  ctl.abort(new Error('stop'));
  assert.equal((await aborted).message, 'stop');

  const seen = [];
  ax.on((ev) => seen.push(ev.event));
  const revoked = ax.request({ cmd: 'snapshot' }, { timeout: 5000 }).catch((x) => x);
  ports[0].push({ ok: false, event: 'closed', error: { code: 'revoked', message: 'the person revoked this site' } });
  assert.equal((await revoked).code, 'revoked');
  const dropped = ax.request({ cmd: 'snapshot' }, { timeout: 5000 }).catch((x) => x);
  ports[0].disconnect();
  assert.equal((await dropped).code, 'disconnected');
  assert.deepEqual(seen, ['closed', 'disconnected']);
  // The next request opens a new port.
  ax.request({ cmd: 'ping' }, { timeout: 10 }).catch(() => {});
  assert.equal(ports.length, 2);
  ax.close();
  assert.equal((await ax.request({ cmd: 'ping' }).catch((x) => x)).code, 'disconnected');
});

test('no extension behind externally_connectable: the bridge; neither: consent_required', async () => {
  fakeRuntime(() => null, { absent: true });
  const win = new EventTarget();
  win.location = { origin: 'http://app.test' };
  win.origin = 'http://app.test';
  const posted = [];
  win.postMessage = (data) => {
    posted.push(data);
    const reply = data.axsnap === 'probe' ? { axsnap: 'bridge', protocol: 1 }
      : data.axsnap === 'request' ? { axsnap: 'answer', answer: hello(data.msg) } : null;
    // What this window posts to itself comes back with itself as the source; a reply is the bridge's post.
    queueMicrotask(() => win.dispatchEvent(Object.assign(new Event('message'), { data, source: win, origin: 'http://app.test' })));
    if (reply) queueMicrotask(() => win.dispatchEvent(Object.assign(new Event('message'), { data: reply, source: win, origin: 'http://app.test' })));
  };
  globalThis.window = win;
  const ax = await connect({ probeTimeout: 200 });
  assert.equal(ax.via, 'bridge');
  assert.equal(ax.access, 'always');
  // Another window's post (an iframe, an opener) is not this window's: ignored.
  const seen = [];
  ax.on((e) => seen.push(e));
  win.dispatchEvent(Object.assign(new Event('message'), { data: { axsnap: 'event', event: { ok: false, event: 'closed', error: { code: 'revoked' } } }, source: {}, origin: 'http://evil.test' }));
  assert.deepEqual(seen, []);
  ax.close();

  delete globalThis.window;
  const none = await connect({ probeTimeout: 50 }).catch((x) => x);
  assert.ok(none instanceof AxsnapError);
  assert.equal(none.code, 'consent_required');
  assert.match(none.message, /Let this tab's site connect/);
});

test('events(): an async stream of the port\'s events that ends when the client closes', async () => {
  const ports = fakeRuntime((msg) => (msg.cmd === 'hello' ? hello(msg) : null));
  const ax = await connect();
  const got = [];
  const done = (async () => { for await (const e of ax.events()) got.push(e.event); })();
  ports[0].push({ ok: false, event: 'closed', error: { code: 'denied', message: 'no' } });
  await new Promise((r) => setTimeout(r, 5));
  ax.close();
  await done;
  assert.deepEqual(got, ['closed']);
});
