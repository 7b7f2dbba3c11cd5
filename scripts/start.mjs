// The main job: Chromium with the extension loaded opens a page (the bundled
// demo by default, or a URL or local file), asks the extension for a
// snapshot through its message protocol, and prints it with its stats.
//
//   npm start [-- [URL|FILE] [--headed] [--mode interactive] [--full] [--format json] [--max-chars N]]
import { existsSync } from 'node:fs';
import { resolve, dirname, basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setup } from './setup.mjs';
import { build } from './build.mjs';

function parse(argv) {
  const o = { target: null, headed: false, options: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--headed') o.headed = true;
    else if (a === '--full') o.options.full = true;
    else if (a === '--mode') o.options.mode = argv[++i];
    else if (a === '--format') o.options.format = argv[++i];
    else if (a === '--max-chars') o.options.maxChars = Number(argv[++i]);
    else if (a === '-h' || a === '--help') { console.log('npm start -- [URL|FILE] [--headed] [--mode full|interactive] [--full] [--format text|json] [--max-chars N]'); process.exit(0); }
    else if (a.startsWith('--')) { console.error(`unknown flag ${a}`); process.exit(2); }
    else o.target = a;
  }
  return o;
}

const args = parse(process.argv.slice(2));
setup();
build({ quiet: true });
// Imported after setup: they need the npm dependencies.
const { launch } = await import('../tests/harness.mjs');
const { serve } = await import('../tests/server.mjs');

let server = null;
let url;
if (args.target && /^[a-z]+:\/\//i.test(args.target)) {
  url = args.target;
} else if (args.target) {
  const file = resolve(args.target);
  if (!existsSync(file)) { console.error(`no such file: ${file}`); process.exit(2); }
  server = await serve({ '/': dirname(file) });
  url = server.url(`/${encodeURIComponent(basename(file))}`);
} else {
  server = await serve({ '/': resolve(import.meta.dirname, '../tests/fixtures') });
  url = server.url('/demo.html');
}

const browser = await launch({ headless: !args.headed });
let code = 0;
try {
  const page = await browser.ctx.newPage();
  try {
    await page.goto(url, { waitUntil: 'load', timeout: 60000 });
  } catch (e) {
    // Unreachable pages still get a snapshot (Chrome's error page); say why.
    console.error(`axsnap: could not load ${url}: ${e.message.split('\n')[0]}`);
  }
  const res = await browser.call({ cmd: 'snapshot', tabId: await browser.tabId(page), options: args.options });
  if (!res.ok) {
    console.error(`axsnap: ${res.error.code}: ${res.error.message}`);
    code = 1;
  } else {
    process.stdout.write(res.text.endsWith('\n') ? res.text : `${res.text}\n`);
    const s = res.stats;
    console.error(`\n${url}\nrefs=${s.refs} chars=${s.chars} tokens_est=${s.tokensEst} lines=${s.lines} frames=${s.frames} secrets=${s.secrets} ` +
      `ax_nodes=${s.nodesIn} truncated_lines=${s.truncatedLines}\n` +
      `fetch=${s.timings.fetchMs}ms secret_scan=${s.timings.secretsMs}ms serialize=${s.timings.serializeMs}ms total=${s.timings.totalMs}ms`);
  }
  if (args.headed) {
    console.error('The window stays open: press Ctrl+C to quit.');
    await new Promise(() => {});
  }
} finally {
  await browser.close();
  if (server) await server.close();
}
process.exit(code);
