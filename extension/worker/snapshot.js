// A snapshot of a tab: attach, read every frame's accessibility tree, find
// secret fields, serialize in the Wasm core. Times each stage.

import { attachTab, collectFrames } from './frames.js';
import { findSecrets } from './secrets.js';
import { tabState, saveTab } from './tabs.js';

/** Default character cap: what an agent reads per step unless it asks for more. */
export const DEFAULT_MAX_CHARS = 12000;
/** In capped output, link URLs longer than this are clipped (resolve gives them whole). */
export const DEFAULT_MAX_URL = 64;

/**
 * @param {number} tabId
 * @param {{mode?:string, format?:string, maxChars?:number, maxDepth?:number, maxText?:number, maxUrl?:number, root?:string, full?:boolean}} options
 */
export async function snapshot(tabId, options = {}) {
  const t0 = performance.now();
  await attachTab(tabId);
  const st = await tabState(tabId);
  const t1 = performance.now();
  const { frames, frameSessions, failed } = await collectFrames(tabId);
  const t2 = performance.now();
  const sensitive = await findSecrets(tabId, frames, frameSessions);
  const t3 = performance.now();
  const input = { frames };
  const maxChars = options.full ? 0 : (options.maxChars ?? DEFAULT_MAX_CHARS);
  const coreOptions = {
    mode: options.mode, format: options.format, maxDepth: options.maxDepth, maxText: options.maxText, root: options.root,
    maxChars, maxUrl: options.maxUrl ?? (maxChars > 0 ? DEFAULT_MAX_URL : 0),
  };
  const out = st.snapshotter.snapshot(input, sensitive, coreOptions);
  const t4 = performance.now();
  st.frameSessions = frameSessions;
  await saveTab(tabId);
  const round = (x) => Math.round(x * 10) / 10;
  return {
    text: out.text,
    stats: {
      ...out.stats,
      frames: frames.length,
      framesFailed: failed,
      secrets: sensitive.length,
      timings: { attachMs: round(t1 - t0), fetchMs: round(t2 - t1), secretsMs: round(t3 - t2), serializeMs: round(t4 - t3), totalMs: round(t4 - t0) },
    },
  };
}
