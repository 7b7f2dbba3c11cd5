// One line per step an agent takes, as the side panel lists them:
// `click A12 "Sign in"`, `navigate https://example.org/`, `tabs open …`.

/**
 * The step line of a protocol request; `name` is the name of the element an
 * `act` is about, when known. Never a typed value: only a pressed key.
 */
export function stepLine(req, name) {
  if (!req || typeof req !== 'object') return 'malformed request';
  // As the co-pilot's steps read (extension/agent/tools.js): names cut at 60 characters.
  const q = (s) => JSON.stringify(String(s).slice(0, 60));
  switch (req.cmd) {
    case 'snapshot': return `snapshot${req.options?.mode === 'interactive' ? ' (interactive)' : ''}${req.options?.diff ? ' (changes)' : ''}`;
    case 'act': return [req.action, req.ref, name !== undefined ? q(name) : undefined, req.action === 'press' ? req.value : undefined, req.to !== undefined ? `onto ${req.to}` : undefined].filter((x) => x !== undefined).join(' ');
    case 'navigate': return `navigate ${req.url}`;
    case 'back': return 'back';
    case 'tabs': return ['tabs', req.action ?? 'list', req.tabId, req.url].filter((x) => x !== undefined).join(' ');
    case 'resolve': return `resolve ${req.ref}`;
    case 'wait_for': return `wait for ${[req.text !== undefined && q(req.text), req.textGone !== undefined && `${q(req.textGone)} to go`, req.refGone !== undefined && `${req.refGone} to go`, req.url !== undefined && `URL ${req.url}`].filter(Boolean).join(', ')}`;
    default: return String(req.cmd);
  }
}
