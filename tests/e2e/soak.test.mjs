// The short lifecycle soak (60 calls); `npm run soak` runs the long one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { soak } from '../soak.mjs';

test('60 mixed calls across navigations, reloads, closes, detaches, worker stops, iframe churn and dialogs', { timeout: 600000 }, async () => {
  const seed = Number(process.env.AXSNAP_SOAK_SEED) || undefined;
  const { stats, failures } = await soak({ calls: 60, seed });
  console.log(JSON.stringify(stats));
  assert.deepEqual(failures, [], `seed ${stats.seed}: ${failures.join('\n')}`);
  assert.ok(stats.calls >= 60);
});
