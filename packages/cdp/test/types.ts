// Type tests of the built package: what a caller writes compiles, and what the protocol forbids does not.
import { attach, AxsnapError, type Attached, type SnapshotResult } from '../dist/index.js';

declare const page: { context(): { newCDPSession(page: any): Promise<unknown> } };

async function use(): Promise<void> {
  const ax: Attached = await attach(page);
  const snap: SnapshotResult = await ax.snapshot({ mode: 'interactive', maxChars: 4000 });
  const text: string = snap.text;
  await ax.act('A1', 'fill', 'hello', { snapshot: { diff: true } });
  await ax.act('A2', 'click');
  await ax.act(null, 'press', 'Enter');
  await ax.waitFor({ text, timeout: 1000 });
  await ax.request({ cmd: 'resolve', ref: 'A1' });
  // @ts-expect-error navigation is the program's own (page.goto)
  await ax.request({ cmd: 'navigate', url: 'https://example.com' });
  // @ts-expect-error no such action
  await ax.act('A1', 'smash');
  // @ts-expect-error a snapshot option that does not exist
  await ax.snapshot({ colour: 'blue' });
  try {
    await ax.resolve('A9');
  } catch (e) {
    if (e instanceof AxsnapError) {
      const code: string = e.code;
      void code;
    }
  }
}
void use;
