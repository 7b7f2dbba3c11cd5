// The points a drag moves the pointer through, from the press to the drop.
// Pure: the unit tests check the path, actions.js sends it.
//
// Pages tell a drag from a click by distance: Chrome starts an HTML5 drag
// past a few pixels, and pointer libraries (dnd-kit, react-beautiful-dnd,
// SortableJS's fallback) wait for 3 to 10 pixels of movement, many
// deciding on a single pointermove. So the path first creeps away from the
// press in small steps, each past a threshold some library uses, then goes
// to the drop point in steps short enough that a list's collision checks
// see every item on the way, and ends on the drop point exactly.

/** Distances from the press (CSS pixels) the first moves reach. */
export const CREEP = [2, 5, 8, 12];
/** Longest step after the creep. */
export const STEP = 30;
/** Most steps after the creep, however far the drop is. */
export const MAX_STEPS = 20;

/**
 * @typedef {{x:number, y:number}} Point
 * @param {Point} from  where the button goes down
 * @param {Point} to  where it comes up
 * @returns {{creep: Point[], travel: Point[]}}  the first moves (a drag
 *   starts during them), then the rest; `travel` always ends at `to`
 */
export function dragPath(from, to) {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const dist = Math.hypot(dx, dy);
  // A drop on the press point still has to pass the thresholds: creep to
  // the right and come back.
  const [ux, uy] = dist < 1 ? [1, 0] : [dx / dist, dy / dist];
  const at = (d) => ({ x: Math.round(from.x + ux * d), y: Math.round(from.y + uy * d) });
  const creep = CREEP.map(at);
  const start = creep[creep.length - 1];
  const left = Math.hypot(to.x - start.x, to.y - start.y);
  const n = Math.min(MAX_STEPS, Math.max(1, Math.ceil(left / STEP)));
  const travel = [];
  for (let i = 1; i <= n; i++) {
    const p = { x: Math.round(start.x + ((to.x - start.x) * i) / n), y: Math.round(start.y + ((to.y - start.y) * i) / n) };
    const last = travel[travel.length - 1] || start;
    if (p.x !== last.x || p.y !== last.y) travel.push(p);
  }
  const end = { x: Math.round(to.x), y: Math.round(to.y) };
  const last = travel[travel.length - 1];
  if (!last || last.x !== end.x || last.y !== end.y) travel.push(end);
  return { creep, travel };
}

/**
 * The point to act at in a box: the centre of its part inside the viewport,
 * or null when less than a pixel of it is inside.
 * @param {number[]} quad  the border quad, [x1, y1, … x4, y4], viewport coordinates
 * @param {{w:number, h:number}} vp  the viewport's size
 * @returns {Point|null}
 */
export function visibleCentre(quad, vp) {
  const xs = [0, 2, 4, 6].map((i) => quad[i]);
  const ys = [1, 3, 5, 7].map((i) => quad[i]);
  const left = Math.max(Math.min(...xs), 0);
  const right = Math.min(Math.max(...xs), vp.w);
  const top = Math.max(Math.min(...ys), 0);
  const bottom = Math.min(Math.max(...ys), vp.h);
  if (right - left < 1 || bottom - top < 1) return null;
  return { x: Math.round((left + right) / 2), y: Math.round((top + bottom) / 2) };
}
