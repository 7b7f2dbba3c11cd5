// The one error type of the protocol: a stable machine `code` (a key of
// ERRORS in protocol.js) and a message that says what to do next.

export class AxError extends Error {
  /** @param {string} code @param {string} message */
  constructor(code, message) {
    super(message);
    this.name = 'AxError';
    this.code = code;
  }
}
