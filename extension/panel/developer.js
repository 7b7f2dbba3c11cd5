// The panel's Developer section: snapshot the tab and act by ref by hand,
// through the same message protocol as every other caller.

import { ACTIONS } from '../../protocol/protocol.js';

/** @param {{send:(msg:object)=>Promise<any>, tabId:()=>number|undefined}} o */
export function bindDeveloper({ send, tabId }) {
  const $ = (id) => /** @type {HTMLInputElement} */ (document.getElementById(id));
  for (const a of Object.keys(ACTIONS)) $('action').append(new Option(a, a));
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
    const msg = { cmd: 'act', tabId: tabId(), ref: $('ref').value.trim() || undefined, action: $('action').value, value: value === '' ? undefined : value };
    show(await send(msg), () => { $('status').textContent = `${msg.action} ${msg.ref || ''}: done`; });
  });
}
