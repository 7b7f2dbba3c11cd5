// Builds the Wasm core into extension/pkg: cargo (release: the core at opt-level 3 for speed, the rest for size) →
// wasm-bindgen (--target web) → wasm-opt -Oz (npm binaryen); and bundles the
// side panel (with the agent loop and the AI SDK) into extension/panel/dist
// with esbuild, since an MV3 extension may load no remote code.
import { readFileSync, statSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { ROOT, run, step } from './lib.mjs';

export const PKG = join(ROOT, 'extension/pkg');
export const WASM = join(PKG, 'axsnap_wasm_bg.wasm');

export const PANEL_DIST = join(ROOT, 'extension/panel/dist');

/** The side panel's one script, bundled (scripts/build-panel.mjs; setup installs esbuild first). */
export function buildPanel() {
  execFileSync(process.execPath, [join(ROOT, 'scripts/build-panel.mjs')], { stdio: 'inherit' });
}

export function build({ quiet = false } = {}) {
  step('building the Wasm core');
  run('cargo', ['build', '--release', '-p', 'axsnap-wasm', '--target', 'wasm32-unknown-unknown'], { quiet });
  const raw = join(ROOT, 'target/wasm32-unknown-unknown/release/axsnap_wasm.wasm');
  run('wasm-bindgen', ['--target', 'web', '--out-dir', PKG, raw], { quiet });
  run('wasm-opt', ['-Oz', '--enable-bulk-memory', '--enable-reference-types', '--enable-nontrapping-float-to-int',
    '--enable-sign-ext', '--enable-mutable-globals', '--enable-multivalue', WASM, '-o', WASM], { quiet });
  const size = wasmSize();
  console.log(`wasm: ${size.raw} bytes raw, ${size.gzip} bytes gzip`);
  buildPanel();
  return size;
}

export function wasmSize() {
  return { raw: statSync(WASM).size, gzip: gzipSync(readFileSync(WASM), { level: 9 }).length };
}

if (import.meta.url === `file://${process.argv[1]}`) build();
