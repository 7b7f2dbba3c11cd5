// JavaScript dialogs (alert, confirm, prompt, beforeunload). While one is
// open its page answers nothing, so requests on the tab answer `dialog_open`
// with the dialog's type and message until the caller accepts or dismisses
// it. Chrome reports dialogs of every frame on the tab's own session, and
// only those opened after Page.enable: a dialog already open when the
// extension attached shows up as `page_busy`. Kept in chrome.storage.session
// because the worker may be stopped while a dialog waits.

import { send, hold, release } from './cdp.js';
import { AxError } from './errors.js';
import { typedMemories } from './session.js';
import { scrubAnswer } from './typed.js';
import { transport } from './transport.js';

const KEY = (tabId) => `dialog:${tabId}`;
/** A page can put megabytes in a dialog; the caller needs the gist. */
const MAX_MESSAGE = 2000;
/** tabId → the open dialog, or null when there is none. */
const open = new Map();

/**
 * @typedef {{type: string, message: string, url?: string, defaultPrompt?: string}} Dialog
 */

/** Called for Page.javascriptDialog* events of the tab's own session. */
export function onDialogEvent(tabId, method, params) {
  if (method === 'Page.javascriptDialogOpening') {
    const message = String(params.message ?? '');
    /** @type {Dialog} */
    let d = {
      type: params.type,
      message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message,
      url: params.url,
      ...(params.type === 'prompt' ? { defaultPrompt: params.defaultPrompt ?? '' } : {}),
    };
    // An alert("Wrong password: …") is kept as the answers will say it.
    try {
      d = scrubAnswer(d, typedMemories());
    } catch { /* the core is not loaded yet: nothing typed is known either */ }
    open.set(tabId, d);
    transport().store.set(KEY(tabId), d).catch(() => {});
    // Calls to the page would wait for the dialog: they answer now.
    hold(tabId, dialogOpen(d));
  } else if (method === 'Page.javascriptDialogClosed') {
    forgetDialog(tabId);
  }
}

export function forgetDialog(tabId) {
  open.set(tabId, null);
  release(tabId);
  transport().store.remove(KEY(tabId)).catch(() => {});
}

/** @returns {Promise<Dialog|null>} */
export async function openDialog(tabId) {
  if (!open.has(tabId)) {
    const stored = await transport().store.get(KEY(tabId));
    // An event may have arrived while storage answered: it is newer.
    if (!open.has(tabId)) {
      const d = stored || null;
      open.set(tabId, d);
      if (d) hold(tabId, dialogOpen(d));
    }
  }
  return open.get(tabId);
}

/** @param {Dialog} d */
export function dialogOpen(d) {
  return new AxError('dialog_open',
    `a ${d.type} dialog is open: ${JSON.stringify(d.message)}. Nothing else can happen on this tab until it is answered: `
    + 'act {action:"dialog", value:"accept"} or {action:"dialog", value:"dismiss"} (a prompt takes text)', { dialog: d });
}

/** Throws `dialog_open` when the tab shows a dialog. */
export async function refuseIfDialog(tabId) {
  const d = await openDialog(tabId);
  if (d) throw dialogOpen(d);
}

/**
 * Accepts or dismisses the tab's dialog.
 * @param {number} tabId
 * @param {boolean} accept
 * @param {string} [promptText]  what to answer a prompt
 */
export async function answerDialog(tabId, accept, promptText) {
  const d = await openDialog(tabId);
  if (!d) throw noDialog();
  try {
    await send(tabId, undefined, 'Page.handleJavaScriptDialog', { accept, ...(promptText === undefined ? {} : { promptText }) });
  } catch (e) {
    if (!/No dialog is showing/i.test(e.message)) throw e;
    forgetDialog(tabId);
    throw noDialog();
  }
  forgetDialog(tabId);
  return { dialog: d, accepted: accept };
}

function noDialog() {
  return new AxError('no_dialog', 'no dialog is open on this tab (or it opened before axsnap attached and only the person can answer it)');
}
