// A snapshot of a tab: attach, read the accessibility tree of every frame
// the caller may see, the facts of its text fields and of the elements it
// makes clickable without a role, serialize in the Wasm
// core (which decides and redacts the secrets) with the caller's ref table.
// Times each stage.

import { attachTab, collectFrames } from './frames.js';
import { collectFacts, recall, remember } from './secrets.js';
import { learn, markSecret, typedFor } from './typed.js';
import { clickReads, collectClickables } from './clickables.js';
import { tabSession } from './session.js';
import { siteOf } from '../../protocol/site.js';
import { formFacts } from './form_facts.js';

/**
 * @param {number} tabId
 * @param {import('../../protocol/axsnap-protocol').SnapshotOptions} options  as validated by the router
 * @param {{scope: string, keep?: (frames: any[]) => Set<string>|null, forms?: boolean}} caller
 *   whose ref table to use, which frames it may see (default: all), and whether its refs need their forms'
 *   facts (default: yes; a wait or a subscription's look reads no refs, so they cost it nothing)
 */
export async function snapshot(tabId, options, { scope, keep, forms: withForms = true }) {
  const t0 = performance.now();
  await attachTab(tabId);
  const session = await tabSession(tabId);
  const t1 = performance.now();
  // `fresh` is the extension's (how to read the tree), not the core's.
  const { fresh, ...coreOptions } = options || {};
  // The click facts' reads of a session start as soon as its trees are asked for (clickables.js).
  const reads = clickReads(tabId);
  const { frames, frameSessions, failed, partial, fetch, changes } = await collectFrames(tabId, keep, rootElement(session, scope, options), { fresh, whole: reads.start });
  const t2 = performance.now();
  // Boxes only where the core uses them: a capped snapshot keeps what is near the viewport.
  const capped = !(options && (options.full || options.maxChars === 0));
  const boxes = capped || Boolean(options && options.viewport);
  let shadow = false;
  // What the last look's click facts were, for an incremental read to update (whatever happens, they are the page's no more).
  const since = { kept: fetch.incremental ? session.clickFacts : null, changes };
  session.clickFacts = null;
  const clicks = collectClickables(tabId, frames, frameSessions, { boxes }, since, reads).then((r) => {
    shadow = r.shadow;
    session.clickFacts = r.kept;
    if (fetch.incremental) fetch.clickFacts = r.updated ? 'updated' : 'read whole';
    return performance.now();
  });
  const { facts, seen } = await collectFacts(tabId, frames, frameSessions, session.secrets, session.typed.salt);
  learn(session.typed, frames.find((f) => !f.parent)?.document, seen);
  const t3 = performance.now();
  const tc = await clicks;
  if (shadow) {
    // A shadow root of the page's own (a closed one, which the watcher cannot see) holds changes no
    // watcher reports: this page is read whole, this time too if it was not.
    session.axTree = null;
    if (fetch.incremental) {
      const whole = await snapshot(tabId, { ...options, fresh: true }, { scope, keep, forms: withForms });
      whole.stats.fetch = { incremental: false, reason: 'a shadow root of the page\'s own' };
      return whole;
    }
  }
  // The core applies the extension's defaults (options.rs, Defaults::Agent).
  const out = session.refs(scope, { snapshot: true }).snapshot({ frames }, facts, coreOptions, typedFor(session.typed));
  const t4 = performance.now();
  session.frameSessions = frameSessions;
  await typedSecrets(tabId, session, frames, facts, out.secrets);
  session.secrets = remember(session.secrets, frames, out.secrets);
  const forms = withForms ? await formFacts(tabId, frames, frameSessions, out.refs) : new Map();
  await session.save();
  const round = (x) => Math.round(x * 10) / 10;
  return {
    text: out.text,
    refs: refFacts(out.refs, forms),
    page: { ...out.page, site: siteOf(out.page.url) },
    // With options.diff: {full, reason?, added, removed, changed}.
    ...(out.diff ? { diff: out.diff } : {}),
    stats: {
      ...out.stats,
      frames: frames.length,
      framesFailed: failed,
      framesPartial: partial,
      fetch,
      secrets: out.secrets.length,
      timings: { attachMs: round(t1 - t0), fetchMs: round(t2 - t1), secretsMs: round(t3 - t2), clickablesMs: round(tc - t2), serializeMs: round(t4 - Math.max(t3, tc)), totalMs: round(t4 - t0) },
    },
  };
}

/**
 * The core's facts of the refs shown, keyed by ref, as callers receive them
 * (`RefFact`): where an element lives in the DOM stays the extension's.
 * @param {Array<import('../../protocol/axsnap-protocol').RefFact & {ref: string, frame: string, backendNodeId: number, formNodeId?: number}>} list
 * @param {Map<string, any>} forms  the forms' facts (form_facts.js)
 */
function refFacts(list, forms) {
  /** @type {Record<string, import('../../protocol/axsnap-protocol').RefFact>} */
  const out = {};
  for (const { ref, frame, backendNodeId, formNodeId, ...fact } of list) {
    const form = formNodeId === undefined ? undefined : forms.get(`${frame} ${formNodeId}`);
    out[ref] = form ? { ...fact, form } : fact;
  }
  return out;
}

/**
 * The fingerprints of the secret fields' values join the tab's memory, and
 * fields found secret for the first time are marked in the page, so their
 * input is fingerprinted from now on.
 */
async function typedSecrets(tabId, session, frames, facts, secrets) {
  const of = new Map(facts.map((f) => [`${f.frame} ${f.backendNodeId}`, f]));
  learn(session.typed, undefined, secrets.flatMap((s) => of.get(`${s.frame} ${s.backendNodeId}`)?.typed || []));
  const known = new Map(frames.map((f) => [f.key, recall(session.secrets, f)]));
  const fresh = secrets.filter((s) => !known.get(s.frame)?.[s.backendNodeId]);
  if (fresh.length) await markSecret(tabId, session.frameSessions, fresh, session.typed.salt).catch(() => {});
}

/** The element a `root` ref names, where a very large frame's window starts; the core reports a bad ref. */
function rootElement(session, scope, options) {
  if (!options || !options.root) return undefined;
  try {
    const t = session.refs(scope).resolve(options.root);
    return { frame: t.frame, backendNodeId: t.backendNodeId };
  } catch {
    return undefined;
  }
}
