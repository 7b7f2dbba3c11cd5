// The desktop-agents setting: where it and the rest of the agents' state
// live in chrome.storage (shared by the service worker's agents.js and
// agent_tabs.js and the side panel's agents.js), and how it is read.

/**
 * chrome.storage.local: {enabled, url, token, own?}, written by the panel, a test, a managed install, or
 * `axsnap-mcp --launch` in the browser it starts for its agent (own: true, no person in it to ask).
 */
export const SETTINGS = 'mcp';
/** chrome.storage.local: {[agentId]: tabId[]}, the tabs each agent opened (the worker writes it). */
export const OWNED = 'mcpOwned';
/** chrome.storage.local: tabId[], the tabs the person shares with agents (the panel writes it). */
export const SHARED = 'mcpShared';
/** chrome.storage.session: {on, ports, agents: [{port, id, name, since}], problem}, for the panel. */
export const STATUS = 'mcpStatus';
/** chrome.storage.session: the latest steps [{at, agent, line, state, error?}], for the panel. */
export const STEPS = 'mcpSteps';

/** The first port the worker connects to, and how many from it (axsnap-mcp takes the first free one). */
export const DEFAULT_URL = 'ws://127.0.0.1:17373';
export const PORTS = 10;

/**
 * The setting as the worker uses it, or why it cannot: only a ws:// URL on
 * this computer (agents are local programs; a remote one would be a remote
 * control of the browser).
 * @returns {{ok: true, enabled: boolean, url: string, token: string, port: number, own: boolean} | {ok: false, why: string}}
 */
export function readSetting(raw) {
  const s = raw && typeof raw === 'object' ? raw : {};
  const token = typeof s.token === 'string' ? s.token.trim() : '';
  let u;
  try {
    u = new URL(typeof s.url === 'string' && s.url.trim() ? s.url.trim() : DEFAULT_URL);
  } catch {
    return { ok: false, why: `${JSON.stringify(s.url)} is not a URL like ${DEFAULT_URL}` };
  }
  if (u.protocol !== 'ws:' || !['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) {
    return { ok: false, why: `desktop agents connect only to ws:// on this computer (127.0.0.1), not ${u.href}` };
  }
  const port = Number(u.port || new URL(DEFAULT_URL).port);
  return { ok: true, enabled: s.enabled === true, url: `ws://${u.host}`.replace(/:\d+$/, ''), token, port, own: s.own === true };
}
