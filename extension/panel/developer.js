// The panel's Developer section: snapshot the tab and act by ref by hand,
// through the same message protocol as every other caller.

import { ACTIONS } from '../../protocol/protocol.js';

/** @param {{send:(msg:object)=>Promise<any>, tabId:()=>number|undefined}} o */
export function bindDeveloper({ send, tabId }) {
  const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
  for (const a of Object.keys(ACTIONS)) $('action').append(new Option(a, a));
  // An action without a value takes its one field of its own from the value box (drag's `to`).
  const fieldOf = (action) => (!ACTIONS[action].value && ACTIONS[action].required?.length === 1 ? ACTIONS[action].required[0] : 'value');
  $('action').addEventListener('change', () => {
    const field = fieldOf($('action').value);
    $('value').placeholder = field === 'value' ? '' : `${field}: a ref`;
  });
  const show = (res, render) => {
    const status = $('status');
    if (res && res.ok) {
      status.className = '';
      render(res);
    } else {
      status.className = 'error';
      status.textContent = res ? `${res.error.code}: ${res.error.message}` : 'no answer from the extension';
    }
  };
  $('snap').addEventListener('click', async () => {
    const options = { mode: $('mode').value, full: $('uncapped').checked };
    show(await send({ cmd: 'snapshot', tabId: tabId(), options }), (res) => {
      const t = res.stats.timings;
      $('status').textContent = `${res.stats.refs} refs, ${res.stats.chars} chars (~${res.stats.tokensEst} tokens), ${t.totalMs} ms`;
      $('out').textContent = res.text;
    });
  });
  $('act').addEventListener('click', async () => {
    const value = $('value').value;
    const action = $('action').value;
    const field = fieldOf(action);
    const msg = { cmd: 'act', tabId: tabId(), ref: $('ref').value.trim() || undefined, action, [field]: value === '' ? undefined : field === 'value' ? value : value.trim() };
    show(await send(msg), () => { $('status').textContent = `${msg.action} ${msg.ref || ''}: done`; });
  });
}
