// Conversations with the co-pilot, kept in chrome.storage.local so they
// outlast the browser: what the model was sent (messages) and what the
// person saw (entries: their messages, answers, tool steps with the page text
// the model saw, notices), with a list of them (title, site, date) to reopen
// or delete. Which conversation a panel shows (a window's side panel, or a
// panel pinned to a tab) is kept in chrome.storage.session, as tab and window
// ids end with the browser. Secrets the person types never enter a
// conversation (the panel fills them straight into the page), nor do
// screenshots (a few words stand in their place).

import { withoutImages } from '../agent/media.js';

/**
 * @typedef {{kind:'user'|'assistant'|'notice'|'error', text:string} |
 *   {kind:'step', line:string, what?:{name:string, input?:any, targets?:any}, detail:string, ok:boolean|null}} Entry  `what`: the step in words (step-words.js)
 * @typedef {{messages:any[], entries:Entry[], usage:{totalTokens:number}, site?:string}} Conversation  `site`: where its first task ran
 * @typedef {{id:string, title:string, site:string, at:number, size:number}} Listed  `at`: last saved (ms); `size`: stored characters
 */

const INDEX = 'conversations';
const KEY = (id) => `conversation:${id}`;
const SHOWN = (panel) => `shown:${panel}`;
/** Where conversations were kept before they had a list (per panel, for the session only). */
const OLD_KEY = (panel) => `chat:${panel}`;
/** All conversations together stay under this many stored characters: the oldest are dropped first (local storage holds 10 MB). */
export const MAX_TOTAL = 5_000_000;
/** One conversation above this loses the page text of its oldest steps first. */
const MAX_ONE = 2_000_000;

/** @returns {Conversation} */
export const empty = () => ({ messages: [], entries: [], usage: { totalTokens: 0 } });

/** @returns {Promise<Listed[]>} newest first */
export async function list() {
  const got = /** @type {any} */ (await chrome.storage.local.get(INDEX))[INDEX];
  return Array.isArray(got) ? got : [];
}

/** @returns {Promise<Conversation>} */
export async function load(id) {
  const got = /** @type {any} */ (await chrome.storage.local.get(KEY(id)))[KEY(id)];
  return got && Array.isArray(got.entries) && Array.isArray(got.messages) ? got : empty();
}

/** The conversation's title: the start of the person's first message. */
export function titleOf(c) {
  const first = /** @type {any} */ (c.entries.find((e) => e.kind === 'user'));
  const text = first ? first.text.replace(/\s+/g, ' ').trim() : '';
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

// Saves run one after another, so two of this panel never write the list from the same old read.
let saving = /** @type {Promise<unknown>} */ (Promise.resolve());

/**
 * Stores a conversation and lists it as the newest. One the person has not
 * written in yet is not listed. Returns the ids dropped to stay under MAX_TOTAL.
 * @param {string} id @param {Conversation} c
 * @returns {Promise<string[]>}
 */
export function save(id, c) {
  const done = saving.then(() => write(id, c));
  saving = done.catch(() => []);
  return done;
}

async function write(id, c) {
  const title = titleOf(c);
  if (!title) return [];
  c.messages = withoutImages(c.messages);
  let size = JSON.stringify(c).length;
  for (const e of c.entries) {
    if (size <= MAX_ONE) break;
    if (e.kind === 'step' && e.detail.length > 200) {
      size -= e.detail.length;
      e.detail = '(page text no longer kept)';
    }
  }
  const others = (await list()).filter((x) => x.id !== id);
  /** @type {Listed} */
  const mine = { id, title, site: c.site || '', at: Date.now(), size };
  let total = others.reduce((n, x) => n + x.size, size);
  const kept = [...others];
  const dropped = [];
  while (total > MAX_TOTAL && kept.length) {
    const oldest = kept.reduce((a, x) => (x.at < a.at ? x : a));
    kept.splice(kept.indexOf(oldest), 1);
    total -= oldest.size;
    dropped.push(oldest.id);
  }
  await chrome.storage.local.set({ [KEY(id)]: c, [INDEX]: [mine, ...kept] });
  if (dropped.length) await chrome.storage.local.remove(dropped.map(KEY));
  return dropped;
}

/** @param {string} id */
export function remove(id) {
  const done = saving.then(async () => {
    await chrome.storage.local.set({ [INDEX]: (await list()).filter((x) => x.id !== id) });
    await chrome.storage.local.remove(KEY(id));
  });
  saving = done.catch(() => {});
  return done;
}

/**
 * The id of the conversation a panel shows. The first time, a conversation
 * kept the old way (per panel, for the session) moves into the list.
 * @param {string} panel  `tab:<id>` or `window:<id>`
 * @returns {Promise<string>}
 */
export async function shownIn(panel) {
  const got = /** @type {any} */ (await chrome.storage.session.get([SHOWN(panel), OLD_KEY(panel)]));
  if (typeof got[SHOWN(panel)] === 'string') return got[SHOWN(panel)];
  const id = crypto.randomUUID();
  const old = got[OLD_KEY(panel)];
  if (old && Array.isArray(old.entries) && Array.isArray(old.messages)) await save(id, old);
  await chrome.storage.session.set({ [SHOWN(panel)]: id });
  await chrome.storage.session.remove(OLD_KEY(panel));
  return id;
}

/** Shows conversation `id` in the panel from now on (a new one when not given). */
export async function show(panel, id = crypto.randomUUID()) {
  await chrome.storage.session.set({ [SHOWN(panel)]: id });
  return id;
}
