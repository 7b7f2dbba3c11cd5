// JavaScript dialogs (alert, confirm, prompt, beforeunload). While one is
// open its page answers nothing, so requests on the tab answer `dialog_open`
// with the dialog's type and message until the caller accepts or dismisses
// it. Chrome reports dialogs of every frame on the tab's own session, and
// only those opened after Page.enable: a dialog already open when the
// extension attached shows up as `page_busy`. The open dialog is kept in the
// tab's session (saved with it: the worker may be stopped while it waits).

import { send, hold, release } from './cdp.js';
import { AxError } from './errors.js';
import { tabSession, typedMemories, withSession } from './session.js';
import { scrubAnswer } from './typed.js';

/** A page can put megabytes in a dialog; the caller needs the gist. */
const MAX_MESSAGE = 2000;

/**
 * @typedef {{type: string, message: string, url?: string, defaultPrompt?: string}} Dialog
 */

/** Called for Page.javascriptDialog* events of the tab's own session. */
export function onDialogEvent(tabId, method, params) {
  if (method === 'Page.javascriptDialogOpening') {
    const message = String(params.message ?? '');
    /** @type {Dialog} */
    const d = {
      type: params.type,
      message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)}…` : message,
      url: params.url,
      ...(params.type === 'prompt' ? { defaultPrompt: params.defaultPrompt ?? '' } : {}),
    };
    withSession(tabId, (s) => {
      // An alert("Wrong password: …") is kept as the answers will say it (the tab's own memory is loaded by now).
      scrubAnswer(d, typedMemories());
      s.dialog = d;
      s.save();
      // Calls to the page would wait for the dialog: they answer now.
      hold(s, dialogOpen(d));
    });
  } else if (method === 'Page.javascriptDialogClosed') {
    withSession(tabId, forgetDialog);
  }
}

/** No dialog holds the tab (any more). @param {import('./session.js').TabSession} s */
export function forgetDialog(s) {
  const had = s.dialog;
  s.dialog = null;
  release(s);
  if (had) s.save();
}

/** @returns {Promise<Dialog|null>} */
export async function openDialog(tabId) {
  const s = await tabSession(tabId);
  // Restored after a restart: calls to the page fail at once again.
  if (s.dialog && !s.held) hold(s, dialogOpen(s.dialog));
  return s.dialog;
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
  const s = await tabSession(tabId);
  try {
    await send(tabId, undefined, 'Page.handleJavaScriptDialog', { accept, ...(promptText === undefined ? {} : { promptText }) });
  } catch (e) {
    if (!/No dialog is showing/i.test(e.message)) throw e;
    forgetDialog(s);
    throw noDialog();
  }
  forgetDialog(s);
  return { dialog: d, accepted: accept };
}

function noDialog() {
  return new AxError('no_dialog', 'no dialog is open on this tab (or it opened before axsnap attached and only the person can answer it)');
}
