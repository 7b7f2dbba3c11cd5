// Builds the Wasm core into extension/pkg: cargo (release, size profile) →
// wasm-bindgen (--target web) → wasm-opt -Oz (npm binaryen).
import { readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { ROOT, run, step } from './lib.mjs';

export const PKG = join(ROOT, 'extension/pkg');
export const WASM = join(PKG, 'axsnap_wasm_bg.wasm');

export function build({ quiet = false } = {}) {
  step('building the Wasm core');
  run('cargo', ['build', '--release', '-p', 'axsnap-wasm', '--target', 'wasm32-unknown-unknown'], { quiet });
  const raw = join(ROOT, 'target/wasm32-unknown-unknown/release/axsnap_wasm.wasm');
  run('wasm-bindgen', ['--target', 'web', '--out-dir', PKG, raw], { quiet });
  run('wasm-opt', ['-Oz', '--enable-bulk-memory', '--enable-reference-types', '--enable-nontrapping-float-to-int',
    '--enable-sign-ext', '--enable-mutable-globals', '--enable-multivalue', WASM, '-o', WASM], { quiet });
  const size = wasmSize();
  console.log(`wasm: ${size.raw} bytes raw, ${size.gzip} bytes gzip`);
  return size;
}

export function wasmSize() {
  return { raw: statSync(WASM).size, gzip: gzipSync(readFileSync(WASM), { level: 9 }).length };
}

if (import.meta.url === `file://${process.argv[1]}`) build();
