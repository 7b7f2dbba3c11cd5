// Which tabs a desktop agent may reach: the tabs it opened, plus the tabs the
// person shares from the side panel. (Not the tabs its pages open: Chrome
// gives a tab the person opens next to an agent's tab that tab as its opener
// too, so a popup must be shared like any other tab.) Kept in chrome.storage.local so an extension restart
// does not take an agent's tabs away; tab ids are unique only within a
// browser session, so both lists are cleared when the browser starts.

import { OWNED, SHARED } from './agent_setting.js';

/** One write at a time: read-modify-write of a storage key must not interleave. */
let queue = Promise.resolve();
const serial = (fn) => (queue = queue.then(fn, fn));

async function read() {
  const got = /** @type {any} */ (await chrome.storage.local.get([OWNED, SHARED]));
  return { owned: got[OWNED] || {}, shared: Array.isArray(got[SHARED]) ? got[SHARED] : [] };
}

/** The tabs an agent may reach, which of them it opened, and which the person shared. */
export async function reachable(agentId) {
  const { owned, shared } = await read();
  const mine = owned[agentId] || [];
  return { tabs: [...new Set([...mine, ...shared])], owned: mine, shared };
}

/** The agent opened this tab. */
export function own(agentId, tabId) {
  return serial(async () => {
    const { owned } = await read();
    const mine = owned[agentId] || [];
    if (!mine.includes(tabId)) owned[agentId] = [...mine, tabId];
    await chrome.storage.local.set({ [OWNED]: owned });
  });
}

/**
 * A closed tab is no one's any more. (The shared list is the panel's to
 * write; Chrome never reuses a tab id within a browser session, so a closed
 * tab left in it reaches nothing.)
 */
export function forget(tabId) {
  return serial(async () => {
    const { owned } = await read();
    if (!Object.values(owned).some((t) => t.includes(tabId))) return;
    for (const agent of Object.keys(owned)) {
      owned[agent] = owned[agent].filter((t) => t !== tabId);
      if (!owned[agent].length) delete owned[agent];
    }
    await chrome.storage.local.set({ [OWNED]: owned });
  });
}

/** The browser started: every tab id from before means nothing now. */
export function clearAll() {
  return serial(() => chrome.storage.local.remove([OWNED, SHARED]));
}

/** chrome.storage.session: agent id → the sites the person allowed it to reach (they end with the browser, like tab ids). */
export const AGENT_SITES = 'agentSites';

async function readSites() {
  return /** @type {Record<string, string[]>} */ ((/** @type {any} */ (await chrome.storage.session.get(AGENT_SITES)))[AGENT_SITES] || {});
}
/** An agent's list, never one inherited from Object.prototype (the id is the agent's to choose). */
const sitesOf = (all, agentId) => (Object.prototype.hasOwnProperty.call(all, agentId) && Array.isArray(all[agentId]) ? all[agentId] : []);

/** The sites the person allowed an agent to reach in the side panel. */
export async function allowedSites(agentId) {
  return sitesOf(await readSites(), agentId);
}

/** The person allowed the agent a site. */
export function allowSite(agentId, site) {
  return serial(async () => {
    const got = await readSites();
    const mine = sitesOf(got, agentId);
    if (!mine.includes(site)) await chrome.storage.session.set({ [AGENT_SITES]: { ...got, [agentId]: [...mine, site] } });
  });
}
