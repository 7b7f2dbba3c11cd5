// The error code a call throws, or 'ok': policy rules read as a table of outcomes.
export function code(fn) {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return e.code;
  }
}
