// The panel's side of the worker's questions (worker/confirm.js): a
// co-pilot task or a desktop agent is about to leave the sites it may reach
// (send a form to another site, go there, open a window on it), held until
// the person answers "Allow once" or "Deny" here, or the deadline passes.

import { readConfirms, answerConfirm, CONFIRMS } from '../worker/confirm.js';

/** Shows the questions waiting in `box` (#confirms), and keeps it current. */
export function bindConfirms() {
  const box = /** @type {HTMLElement} */ (document.getElementById('confirms'));
  const render = () => renderConfirms(box).catch(() => {});
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'session' && changes[CONFIRMS]) render();
  });
  render();
}

/** @returns {any} */
function el(tag, props = {}, ...children) {
  const e = Object.assign(document.createElement(tag), props);
  e.append(...children);
  return e;
}

async function renderConfirms(box) {
  const waiting = await readConfirms();
  const groups = waiting.map((c) => {
    const group = el('div', { className: 'prompt confirm-prompt' });
    group.setAttribute('role', 'group');
    group.setAttribute('aria-label', c.line);
    group.dataset.id = c.id;
    const answer = (a) => () => {
      group.querySelectorAll('button').forEach((b) => { b.disabled = true; });
      answerConfirm(c.id, a);
    };
    const allow = el('button', { type: 'button', textContent: 'Allow once', className: 'primary' });
    allow.addEventListener('click', answer('allow'));
    const deny = el('button', { type: 'button', textContent: 'Deny' });
    deny.addEventListener('click', answer('deny'));
    group.append(
      el('p', {}, el('strong', { textContent: `${c.who} wants to ${verb(c)}` }), ` ${c.site}`),
      el('p', { className: 'hint', textContent: `${c.url} (tab ${c.tabId}). Nothing is sent unless you allow it; without an answer within ${Math.round((c.until - c.at) / 1000)} s it is refused.` }),
      el('div', { className: 'row' }, allow, deny),
    );
    // The focus stays where it is: a key the person was pressing must not answer a question they have not read
    // (the region is announced, assertively, instead).
    return group;
  });
  box.replaceChildren(...groups);
  box.hidden = groups.length === 0;
}

const verb = (c) => ({ form: `send a form (${String(c.method).toUpperCase()}) to`, navigation: 'go to', popup: 'open a window on' }[c.kind] || 'reach');
