// Tokens per MCP tool result for the same short flow, through axsnap's MCP
// tools (axsnap-mcp and the extension) and through chrome-devtools-mcp, side
// by side in one Chromium: open a sign-in page, look at it, fill the email,
// click Sign in, look again, go to a shop page, look at it; then one page of
// the shared corpus. Counts o200k_base tokens of every result's text, and of
// each server's tool list (what every conversation pays up front).
//
//   npm run bench:mcp [-- --corpus DIR]
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { setup } from './setup.mjs';
import { build } from './build.mjs';
import { ROOT, run } from './lib.mjs';

const corpusArg = process.argv.indexOf('--corpus');
const corpus = corpusArg > 0 ? resolve(process.argv[corpusArg + 1]) : process.env.AXSNAP_CORPUS_PAGES || resolve(ROOT, '../shared/corpus');
const CORPUS_PAGE = 'form-github-login';

setup();
build({ quiet: true });
run('cargo', ['build', '-p', 'axsnap-mcp', '--quiet']);
const { get_encoding: getEncoding } = await import('tiktoken');
const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport, getDefaultEnvironment } = await import('@modelcontextprotocol/sdk/client/stdio.js');
const { serve } = await import('../tests/server.mjs');
const { EXTENSION_ID, launchWithCdp } = await import('../tests/harness.mjs');

const enc = getEncoding('o200k_base');
const tokens = (s) => enc.encode(s).length;
const CANARY = 'CANARY-7f3a9c-pw';

const roots = { '/': join(ROOT, 'tests/fixtures') };
if (existsSync(join(corpus, 'pages'))) roots['/corpus/'] = join(corpus, 'pages');
const server = await serve(roots);

// One Chromium with the extension, reachable over CDP by chrome-devtools-mcp.
const cdpPort = 9900 + Math.floor(Math.random() * 90);
const chromiumProcess = await launchWithCdp(cdpPort);
const { browser } = chromiumProcess;
const ctx = browser.contexts()[0];

/** Each client's tools/list result as the server sent it: the SDK's parsed copy
 *  may add or drop fields, and the tokens a conversation pays are the server's. */
const wireTools = new Map();

async function client(command, args, name, env = undefined) {
  const c = new Client({ name, version: '1' });
  const transport = new StdioClientTransport({ command, args, stderr: 'ignore', env });
  await c.connect(transport);
  const deliver = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message?.result?.tools) wireTools.set(c, message.result.tools);
    deliver?.(message, extra);
  };
  return c;
}

// axsnap: its server, and the extension paired with it.
const token = randomBytes(16).toString('hex');
const mcpPort = 17400 + Math.floor(Math.random() * 500);
const axsnap = await client(join(ROOT, 'target/debug/axsnap-mcp'), ['--port', String(mcpPort)], 'bench',
  { ...getDefaultEnvironment(), AXSNAP_MCP_TOKEN: token });
const panel = await ctx.newPage();
await panel.goto(`chrome-extension://${EXTENSION_ID}/extension/panel/sidepanel.html`);
await panel.evaluate((s) => chrome.storage.local.set({ mcp: s }), { enabled: true, url: `ws://127.0.0.1:${mcpPort}`, token });

const cdt = await client(process.execPath, [join(ROOT, 'node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js'),
  '--browserUrl', `http://127.0.0.1:${cdpPort}`, '--no-usage-statistics', '--no-performance-crux'], 'bench');

const textOf = (r) => (r.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
async function call(c, name, args) {
  const r = await c.callTool({ name, arguments: args });
  const text = textOf(r);
  if (r.isError) throw new Error(`${name}: ${text}`);
  return text;
}

/** The ref on the line naming `needle`: axsnap's `textbox A3 "Email"`, chrome-devtools-mcp's `uid=1_4 textbox "Email"`. */
function idOn(text, needle, re) {
  const line = text.split('\n').find((l) => l.includes(needle));
  const m = line && line.match(re);
  if (!m) throw new Error(`no id on the line with ${needle}:\n${text}`);
  return m[1];
}
const axRef = (t, n) => idOn(t, n, /(?:^|\s)(A\d+)\b/);
const cdtUid = (t, n) => idOn(t, n, /uid=(\S+)/);

const signIn = server.url('/agent.html');
const shop = server.url('/demo.html');
const page = roots['/corpus/'] ? server.url(`/corpus/${CORPUS_PAGE}.html`) : null;

/** The flow, step by step: [step, tool call] for each server. */
const flows = {
  axsnap: async (step) => {
    await step('open the sign-in page', () => call(axsnap, 'browser_navigate', { url: signIn }));
    const snap = await step('snapshot', () => call(axsnap, 'browser_snapshot', {}));
    await step('fill the email', () => call(axsnap, 'browser_act', { action: 'fill', ref: axRef(snap, '"Email"'), value: 'ada@example.com' }));
    await step('click Sign in', () => call(axsnap, 'browser_act', { action: 'click', ref: axRef(snap, 'button "Sign in"') }));
    await step('snapshot again', () => call(axsnap, 'browser_snapshot', {}));
    await step('go to the shop', () => call(axsnap, 'browser_navigate', { url: shop }));
    await step('snapshot of the shop', () => call(axsnap, 'browser_snapshot', {}));
    if (page) {
      await step(`go to ${CORPUS_PAGE}`, () => call(axsnap, 'browser_navigate', { url: page }));
      await step(`snapshot of ${CORPUS_PAGE}`, () => call(axsnap, 'browser_snapshot', {}));
    }
  },
  // Its default setup: page-scoped tools name their page (pageId routing).
  cdt: async (step) => {
    const opened = await step('open the sign-in page', () => call(cdt, 'new_page', { url: signIn }));
    const line = opened.split('\n').find((l) => l.includes(signIn));
    const pageId = Number(line && line.match(/(\d+):/)?.[1]);
    if (!Number.isInteger(pageId)) throw new Error(`no page id for ${signIn} in:\n${opened}`);
    const snap = await step('snapshot', () => call(cdt, 'take_snapshot', { pageId }));
    await step('fill the email', () => call(cdt, 'fill', { pageId, uid: cdtUid(snap, '"Email"'), value: 'ada@example.com' }));
    await step('click Sign in', () => call(cdt, 'click', { pageId, uid: cdtUid(snap, 'button "Sign in"') }));
    await step('snapshot again', () => call(cdt, 'take_snapshot', { pageId }));
    await step('go to the shop', () => call(cdt, 'navigate_page', { pageId, type: 'url', url: shop }));
    await step('snapshot of the shop', () => call(cdt, 'take_snapshot', { pageId }));
    if (page) {
      await step(`go to ${CORPUS_PAGE}`, () => call(cdt, 'navigate_page', { pageId, type: 'url', url: page }));
      await step(`snapshot of ${CORPUS_PAGE}`, () => call(cdt, 'take_snapshot', { pageId }));
    }
  },
};

const results = {};
const secretSeen = {};
try {
  for (const [name, flow] of Object.entries(flows)) {
    results[name] = [];
    secretSeen[name] = false;
    await flow(async (label, fn) => {
      const text = await fn();
      results[name].push({ label, tokens: tokens(text) });
      if (process.env.AXSNAP_BENCH_SHOW) console.log(`--- ${name}: ${label}\n${text}`);
      if (text.includes(CANARY) || /"Password"[^\n]*•/.test(text)) secretSeen[name] = true;
      return text;
    });
  }
} catch (e) {
  // A failed step leaves no Chromium and no server behind.
  console.error(e.message);
  await Promise.all([axsnap.close(), cdt.close(), chromiumProcess.close(), server.close()]);
  process.exit(1);
}

const listTokens = async (c) => {
  await c.listTools();
  return tokens(JSON.stringify(wireTools.get(c)));
};
const lists = { axsnap: await listTokens(axsnap), cdt: await listTokens(cdt) };

const rows = results.axsnap.map((r, i) => {
  const other = results.cdt[i].tokens;
  return `| ${r.label} | ${r.tokens} | ${other} | ${(r.tokens / other).toFixed(2)} |`;
});
const total = (n) => results[n].reduce((a, r) => a + r.tokens, 0);
console.log([
  `Tokens (o200k_base) per tool result, Chromium ${browser.version()}:`,
  '',
  '| step | axsnap MCP | chrome-devtools-mcp | ratio |',
  '|---|---|---|---|',
  ...rows,
  `| **flow total** | **${total('axsnap')}** | **${total('cdt')}** | **${(total('axsnap') / total('cdt')).toFixed(2)}** |`,
  `| tool list (once per conversation) | ${lists.axsnap} | ${lists.cdt} | ${(lists.axsnap / lists.cdt).toFixed(2)} |`,
  '',
  `Password value or length in a result: axsnap ${secretSeen.axsnap ? 'yes' : 'no'}, chrome-devtools-mcp ${secretSeen.cdt ? 'yes' : 'no'}.`,
  page ? '' : `(No corpus at ${corpus}: the corpus page was skipped.)`,
].join('\n'));

await axsnap.close();
await cdt.close();
await chromiumProcess.close();
await server.close();
