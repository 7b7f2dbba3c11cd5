// The conversation of one panel (a window's side panel, or a panel pinned to a tab): what the model was sent (its
// messages) and what the person saw (entries: their messages, answers,
// tool steps with the page text the model saw, notices). Kept in
// chrome.storage.session, so it survives closing and reopening the panel
// but not the browser, and never lands on disk.

/**
 * @typedef {{kind:'user'|'assistant'|'notice'|'error', text:string} |
 *   {kind:'step', line:string, what?:{name:string, input?:any, targets?:any}, detail:string, ok:boolean|null}} Entry  `what`: the step in words (step-words.js)
 * @typedef {{messages:any[], entries:Entry[], usage:{totalTokens:number}}} Conversation
 */

const KEY = (id) => `chat:${id}`;
/** Stored size above which the oldest steps lose their page text (the session area holds 10 MB). */
const MAX_CHARS = 3_000_000;

/** @returns {Conversation} */
export const empty = () => ({ messages: [], entries: [], usage: { totalTokens: 0 } });

/** @returns {Promise<Conversation>} */
export async function load(id) {
  const got = /** @type {any} */ (await chrome.storage.session.get(KEY(id)))[KEY(id)];
  return got && Array.isArray(got.entries) && Array.isArray(got.messages) ? got : empty();
}

/** @param {Conversation} c */
export async function save(id, c) {
  let size = JSON.stringify(c).length;
  for (const e of c.entries) {
    if (size <= MAX_CHARS) break;
    if (e.kind === 'step' && e.detail.length > 200) {
      size -= e.detail.length;
      e.detail = '(page text no longer kept)';
    }
  }
  await chrome.storage.session.set({ [KEY(id)]: c });
}

export const clear = (id) => chrome.storage.session.remove(KEY(id));
