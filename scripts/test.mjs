// Every test: native Rust tests (core, CLI, MCP server, corpus, property tests), the
// Wasm facade in headless Chromium (page and service worker), the
// extension's type check, and end-to-end tests of the real extension in
// real Chromium. Installs what is missing first. Exits non-zero on any failure.
import { setup } from './setup.mjs';
import { build } from './build.mjs';
import { buildClient } from './client.mjs';
import { buildCdp } from './cdp.mjs';
import { run, step } from './lib.mjs';

const started = Date.now();
const stages = [
  ['setup', () => setup()],
  ['build the extension\'s Wasm', () => build()],
  // Also builds target/debug/axsnap-mcp for the end-to-end tests (crates/axsnap-mcp/tests/binary.rs says why
  // not a `cargo build -p axsnap-mcp` of its own). axsnap-wasm's tests all run in the next stage, in Chromium:
  // built natively too, they would compile js-sys and wasm-bindgen for nothing.
  ['native tests: cargo test --workspace --exclude axsnap-wasm (builds the MCP server too)', () => run('cargo', ['test', '--workspace', '--exclude', 'axsnap-wasm', '--quiet'])],
  ['Wasm tests in headless Chromium (wasm-bindgen-test)', () => run('cargo', ['test', '-p', 'axsnap-wasm', '--target', 'wasm32-unknown-unknown'], {
    env: { WASM_BINDGEN_TEST_TIMEOUT: '180', WASM_BINDGEN_TEST_DRIVER_TIMEOUT: '60' },
  })],
  ['type-check the extension', () => run('npx', ['--no-install', 'tsc', '-p', 'jsconfig.json'])],
  ['build and type-check the client package', () => buildClient()],
  ['build, type-check and load @axsnap/cdp', () => buildCdp({ quiet: true })],
  ['JavaScript tests: unit, and end to end with the extension in Chromium', () => run('node', ['--test', '--test-concurrency=1', 'tests/'])],
];

// Each stage's seconds, said again at the end: where CI's time goes.
const took = [];
for (const [name, fn] of stages) {
  step(name);
  const t = Date.now();
  try {
    await fn();
  } catch (e) {
    console.error(`\nFAILED: ${name}\n${e.message}`);
    process.exit(1);
  }
  took.push(`${String(Math.round((Date.now() - t) / 1000)).padStart(5)} s  ${name}`);
}
console.log(`\n${took.join('\n')}\nall tests passed in ${Math.round((Date.now() - started) / 1000)} s`);
