// Every step of the scripted flows (tests/flows.mjs) on the hand-written
// apps, in real Chromium with the real extension: each act settles and
// answers with a diff, and no diff hides a change: the snapshot it compares
// with and the diff alone give the full snapshot taken after the step. And the tree read
// incrementally (only what changed) gives, after every step, the very
// snapshot a whole read gives: text and refs, byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withExtension, refOf } from '../harness.mjs';
import { FLOWS, replayFlow } from '../flows.mjs';

const ctx = withExtension();
/** Steps of a flow on a page of thousands of nodes that npm test replays; AXSNAP_FLOWS=all replays every one. */
const BIG_PAGE_STEPS = process.env.AXSNAP_FLOWS === 'all' ? Infinity : 3;

for (const flow of FLOWS) {
  const steps = flow.big ? flow.steps.slice(0, BIG_PAGE_STEPS) : flow.steps;
  test(`flow ${flow.name}: ${steps.length} steps, each diff says every change`, { timeout: 300000 }, async () => {
    const page = await ctx.b.ctx.newPage();
    await page.goto(ctx.server.url(flow.page), { waitUntil: 'load' });
    await page.bringToFront();
    const tabId = await ctx.b.tabId(page);
    const ok = (answer, what) => {
      assert.equal(answer.ok, true, `${what}: ${JSON.stringify(answer.error)}`);
      return answer;
    };
    const { reads, diffs, closings, texts } = await replayFlow(steps, {
      snapshot: async (options) => ok(await ctx.b.call({ cmd: 'snapshot', tabId, options }), 'snapshot'),
      act: async (req) => ok(await ctx.b.call({ cmd: 'act', tabId, ...req }), `${req.action} ${req.ref ?? ''}`),
    }, refOf);
    // On a small page a change is often more than half of it: then the whole page is the answer.
    assert.ok(diffs >= 1, 'some steps answer with a diff');
    // The menu-and-dialog flow closes its dialog: the page comes back as a diff from the page before it.
    if (flow.name === 'modal-menu') assert.ok(closings >= 1, 'the step that closes the dialog answers with a diff');
    if (flow.name === 'todo-rerender') {
      // The list is written again whole: a row added at its end says where in words (the line above it is a
      // count below the list, removed), and deleting the first row renumbers none of the rows below it.
      assert.match(texts[1], /^@ in list "Todos", after "Return the books"\n\+ {3}- checkbox A\d+ "Apples"$/m, texts[1]);
      assert.doesNotMatch(texts[3], /^\+ .*checkbox/m, texts[3]);
    }
    if (process.env.AXSNAP_FLOWS_LOG) console.log(flow.name, reads);
    // The look after the act's own finds nothing changed: it is read incrementally unless the page keeps the watcher from following it.
    if (flow.big) assert.ok(reads.filter((r) => r === 'incremental').length >= reads.length / 2, `mostly incremental: ${reads.join('; ')}`);
    await page.close();
  });
}
