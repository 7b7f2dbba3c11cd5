// A snapshot of a tab: attach, read the accessibility tree of every frame
// the caller may see, find secret fields, serialize in the Wasm core with the
// caller's ref table. Times each stage.

import { attachTab, collectFrames } from './frames.js';
import { findSecrets } from './secrets.js';
import { tabSession } from './session.js';
import { DEFAULT_MAX_CHARS, DEFAULT_MAX_URL } from '../../protocol/protocol.js';

/**
 * @param {number} tabId
 * @param {import('../../protocol/axsnap-protocol').SnapshotOptions} options
 * @param {{scope: string, keep?: (frames: any[]) => Set<string>|null}} caller
 *   whose ref table to use, and which frames it may see (default: all)
 */
export async function snapshot(tabId, options, { scope, keep }) {
  const t0 = performance.now();
  await attachTab(tabId);
  const session = await tabSession(tabId);
  const t1 = performance.now();
  const { frames, frameSessions, failed } = await collectFrames(tabId, keep);
  const t2 = performance.now();
  const sensitive = await findSecrets(tabId, frames, frameSessions);
  const t3 = performance.now();
  const maxChars = options.full ? 0 : (options.maxChars ?? DEFAULT_MAX_CHARS);
  const coreOptions = {
    mode: options.mode, format: options.format, maxDepth: options.maxDepth, maxText: options.maxText, root: options.root,
    maxChars, maxUrl: options.maxUrl ?? (maxChars > 0 ? DEFAULT_MAX_URL : 0),
  };
  const out = session.refs(scope, { snapshot: true }).snapshot({ frames }, sensitive, coreOptions);
  const t4 = performance.now();
  session.frameSessions = frameSessions;
  await session.save();
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
