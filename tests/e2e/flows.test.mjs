// Every step of the scripted flows (tests/flows.mjs) on the hand-written
// apps, in real Chromium with the real extension: each act settles and
// answers with a diff, and no diff hides a change: the snapshot it compares
// with and the diff alone give the full snapshot taken after the step. And the tree read
// incrementally (only what changed) gives, after every step, the very
// snapshot a whole read gives: text and refs, byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExtension, refOf } from '../harness.mjs';
import { FLOWS, axsnapNeedle, inlineLinks, patch } from '../flows.mjs';

const ctx = withExtension();
const FULL = { full: true };
const FRESH = { full: true, fresh: true };
const MODAL = /^\s*(dialog|alertdialog) .* modal\b/m;
/** Steps of a flow on a page of thousands of nodes that npm test replays; AXSNAP_FLOWS=all replays every one. */
const BIG_PAGE_STEPS = process.env.AXSNAP_FLOWS === 'all' ? Infinity : 3;

for (const flow of FLOWS) {
  const steps = flow.big ? flow.steps.slice(0, BIG_PAGE_STEPS) : flow.steps;
  test(`flow ${flow.name}: ${steps.length} steps, each diff says every change`, { timeout: 300000 }, async () => {
    const page = await ctx.b.ctx.newPage();
    await page.goto(ctx.server.url(flow.page), { waitUntil: 'load' });
    await page.bringToFront();
    const tabId = await ctx.b.tabId(page);
    let before = await ctx.b.call({ cmd: 'snapshot', tabId, options: FULL });
    assert.equal(before.ok, true, JSON.stringify(before.error));
    let diffs = 0;
    /** while a modal dialog is open: the view before it opened */
    let behind = null;
    let closings = 0;
    /** how each look after a step was read: reasons of the whole reads */
    const reads = [];
    for (const [i, step] of steps.entries()) {
      const what = `step ${i + 1} (${step.do} ${step.name ?? step.value})`;
      const ref = step.role ? refOf(before.text, axsnapNeedle(step)) : undefined;
      const value = step.do === 'click' || step.do === 'check' ? undefined : step.value;
      const done = await ctx.b.call({ cmd: 'act', tabId, action: step.do, ref, value, snapshot: { ...FULL, diff: true } });
      assert.equal(done.ok, true, `${what}: ${JSON.stringify(done.error)}`);
      assert.ok(done.diff, what);
      const after = await ctx.b.call({ cmd: 'snapshot', tabId, options: FULL });
      assert.equal(after.ok, true, JSON.stringify(after.error));
      const whole = await ctx.b.call({ cmd: 'snapshot', tabId, options: FRESH });
      assert.equal(whole.ok, true, JSON.stringify(whole.error));
      assert.equal(whole.stats.fetch.incremental, false, `${what}: fresh reads the whole tree`);
      assert.equal(after.text, whole.text, `${what}: read ${after.stats.fetch.incremental ? 'incrementally' : `whole (${after.stats.fetch.reason})`}, it is the page`);
      reads.push(done.stats?.fetch?.incremental ? 'incremental' : done.stats?.fetch?.reason, after.stats.fetch.incremental ? 'incremental' : after.stats.fetch.reason);
      // A modal dialog closed: the diff compares with the page before it opened, which the agent read.
      const base = done.diff.closed ? behind : before;
      if (done.diff.closed) assert.ok(behind && MODAL.test(before.text) && !MODAL.test(after.text), `${what}: a modal dialog closed`);
      if (done.diff.full) {
        assert.equal(done.text, after.text, `${what}: the whole page (${done.diff.reason}) is the page`);
      } else {
        diffs++;
        // The contract: the snapshot the diff compares with and the diff alone give the page, line by line, refs included.
        assert.deepEqual(patch(base.text, done.text), inlineLinks(after.text), `${what}: the diff\n${done.text}`);
      }
      if (done.diff.closed && !done.diff.full) closings++;
      if (MODAL.test(after.text)) behind ??= before;
      else behind = null;
      before = after;
    }
    // On a small page a change is often more than half of it: then the whole page is the answer.
    assert.ok(diffs >= 1, 'some steps answer with a diff');
    // The menu-and-dialog flow closes its dialog: the page comes back as a diff from the page before it.
    if (flow.name === 'modal-menu') assert.ok(closings >= 1, 'the step that closes the dialog answers with a diff');
    if (process.env.AXSNAP_FLOWS_LOG) console.log(flow.name, reads);
    // The look after the act's own finds nothing changed: it is read incrementally unless the page keeps the watcher from following it.
    if (flow.big) assert.ok(reads.filter((r) => r === 'incremental').length >= reads.length / 2, `mostly incremental: ${reads.join('; ')}`);
    await page.close();
  });
}
