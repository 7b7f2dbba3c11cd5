// Who is guarded, and the guard around their requests. A caller that acts
// with the person's authority without the person watching each step is
// guarded: a desktop agent always (it may reach the sites of the tabs the
// person shared with it and the sites the person allowed it), the co-pilot
// when its request carries `guard: {sites}` (its task's sites). The panel's
// own requests without `guard` (the developer view: the person at the
// keyboard) and web pages (reaching only what the person granted their
// origin) are not.
//
// A guarded `navigate` or `tabs open` to a site not allowed, and a guarded
// `act` that the DOM says submits a form to one, follows a link to one or
// opens a window on one (judge.js, from forms.js's facts read right before
// the press), ask the person in the side panel first; the network edge
// (edge.js) holds what the page does beyond that while the action runs.

import { siteOf } from '../../protocol/site.js';
import { confirm, CONFIRM_MS } from './confirm.js';
import { judgeAct, judgeUrl, withPage } from './judge.js';
import { formFacts } from './forms.js';
import { guardTab, sitesOfFrames } from './edge.js';
import { locateFrame, listFrames } from './frames.js';
import { tabSession, onForget } from './session.js';
import { transport } from './transport.js';
import { allowedSites, allowSite } from './agent_tabs.js';

/** An agent's call over the bridge gives up after 25 s for a navigation: the person has less to answer, so that it learns the outcome. */
const AGENT_CONFIRM_MS = 20000;

/**
 * @typedef {{who: string, sites: Set<string>, agent?: string, ms: number, signal?: AbortSignal, allowedNow: Set<string>}} Guard
 */

/**
 * The guard of a request, or null when the caller is not guarded.
 * @param {import('./policy.js').Caller} caller
 * @param {{guard?: {sites?: string[]}}} req
 * @returns {Promise<Guard|null>}
 */
export async function guardOf(caller, req) {
  // An agent in its own browser (axsnap-mcp --launch): no person's sites to guard, nobody to ask.
  if (caller.kind === 'agent' && caller.own) return null;
  if (caller.kind === 'agent') {
    const owned = caller.owned || [];
    const shared = caller.tabs.filter((t) => !owned.includes(t));
    const sharedUrls = await Promise.all(shared.map((t) => chrome.tabs.get(t).then((x) => x.url || x.pendingUrl || '', () => '')));
    const sites = new Set([...(await allowedSites(caller.id)), ...sharedUrls.map(siteOf)].filter(Boolean));
    return { who: `The desktop agent ${caller.name || caller.id}`, sites, agent: caller.id, ms: AGENT_CONFIRM_MS, signal: caller.signal, allowedNow: new Set() };
  }
  if (caller.kind === 'panel' && req.guard) {
    return { who: 'The co-pilot', sites: new Set((req.guard.sites || []).filter(Boolean)), ms: CONFIRM_MS, allowedNow: new Set() };
  }
  return null;
}

/** Calls `then` once the tab closes; answers how to stop listening. */
const onTabClosed = (tabId, then) => onForget((closed, why) => {
  if (closed === tabId && why === 'closed') then();
});

/** Asks the person about one step; on "Allow once" the site joins the guard (and the agent's sites). */
async function ask(guard, tabId, a) {
  await confirm({ ...a, tabId, who: guard.who }, { ms: guard.ms, signal: guard.signal, onTabClosed });
  guard.sites.add(a.site);
  guard.allowedNow.add(a.site);
  if (guard.agent) await allowSite(guard.agent, a.site);
}

/**
 * A guarded navigation (`navigate`, `tabs open`) to `url`: asks when its site
 * is not allowed (nor the tab's own, `from`); throws when the person does not allow it.
 * @param {Guard|null} guard @param {number} tabId  the tab asked about (the panel says which) @param {string} url @param {string} [from]
 */
export async function checkNavigation(guard, tabId, url, from) {
  if (!guard) return;
  const a = judgeUrl(url, withPage(guard.sites, from), 'navigation');
  if (a) await ask(guard, tabId, a);
}

/** What the answer says of the guard: the sites the person allowed during the request. */
export const guardAnswer = (guard) => (guard && guard.allowedNow.size ? { allowedSites: [...guard.allowedNow] } : {});

/**
 * Starts guarding an `act`: the network edge on the tab, and a judge of the
 * target's facts right before the press (`t.beforePress`, which actions.js
 * calls once the pointer is on the element; the page may have changed the
 * form's action until then). `stop()` ends it and answers `blocked` and
 * `allowedSites`.
 * @param {Guard} guard
 * @param {number} tabId
 * @param {any} t  the target (router.js), to which `beforePress` is added
 * @param {{action: string, value?: any}} req
 */
export async function guardAct(guard, tabId, t, req) {
  const [tab, frames, session] = await Promise.all([transport().tab(tabId), listFrames(tabId), tabSession(tabId)]);
  const pageUrl = tab.url || tab.pendingUrl || '';
  const edge = await guardTab(tabId, {
    allowed: guard.sites, ask: (a) => ask(guard, tabId, a), pageUrl, pageSites: sitesOfFrames(frames),
    sessions: [undefined, ...session.oopifs.keys()],
  });
  if (t.backendNodeId !== undefined) {
    t.beforePress = async () => {
      const here = await locateFrame(tabId, t.frame);
      const facts = here ? (await formFacts(tabId, here.sessionId, [t.backendNodeId])).get(t.backendNodeId) : undefined;
      const a = judgeAct({ action: req.action, value: req.value, facts, pageUrl, allowed: guard.sites });
      if (!a) return;
      await ask(guard, tabId, a);
      await edge.allow();
    };
  }
  return {
    idle: () => edge.idle(),
    /** @param {boolean} [settled]  the page was waited for until it settled */
    async stop(settled = false) {
      const { blocked } = await edge.stop(settled);
      return { ...(blocked.length ? { blocked } : {}), ...guardAnswer(guard) };
    },
  };
}
