// Type tests of the published package (dist/): compiled, never run. Each
// line marked as an expected error must fail to type-check, so the types stay as strict
// as the protocol.
import { connect, AxsnapError, type ErrorCode, type PortEvent, type SnapshotResult } from '../dist/index.js';

export async function typed() {
  const ax = await connect();
  const snap = await ax.request({ cmd: 'snapshot', options: { mode: 'interactive' } });
  const text: string = snap.text;
  const tokens: number = snap.stats.tokensEst;
  const ok: true = snap.ok;
  const also: SnapshotResult = await ax.snapshot({ tabId: 3, maxChars: 4000 });
  const act = await ax.request({ cmd: 'act', ref: 'A4', action: 'fill', value: 'x' });
  const done: string = act.action;
  await ax.act({ ref: 'A2', action: 'check' });
  const dragged = await ax.act({ ref: 'A5', action: 'drag', to: 'A9' });
  const how: 'html5' | 'mouse' | undefined = dragged.dragged;
  void how;
  const resolved = await ax.resolve('A2');
  const url: string | undefined = resolved.url;
  for (const t of await ax.tabs()) { const id: number = t.tabId; void id; }
  // A command newer than these types passes through, untyped.
  const waited = await ax.request({ cmd: 'wait_for', text: 'Done', timeout: 5000 });
  const ms: number = waited.waitedMs;
  void ms;
  const later = await ax.request({ cmd: 'some_future_command', text: 'Done' });
  const anything: unknown = later.whatever;

  // @ts-expect-error  fill needs a value
  await ax.request({ cmd: 'act', ref: 'A4', action: 'fill' });
  // @ts-expect-error  a drag needs where to drop
  await ax.act({ ref: 'A5', action: 'drag' });
  // @ts-expect-error  not an option
  await ax.snapshot({ mode: 'everything' });
  // @ts-expect-error  the answer has no such field
  void snap.html;

  try {
    await ax.request({ cmd: 'resolve', ref: 'A9' });
  } catch (e) {
    if (e instanceof AxsnapError) {
      const code: ErrorCode = e.code;
      // @ts-expect-error  codes are the protocol's
      if (e.code === 'no_such_code') void code;
    }
  }
  const sub = await ax.watch({ tabId: 3, interval: 500, options: { mode: 'interactive' } }, (e) => {
    if (e.event === 'change') { const changes: string = e.text; void changes; } else { const why: ErrorCode = e.error.code; void why; }
  });
  const watchId: string = sub.first.watch;
  await sub.stop();
  // @ts-expect-error  unwatch names its subscription
  await ax.request({ cmd: 'unwatch' });
  void watchId;
  const stop = ax.on((e: PortEvent) => { if (e.event === 'closed') { const why: ErrorCode = e.error.code; void why; } });
  stop();
  for await (const e of ax.events()) if (e.event === 'disconnected') break;
  ax.close();
  return [text, tokens, ok, also, done, url, anything];
}
