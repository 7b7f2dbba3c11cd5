// The list of kept conversations (#history): title, site and date of each,
// to reopen or delete, kept current as conversations are saved anywhere.

import { list, MAX_TOTAL } from './conversation.js';

const when = (at) => new Date(at).toLocaleString('en', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * @param {{shown: () => string, open: (id:string) => void, remove: (id:string) => void}} o
 * @returns {() => Promise<void>} renders the list again (the shown one changed)
 */
export function bindHistory({ shown, open, remove }) {
  const render = async () => {
    const items = await list();
    document.getElementById('history-count').textContent = `(${items.length})`;
    document.getElementById('history-empty').hidden = items.length > 0;
    document.getElementById('history-list').replaceChildren(...items.map((c) => {
      const li = document.createElement('li');
      const openIt = Object.assign(document.createElement('button'), { type: 'button', className: 'history-open', textContent: c.title || 'Untitled' });
      if (c.id === shown()) openIt.setAttribute('aria-current', 'true');
      openIt.addEventListener('click', () => open(c.id));
      const meta = Object.assign(document.createElement('span'), { className: 'hint', textContent: [c.site, when(c.at)].filter(Boolean).join(' · ') });
      const del = Object.assign(document.createElement('button'), { type: 'button', textContent: 'Delete' });
      del.setAttribute('aria-label', `Delete “${c.title || 'Untitled'}”`);
      del.addEventListener('click', () => remove(c.id));
      li.append(openIt, meta, del);
      return li;
    }));
  };
  document.getElementById('history-cap').textContent =
    `Conversations are kept in this browser only, up to ${MAX_TOTAL / 1e6} MB together; past that the oldest are dropped first.`;
  chrome.storage.onChanged.addListener((changes, area) => { if (area === 'local' && changes.conversations) render(); });
  render();
  return render;
}
