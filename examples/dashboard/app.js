// A small agent dashboard on @axsnap/client: it lists the tabs the person
// allowed this site to reach, shows a live snapshot of one with its token
// count, and runs one action on a ref. Every call is the client's; every
// failure is shown with the protocol's error code.
import { connect, AxsnapError } from '@axsnap/client';

const $ = (id) => document.getElementById(id);
const status = (text) => { $('status').textContent = text; };
const wait = (ms) => new Promise((r) => setTimeout(r, ms));
const describe = (e) => (e instanceof AxsnapError ? `${e.code}: ${e.message}` : String(e));

/** The one client, once axsnap answered and the person allowed this site. */
let ax = null;
/** The tab whose snapshot is shown. */
let chosen = null;
let lastText = null;

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
    if (event.event === 'closed') status(`axsnap closed this site's connection: ${event.error.code}`);
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
  showLive();
}

/** The tab list, asked for again every two seconds (the person may share or stop sharing a tab). */
async function refreshTabs() {
  for (;;) {
    try {
      const tabs = await ax.tabs();
      renderTabs(tabs);
      if (chosen !== null && !tabs.some((t) => t.tabId === chosen)) choose(null);
    } catch (e) {
      status(describe(e));
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

function choose(tabId) {
  chosen = tabId;
  lastText = null;
  $('tabs').dataset.key = '';
  $('view').textContent = '';
  $('view-info').textContent = tabId === null ? 'Choose a tab.' : 'Loading…';
}

/** The chosen tab's snapshot, kept current (a new one every second; the text is replaced only when it changed). */
async function showLive() {
  for (;;) {
    const tabId = chosen;
    if (tabId !== null) {
      try {
        const snap = await ax.snapshot({ tabId, mode: 'full' });
        if (tabId === chosen && snap.text !== lastText) {
          lastText = snap.text;
          $('view').textContent = snap.text;
          $('view-info').textContent = `Tab ${tabId}: ${snap.stats.tokensEst} tokens, ${snap.stats.refs} refs, ${snap.stats.timings.totalMs.toFixed(0)} ms`;
        }
      } catch (e) {
        if (tabId === chosen) $('view-info').textContent = describe(e);
      }
    }
    await wait(1000);
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
