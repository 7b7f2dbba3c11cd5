// The one error type of the protocol: a stable machine `code` (a key of
// ERRORS in protocol.js), a message that says what to do next, and any
// facts the caller can act on (`details`, sent beside code and message).

export class AxError extends Error {
  /** @param {string} code @param {string} message @param {Record<string, unknown>} [details] e.g. a dialog's type and text */
  constructor(code, message, details = undefined) {
    super(message);
    this.name = 'AxError';
    this.code = code;
    this.details = details;
  }
}
