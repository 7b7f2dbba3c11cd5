// The store package: `npm run package` zips exactly what the extension loads,
// and the extension unpacked from that zip alone works in Chromium.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { unzipSync } from 'fflate';
import { launch, refOf, ROOT } from '../harness.mjs';
import { serve } from '../server.mjs';
import { run } from '../../scripts/lib.mjs';
import { ZIP } from '../../scripts/package.mjs';

let dir, b, server;

after(async () => {
  await b?.close();
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

test('npm run package builds a zip of only what the extension loads, and it loads and works', async () => {
  run('node', ['scripts/package.mjs'], { quiet: true });
  const files = unzipSync(await readFile(ZIP));
  const names = Object.keys(files).sort();
  for (const needed of ['manifest.json', 'extension/worker/service_worker.js', 'extension/worker/router.js', 'extension/panel/sidepanel.html',
    'extension/pkg/axsnap_wasm.js', 'extension/pkg/axsnap_wasm_bg.wasm', 'protocol/protocol.js', 'protocol/validate.js', 'extension/bridge/bridge.js']) {
    assert.ok(names.includes(needed), `${needed} missing from ${names.join(', ')}`);
  }
  // The Wasm glue imports the JS that packs a tree's nodes for the core (wasm-bindgen's snippets).
  assert.ok(names.some((n) => /^extension\/pkg\/snippets\/[^/]+\/src\/pack\.js$/.test(n)), `pack.js missing from ${names.join(', ')}`);
  const allowed = /^(manifest\.json|extension\/(worker|panel|agent|bridge)\/.+\.(js|html|css|png|svg)|extension\/pkg\/[^/]+\.(js|wasm)|extension\/pkg\/snippets\/[^/]+\/src\/[^/]+\.js|protocol\/[^/]+\.js|protocol\/vendor\/tldts\.js)$/;
  for (const name of names) assert.match(name, allowed, `${name} does not belong in the package`);
  assert.ok(!names.some((n) => /\.d\.ts$|package\.json$|\.rs$|^tests\/|^target\/|^node_modules\//.test(n)));

  dir = await mkdtemp(join(tmpdir(), 'axsnap-package-'));
  for (const [name, bytes] of Object.entries(files)) {
    await mkdir(dirname(join(dir, name)), { recursive: true });
    await writeFile(join(dir, name), bytes);
  }
  server = await serve({ '/': join(ROOT, 'tests/fixtures') });
  b = await launch({ extensionDir: dir });
  assert.ok(b.worker.url().startsWith('chrome-extension://'), 'the unpacked package\'s service worker runs');
  const page = await b.ctx.newPage();
  await page.goto(server.url('/demo.html'), { waitUntil: 'load' });
  const tabId = await b.tabId(page);
  const snap = await b.call({ cmd: 'snapshot', tabId });
  assert.equal(snap.ok, true, JSON.stringify(snap.error));
  assert.match(snap.text, /^page "axsnap demo: a small shop"/);
  assert.match(snap.text, /textbox A\d+ "Password" secret=current-password/);
  const click = await b.call({ cmd: 'act', tabId, ref: refOf(snap.text, 'Keep me signed in'), action: 'uncheck' });
  assert.equal(click.ok, true, JSON.stringify(click.error));
});
