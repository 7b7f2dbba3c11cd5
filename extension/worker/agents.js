// Desktop agents (MCP): the service worker's side of the bridge to
// axsnap-mcp servers on this computer (crates/axsnap-mcp). Only when the
// person has turned "Allow desktop agents" on and entered the pairing token
// does the worker connect, to each server on the configured port and the
// nine after it (one server per agent); every request a server sends goes
// through the router as a caller {kind:'agent', id, tabs}, so the policy
// decides what it may reach like for every other caller.
//
// The setting, and what the panel shows, are in chrome.storage (agent_setting.js).
//
// The handshake (see crates/axsnap-mcp/src/pairing.rs): both sides prove they
// hold the token with an HMAC over fresh nonces, so the token never crosses
// the socket; then every frame is sealed with keys bound to this connection
// (./channel.js), so a program on the port that relays to a real server reads
// nothing, and a frame it replays, alters or forges closes the connection.

import { handle } from './router.js';
import { onForget } from './session.js';
import { toPayload } from './errors.js';
import { AxError } from '../../protocol/errors.js';
import * as agentTabs from './agent_tabs.js';
import { SETTINGS, STATUS, STEPS, PORTS, readSetting } from './agent_setting.js';
import { stepLine } from './steps.js';
import { PROTOCOL, OLD_PROTOCOL, extensionProof, serverProof, openChannel, randomHex } from './channel.js';

const KEEPALIVE_MS = 20000;
const ALARM = 'mcp-reconnect';
const MAX_RETRY_MS = 30000;
const STEPS_KEPT = 40;
/**
 * Close codes: 4000 the person turned agents off (or changed the pairing), 4001 the server refused our
 * proof, 4002 the server failed its own, 4003 the server has another browser connected, 4004 a frame did
 * not open (either side), 4005 the server speaks an older protocol.
 */
const CLOSE_OFF = 4000;
const REFUSED = 4001;
const BAD_SERVER = 4002;
const BUSY = 4003;
const TAMPERED = 4004;
const OUTDATED = 4005;
const TAMPERED_WHY = 'a frame failed authentication (altered, replayed or injected between axsnap and the server): disconnected';

/**
 * @typedef {{port: number, ws: WebSocket, challenge: string, ready: boolean, agent: {id: string, name: string}|null,
 *   since: number, keepalive?: ReturnType<typeof setInterval>, controller: AbortController,
 *   channel: Awaited<ReturnType<typeof openChannel>>|null, inbox: Promise<unknown>}} Link
 */

/** @type {{url: string, token: string, port: number, key: string, own: boolean} | null} the setting in force, null when off */
let current = null;
/** @type {Map<number, Link>} */
const links = new Map();
/** port → consecutive failures, for the backoff */
const retries = new Map();
/** port → pending reconnect timer */
const timers = new Map();
/** port → why the server there refused us, shown in the panel */
const refusals = new Map();

/** Registers the listeners (synchronously, at the worker's top level) and connects if allowed. */
export function startAgents() {
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && changes[SETTINGS]) apply();
  });
  chrome.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) apply();
  });
  onForget((tabId, why) => {
    if (why === 'closed') agentTabs.forget(tabId);
  });
  chrome.runtime.onStartup.addListener(() => {
    agentTabs.clearAll();
  });
  apply();
}

/** Brings the connections in line with the setting: connects, or closes everything at once. */
async function apply() {
  const stored = /** @type {any} */ (await chrome.storage.local.get(SETTINGS))[SETTINGS];
  const s = readSetting(stored);
  const on = s.ok && s.enabled && s.token ? s : null;
  const key = on ? `${on.url}:${on.port} ${on.token} ${on.own}` : null;
  if (!on || (current && current.key !== key)) {
    closeAll(on ? 'the pairing changed' : 'turned off in the side panel');
    current = null;
  }
  if (!on) {
    chrome.alarms.clear(ALARM);
    await publish('why' in s ? s.why : s.enabled ? 'Enter the token that axsnap-mcp prints to pair.' : null);
    return;
  }
  if (!current) {
    current = { url: on.url, token: on.token, port: on.port, key, own: on.own };
    refusals.clear();
    retries.clear();
  }
  // An alarm wakes the worker to look for servers again: a stopped worker runs no timers.
  chrome.alarms.create(ALARM, { periodInMinutes: 0.5 });
  for (let port = on.port; port < on.port + PORTS; port++) {
    if (!links.has(port) && !timers.has(port)) connect(port);
  }
  await publish();
}

function closeAll(reason) {
  for (const t of timers.values()) clearTimeout(t);
  timers.clear();
  for (const link of [...links.values()]) drop(link, CLOSE_OFF, reason);
}

/** Ends a link now: in-flight work is aborted, nothing more is sent or run. */
function drop(link, code, reason) {
  links.delete(link.port);
  link.ready = false;
  clearInterval(link.keepalive);
  link.controller.abort(new AxError('disconnected', reason));
  try {
    link.ws.close(code, reason);
  } catch { /* already closed */ }
}

async function connect(port) {
  const s = current;
  if (!s) return;
  const challenge = `${Math.floor(Date.now() / 1000)}.${randomHex(16)}`;
  const mine = await extensionProof(s.token, challenge);
  if (current !== s || links.has(port)) return;
  /** @type {Link} */
  const link = {
    port, challenge, ready: false, agent: null, since: Date.now(), controller: new AbortController(), channel: null, inbox: Promise.resolve(),
    // The older protocol is offered only so that an older server answers it, and is told to update.
    ws: new WebSocket(`${s.url}:${port}`, [PROTOCOL, OLD_PROTOCOL, `axsnap-auth.${challenge}.${mine}`]),
  };
  link.ws.binaryType = 'arraybuffer';
  links.set(port, link);
  link.ws.onopen = () => {
    if (link.ws.protocol === PROTOCOL) return;
    refusals.set(port, `the axsnap-mcp on this port speaks ${link.ws.protocol || 'another protocol'}, this extension ${PROTOCOL}: update axsnap-mcp`);
    drop(link, OUTDATED, `this extension speaks ${PROTOCOL}: update axsnap-mcp`);
    publish();
  };
  // Frames are opened one after another, in the order they came: the channel counts them.
  link.ws.onmessage = (e) => { link.inbox = link.inbox.then(() => onMessage(link, s, e.data)); };
  link.ws.onclose = (e) => onClose(link, s, e);
}

async function onMessage(link, s, data) {
  if (links.get(link.port) !== link) return;
  if (!link.channel) return hello(link, s, data);
  let msg;
  try {
    msg = JSON.parse(await link.channel.open(data));
  } catch {
    // Not the server's next sealed frame: whatever sent it is not the server we paired with, or not only it.
    if (links.get(link.port) !== link) return;
    refusals.set(link.port, TAMPERED_WHY);
    drop(link, TAMPERED, 'a frame failed authentication');
    return publish();
  }
  if (links.get(link.port) !== link) return;
  if (msg.type === 'welcome' && !link.agent) {
    const id = typeof msg.agent?.id === 'string' && msg.agent.id ? msg.agent.id : `port ${link.port}`;
    link.agent = { id, name: agentName(msg.agent?.name) };
    link.ready = true;
    link.since = Date.now();
    retries.delete(link.port);
    refusals.delete(link.port);
    // WebSocket traffic keeps an MV3 service worker alive (Chrome 116+) while an agent is connected.
    link.keepalive = setInterval(() => link.channel?.send('{"type":"ping"}'), KEEPALIVE_MS);
    return publish();
  }
  if (!link.ready) return;
  if (msg.type === 'agent' && link.agent) {
    link.agent.name = agentName(msg.name);
    return publish();
  }
  if (Number.isSafeInteger(msg.id) && msg.request !== undefined) {
    // Not awaited: requests run side by side, and the frames after this one are opened meanwhile.
    answer(link, msg.request).then((response) => {
      if (link.ready) link.channel.send(JSON.stringify({ id: msg.id, response }));
    });
  }
}

/** The server's first message, the only one in the clear: its nonce, and its proof bound to both nonces. */
async function hello(link, s, data) {
  let msg;
  try {
    msg = JSON.parse(String(data));
  } catch {
    return;
  }
  if (msg.type !== 'hello') return;
  const nonce = typeof msg.nonce === 'string' && /^[0-9a-f]{32,64}$/.test(msg.nonce) ? msg.nonce : null;
  const transcript = `${link.challenge}.${nonce}`;
  // The server proves it holds the token before anything it asks is run.
  if (!nonce || typeof msg.proof !== 'string' || msg.proof !== await serverProof(s.token, transcript)) {
    refusals.set(link.port, 'the program on this port could not prove the pairing token');
    drop(link, BAD_SERVER, 'bad proof');
    return publish();
  }
  const channel = await openChannel(s.token, transcript, 'extension', (frame) => link.ws.send(frame));
  if (links.get(link.port) !== link) return;
  link.channel = channel;
  channel.send(JSON.stringify({ type: 'ready', extension: chrome.runtime.getManifest().version }));
}

const agentName = (name) => (typeof name === 'string' && name.trim() ? name.trim().slice(0, 60) : 'agent');

function onClose(link, s, event) {
  const wasOurs = links.get(link.port) === link;
  if (wasOurs) drop(link, CLOSE_OFF, 'closed');
  const refused = event.code === REFUSED || event.code === BUSY || event.code === TAMPERED;
  // Said in the extension's own words: a relay could send this close frame, and its reason, too.
  if (event.code === TAMPERED) refusals.set(link.port, TAMPERED_WHY);
  else if (refused) refusals.set(link.port, `refused: ${event.reason || 'wrong pairing token'}`);
  if (current !== s || !wasOurs) return publish();
  // The server went away (or is not there yet): try again, sooner after a
  // working connection, rarely after a refusal (the alarm still looks).
  const n = (retries.get(link.port) || 0) + (link.agent ? 0 : 1);
  retries.set(link.port, n);
  const delay = refused ? MAX_RETRY_MS : Math.min(MAX_RETRY_MS, 500 * 2 ** n);
  timers.set(link.port, setTimeout(() => {
    timers.delete(link.port);
    if (current === s) connect(link.port);
  }, delay));
  return publish();
}

/** Runs one request from an agent: through the router, as that agent. Never throws. */
async function answer(link, request) {
  const agent = link.agent;
  const signal = link.controller.signal;
  if (!agent || signal.aborted) return { ok: false, error: { code: 'disconnected', message: 'desktop agents were turned off' } };
  const { tabs, owned, shared } = await agentTabs.reachable(agent.id);
  // The signal ends a long wait_for when the link goes.
  // In the browser axsnap-mcp --launch started for it, the agent is the only one there: `own`.
  const caller = /** @type {const} */ ({ kind: 'agent', id: agent.id, name: agent.name, tabs, owned, signal, own: Boolean(current?.own) });
  const step = await record(agent, request, caller);
  let res;
  try {
    res = await handle(request, caller);
  } catch (e) {
    res = { ok: false, error: toPayload(e) };
  }
  if (res.ok && request.cmd === 'tabs') {
    if (request.action === 'open' && Number.isInteger(res.tabId)) await agentTabs.own(agent.id, res.tabId);
    if ((request.action ?? 'list') === 'list') res.tabs = res.tabs.map((t) => (shared.includes(t.tabId) ? { ...t, shared: true } : t));
  }
  await finish(step, res);
  return res;
}

// ---- What the panel shows

let steps = null;

async function record(agent, req, caller) {
  let name;
  if (req && req.cmd === 'act' && typeof req.ref === 'string' && Number.isInteger(req.tabId)) {
    const r = await handle({ cmd: 'resolve', tabId: req.tabId, ref: req.ref }, caller);
    if (r.ok) name = r.name;
  }
  if (!steps) steps = /** @type {any} */ (await chrome.storage.session.get(STEPS))[STEPS] || [];
  const step = { at: Date.now(), agent: agent.name, line: stepLine(req, name), state: 'running' };
  steps = [...steps, step].slice(-STEPS_KEPT);
  await chrome.storage.session.set({ [STEPS]: steps });
  return step;
}

async function finish(step, res) {
  step.state = res.ok ? 'done' : 'failed';
  if (!res.ok) step.error = res.error.code;
  await chrome.storage.session.set({ [STEPS]: steps });
}

/** Writes what the panel shows: the setting's state, who is connected, what was refused. */
async function publish(problem = null) {
  const agents = [...links.values()].filter((l) => l.ready && l.agent).map((l) => ({ port: l.port, id: l.agent.id, name: l.agent.name, since: l.since }));
  const status = {
    on: Boolean(current),
    ports: current ? [current.port, current.port + PORTS - 1] : null,
    agents,
    problem: problem || [...refusals.entries()].map(([port, why]) => `port ${port}: ${why}`).join('; ') || null,
  };
  await chrome.storage.session.set({ [STATUS]: status });
}
