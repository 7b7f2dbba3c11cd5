// Files put into an <input type=file> by ref. The bytes come in the request:
// CDP's DOM.setFileInputFiles takes paths on the browser's computer, which a
// desktop agent's files are not on (and a path is a thing no caller should
// make the browser read). So the files are built where the element lives, in
// an isolated world of its frame (the page's scripts cannot change
// DataTransfer or File there), handed to the input as a picker would, and
// the input fires input and change as it does after a pick.

import { send } from './cdp.js';
import { AxError } from './errors.js';
import { bind, release } from './actions.js';

const WORLD = 'axsnap-upload';

/**
 * Runs in the isolated world with `this` = the element: sets its files, or says why not.
 * @this {any} @param {Array<{name: string, mimeType?: string, data: string}>} files
 */
function putFiles(files) {
  if (!(this instanceof HTMLInputElement) || this.type !== 'file') return { refused: 'not a file input' };
  if (this.disabled) return { refused: 'a disabled file input' };
  if (files.length > 1 && !this.multiple) return { refused: `a file input that takes one file, given ${files.length}` };
  const list = new DataTransfer();
  for (const f of files) {
    const raw = atob(f.data);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    list.items.add(new File([bytes], f.name, { type: f.mimeType || '' }));
  }
  this.files = list.files;
  this.dispatchEvent(new Event('input', { bubbles: true, composed: true }));
  this.dispatchEvent(new Event('change', { bubbles: true }));
  return { files: [...this.files].map((f) => f.name), bytes: [...this.files].reduce((n, f) => n + f.size, 0) };
}

/**
 * @param {import('./actions.js').Target} t  the input, as the router resolved it
 * @param {Array<{name: string, mimeType?: string, data: string}>} files  checked by the router (names, base64, total size)
 * @returns {Promise<{files: string[], bytes: number}>}
 */
export async function upload(t, files) {
  try {
    await bind(t); // the ref's document is still shown and its element still in it
    const { executionContextId } = await send(t.tabId, t.sessionId, 'Page.createIsolatedWorld', { frameId: t.frame, worldName: WORLD });
    const { object } = await send(t.tabId, t.sessionId, 'DOM.resolveNode', { backendNodeId: t.backendNodeId, executionContextId });
    try {
      const r = await send(t.tabId, t.sessionId, 'Runtime.callFunctionOn', {
        objectId: object.objectId, functionDeclaration: putFiles.toString(), arguments: [{ value: files }], returnByValue: true,
      });
      if (r.exceptionDetails) throw new AxError('page_error', `${t.ref}: ${r.exceptionDetails.exception?.description || r.exceptionDetails.text || 'script error'}`);
      const out = r.result.value;
      if (out.refused) throw new AxError('not_a_file_input', `${t.ref} is ${out.refused}: nothing was put in it`);
      return out;
    } finally {
      send(t.tabId, t.sessionId, 'Runtime.releaseObject', { objectId: object.objectId }).catch(() => {});
    }
  } finally {
    release(t);
  }
}
