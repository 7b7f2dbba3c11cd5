// A small agent dashboard on @axsnap/client: it lists the tabs the person
// allowed this site to reach, shows a live snapshot of one with its token
// count (a subscription pushes each change: the diff, and the view is taken
// again), and runs one action on a ref. Every call is the client's; every
// failure is shown with the protocol's error code.
import { connect, AxsnapError } from '@axsnap/client';

const $ = (id) => document.getElementById(id);
const status = (text) => { $('status').textContent = text; };
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
const describe = (e) => (e instanceof AxsnapError ? `${e.code}: ${e.message}` : String(e));

/** The one client, once axsnap answered and the person allowed this site. */
let ax = null;
/** The tab whose snapshot is shown, and its subscription. */
let chosen = null;
let subscription = null;
/** Why the person cut this site off (revoked, denied): the app stops asking. */
let closedBy = null;

async function start() {
  for (;;) {
    try {
      ax = await connect();
      break;
    } catch (e) {
      // No bridge yet: the person lets this site connect from axsnap's side panel, in this tab.
      status(`${describe(e)}. Waiting…`);
      await wait(2000);
    }
  }
  ax.on((event) => {
    if (event.event !== 'closed') return;
    closedBy = event.error.code;
    status(`axsnap closed this site's connection: ${closedBy}`);
  });
  if (ax.access !== 'once' && ax.access !== 'always') status('Allow this site in axsnap\'s side panel (Allow once or Always allow).');
  try {
    await ax.untilAllowed({ timeout: 10 * 60 * 1000 });
  } catch (e) {
    status(describe(e));
    return;
  }
  status(`Connected over ${ax.via === 'bridge' ? 'the axsnap bridge' : 'externally_connectable'}: ${ax.access === 'always' ? 'always allowed' : 'allowed in this tab'}.`);
  refreshTabs();
}

/** The tab list, asked for again every two seconds (the person may share or stop sharing a tab). */
async function refreshTabs() {
  while (!closedBy) {
    try {
      const tabs = await ax.tabs();
      renderTabs(tabs);
      if (chosen !== null && !tabs.some((t) => t.tabId === chosen)) choose(null);
    } catch (e) {
      if (!closedBy) status(describe(e));
    }
    await wait(2000);
  }
}

function renderTabs(tabs) {
  const key = JSON.stringify(tabs.map((t) => [t.tabId, t.title, chosen === t.tabId]));
  if ($('tabs').dataset.key === key) return;
  $('tabs').dataset.key = key;
  $('tabs').replaceChildren(...tabs.map((t) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = `${t.title || t.url} (tab ${t.tabId})`;
    b.setAttribute('aria-pressed', String(chosen === t.tabId));
    b.addEventListener('click', () => choose(t.tabId));
    const li = document.createElement('li');
    li.append(b);
    return li;
  }));
}

async function choose(tabId) {
  chosen = tabId;
  $('tabs').dataset.key = '';
  $('view').textContent = '';
  $('changes').textContent = '';
  const previous = subscription;
  subscription = null;
  await previous?.stop();
  if (tabId === null) {
    $('view-info').textContent = 'Choose a tab.';
    return;
  }
  $('view-info').textContent = 'Loading…';
  try {
    const sub = await ax.watch({ tabId, options: { mode: 'full' } }, (event) => onChange(tabId, event));
    if (chosen !== tabId) return sub.stop();
    subscription = sub;
    show(sub.first);
  } catch (e) {
    if (chosen === tabId) $('view-info').textContent = describe(e);
  }
}

/** The whole snapshot in the view, with its size. */
function show(snap) {
  $('view').textContent = snap.text;
  $('view-info').textContent = `Tab ${snap.tabId}: ${snap.stats.tokensEst} tokens, ${snap.stats.refs} refs, ${snap.stats.timings.totalMs.toFixed(0)} ms`;
}

/** A change the subscription pushed: a diff is shown as it is, and the view is taken again whole. */
async function onChange(tabId, event) {
  if (chosen !== tabId) return;
  if (event.event === 'ended') {
    $('view-info').textContent = `The subscription ended: ${event.error.code}`;
    return;
  }
  if (!event.diff || event.diff.full) return show(event);
  $('changes').textContent = `${event.text}\n(${event.stats.tokensEst} tokens)`;
  try {
    show(await ax.snapshot({ tabId, mode: 'full' }));
  } catch (e) {
    $('view-info').textContent = describe(e);
  }
}

$('act').addEventListener('submit', async (e) => {
  e.preventDefault();
  const form = new FormData($('act'));
  if (!ax || chosen === null) {
    $('act-result').textContent = 'Choose a tab first.';
    return;
  }
  const ref = String(form.get('ref')).trim();
  const action = String(form.get('action'));
  try {
    const done = await ax.act(action === 'fill' ? { tabId: chosen, ref, action, value: String(form.get('value')) } : { tabId: chosen, ref, action: 'click' });
    $('act-result').textContent = `Done: ${done.action} ${done.ref}`;
  } catch (err) {
    $('act-result').textContent = `Failed: ${describe(err)}`;
  }
});

start();
