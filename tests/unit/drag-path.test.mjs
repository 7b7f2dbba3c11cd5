// The pointer's way from a drag's press to its drop, and the point acted at in a box.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dragPath, visibleCentre, CREEP, STEP, MAX_STEPS } from '../../extension/worker/drag_path.js';

const dist = (a, b) => Math.hypot(a.x - b.x, a.y - b.y);

test('a drag creeps past every threshold pages use before it travels, and ends on the drop point', () => {
  const from = { x: 100, y: 100 };
  const to = { x: 400, y: 340 };
  const { creep, travel } = dragPath(from, to);
  assert.equal(creep.length, CREEP.length);
  // Thresholds of 3, 4, 5 and 10 px (pointer libraries, Chrome's HTML5 drag) are each crossed by a move of its own.
  for (const threshold of [3, 4, 5, 10]) {
    const first = creep.findIndex((p) => dist(p, from) >= threshold);
    assert.ok(first >= 0, `no move past ${threshold} px`);
    if (first > 0) assert.ok(dist(creep[first - 1], from) < threshold + 1);
  }
  assert.ok(dist(creep[0], from) < 3, 'the first move stays under every threshold');
  assert.deepEqual(travel.at(-1), to);
  const all = [from, ...creep, ...travel];
  for (let i = 1; i < all.length; i++) assert.ok(dist(all[i - 1], all[i]) <= STEP + 1, `step ${i} is ${dist(all[i - 1], all[i])} px`);
  // On the line between the two points, never past the drop.
  for (const p of travel) assert.ok(dist(from, p) <= dist(from, to) + 1);
});

test('a far drop takes a bounded number of steps; a drop next to the press still passes the thresholds', () => {
  const far = dragPath({ x: 0, y: 0 }, { x: 5000, y: 3000 });
  assert.equal(far.travel.length, MAX_STEPS);
  assert.deepEqual(far.travel.at(-1), { x: 5000, y: 3000 });
  const near = dragPath({ x: 50, y: 50 }, { x: 53, y: 50 });
  assert.ok(near.creep.some((p) => dist(p, { x: 50, y: 50 }) >= 10), 'it moves far enough to start a drag');
  assert.deepEqual(near.travel.at(-1), { x: 53, y: 50 });
  const same = dragPath({ x: 50, y: 50 }, { x: 50, y: 50 });
  assert.ok(same.creep.at(-1).x > 50, 'onto itself: out to the right');
  assert.deepEqual(same.travel.at(-1), { x: 50, y: 50 }, 'and back');
  for (const path of [far, near, same]) {
    const all = [...path.creep, ...path.travel];
    for (const p of all) assert.ok(Number.isInteger(p.x) && Number.isInteger(p.y));
    for (let i = 1; i < path.travel.length; i++) assert.notDeepEqual(path.travel[i], path.travel[i - 1], 'no move that goes nowhere');
  }
});

test('the point acted at is the centre of the part of the box on screen, or none', () => {
  const vp = { w: 800, h: 600 };
  const quad = (l, t, r, b) => [l, t, r, t, r, b, l, b];
  assert.deepEqual(visibleCentre(quad(100, 100, 200, 140), vp), { x: 150, y: 120 });
  assert.deepEqual(visibleCentre(quad(700, 500, 900, 700), vp), { x: 750, y: 550 }, 'cut by the viewport');
  assert.equal(visibleCentre(quad(100, 600, 200, 640), vp), null, 'below the fold');
  assert.equal(visibleCentre(quad(-50, 10, 0.5, 40), vp), null, 'less than a pixel shows');
});
