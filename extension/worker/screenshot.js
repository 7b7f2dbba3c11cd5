// A screenshot of a tab's viewport or of one element, as a PNG, with the
// secret fields painted over: the text view never shows a secret (not its
// value, not its length), and a picture must not either.
//
// Which fields are secret is the core's decision, made by the snapshot the
// router takes just before (session.secrets). The paint goes on the image in
// the service worker (OffscreenCanvas), never on the page: the page sees
// nothing, and cannot undo a mask it never had. Each field's box is read
// before and after the capture and both are painted, so a field that moved
// in between stays covered.

import { send } from './cdp.js';
import { listFrames } from './frames.js';
import { recall } from './secrets.js';
import { AxError } from './errors.js';
import { MAX_SCREENSHOT_BYTES } from '../../protocol/protocol.js';

/** Chrome may take a while to paint a large viewport on a busy machine. */
const CAPTURE_MS = 15000;
/** Pixels of paint beyond a field's border box, for antialiased edges and focus rings. */
const MARGIN = 2;

/** @typedef {{x: number, y: number, w: number, h: number}} Rect  CSS pixels, in the tab's viewport */
/** @typedef {Awaited<ReturnType<typeof listFrames>>[number]} FrameInfo */

/**
 * @param {number} tabId
 * @param {{sessionId?: string, backendNodeId: number, frame: string, ref: string}|null} t  the element, or null for the viewport
 * @param {import('./session.js').TabSession} session  its `secrets` just refreshed by a snapshot
 * @returns {Promise<{mimeType: 'image/png', data: string, width: number, height: number, masked: number, clipped: boolean}>}
 */
export async function capture(tabId, t, session) {
  const frames = new Map((await listFrames(tabId)).map((f) => [f.frameId, f]));
  if (t) await send(tabId, t.sessionId, 'DOM.scrollIntoViewIfNeeded', { backendNodeId: t.backendNodeId });
  const { cssVisualViewport: vp } = await send(tabId, undefined, 'Page.getLayoutMetrics');
  const view = { x: 0, y: 0, w: vp.clientWidth, h: vp.clientHeight };
  let area = view;
  let clipped = false;
  if (t) {
    const box = await boxInView(tabId, frames, t.frame, t.backendNodeId);
    if (!box || box.w === 0 || box.h === 0) throw new AxError('not_visible', `${t.ref} has no box on screen (hidden or display:none): nothing to capture`);
    const part = intersect(box, view);
    if (!part) throw new AxError('not_visible', `${t.ref} is outside the visible area even after scrolling: nothing to capture`);
    clipped = part.w < box.w - 0.5 || part.h < box.h - 0.5;
    area = part;
  }
  const before = await secretBoxes(tabId, frames, session);
  const shot = await send(tabId, undefined, 'Page.captureScreenshot', {
    format: 'png',
    // Document coordinates: the viewport's part plus how far the page is scrolled.
    clip: { x: area.x + vp.pageX, y: area.y + vp.pageY, width: area.w, height: area.h, scale: 1 },
  }, { timeoutMs: CAPTURE_MS });
  const after = await secretBoxes(tabId, frames, session);
  const masks = [...before, ...after].flatMap((b) => {
    const part = intersect(b, area);
    return part ? [{ ...part, key: b.key }] : [];
  });
  const image = await paintOver(shot.data, area, masks);
  if (image.bytes > MAX_SCREENSHOT_BYTES) {
    throw new AxError('image_too_large', `the screenshot is ${(image.bytes / 1048576).toFixed(1)} MB of PNG, more than ${MAX_SCREENSHOT_BYTES / 1048576} MB: take one of a single element (ref) instead`);
  }
  return { mimeType: 'image/png', data: image.data, width: image.width, height: image.height, masked: new Set(masks.map((m) => m.key)).size, clipped };
}

/**
 * The boxes of the secret fields of every frame showing the document they
 * were found in, in the tab's viewport; fields with no box (hidden) have
 * nothing to paint.
 * @returns {Promise<Array<Rect & {key: string}>>}
 */
async function secretBoxes(tabId, frames, session) {
  const out = [];
  for (const f of frames.values()) {
    const fields = recall(session.secrets, { key: f.frameId, document: f.document, nodes: [] });
    for (const id of Object.keys(fields)) {
      const box = await boxInView(tabId, frames, f.frameId, Number(id)).catch(() => null);
      if (box) out.push({ ...box, key: `${f.frameId} ${id}` });
    }
  }
  return out;
}

/**
 * An element's border box in the tab's viewport. A frame in its own process
 * (its own debugger session) measures from its own viewport, which starts at
 * its <iframe>'s content box in the parent: those offsets are added on the
 * way up. Same-process frames measure in the tab's viewport already.
 * @param {number} tabId  @param {Map<string, FrameInfo>} frames  @param {string} frameId  @param {number} backendNodeId
 * @returns {Promise<Rect|null>}
 */
async function boxInView(tabId, frames, frameId, backendNodeId) {
  let f = frames.get(frameId);
  if (!f) return null;
  const { model } = await send(tabId, f.sessionId, 'DOM.getBoxModel', { backendNodeId });
  const box = rectOf(model.border);
  while (f && f.sessionId) {
    while (f && !f.root) f = frames.get(f.parentId || '');
    const parent = f && frames.get(f.parentId || '');
    if (!f || !parent) return null;
    const { backendNodeId: owner } = await send(tabId, parent.sessionId, 'DOM.getFrameOwner', { frameId: f.frameId });
    const { model: o } = await send(tabId, parent.sessionId, 'DOM.getBoxModel', { backendNodeId: owner });
    box.x += o.content[0];
    box.y += o.content[1];
    f = parent;
  }
  return box;
}

/** @param {number[]} quad  x1,y1 … x4,y4  @returns {Rect} */
function rectOf(quad) {
  const xs = [quad[0], quad[2], quad[4], quad[6]];
  const ys = [quad[1], quad[3], quad[5], quad[7]];
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, w: Math.max(...xs) - x, h: Math.max(...ys) - y };
}

/** @param {Rect} a  @param {Rect} b  @returns {Rect|null} */
export function intersect(a, b) {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const w = Math.min(a.x + a.w, b.x + b.w) - x;
  const h = Math.min(a.y + a.h, b.y + b.h) - y;
  return w > 0 && h > 0 ? { x, y, w, h } : null;
}

/**
 * The PNG with every mask painted solid, in image pixels (the device's
 * pixel ratio is the image's size over the area's); untouched when there is
 * nothing to paint.
 * @param {string} base64  @param {Rect} area  @param {Rect[]} masks
 */
async function paintOver(base64, area, masks) {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
  const { width, height } = bitmap;
  if (!masks.length) {
    bitmap.close();
    return { data: base64, bytes: bytes.length, width, height };
  }
  const canvas = new OffscreenCanvas(width, height);
  const ctx = /** @type {OffscreenCanvasRenderingContext2D} */ (canvas.getContext('2d'));
  ctx.drawImage(bitmap, 0, 0);
  bitmap.close();
  const sx = width / area.w;
  const sy = height / area.h;
  ctx.fillStyle = '#6b6b6b';
  for (const m of masks) {
    const x = Math.floor((m.x - area.x) * sx) - MARGIN;
    const y = Math.floor((m.y - area.y) * sy) - MARGIN;
    ctx.fillRect(x, y, Math.ceil(m.w * sx) + 2 * MARGIN + 1, Math.ceil(m.h * sy) + 2 * MARGIN + 1);
  }
  const out = new Uint8Array(await (await canvas.convertToBlob({ type: 'image/png' })).arrayBuffer());
  return { data: toBase64(out), bytes: out.length, width, height };
}

/** @param {Uint8Array} bytes */
function toBase64(bytes) {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
