// Builds the Wasm core into extension/pkg: cargo (release, size profile) →
// wasm-bindgen (--target web) → wasm-opt -Oz (npm binaryen); and bundles the
// side panel (with the agent loop and the AI SDK) into extension/panel/dist
// with esbuild, since an MV3 extension may load no remote code.
import { readFileSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ROOT, run, step } from './lib.mjs';

export const PKG = join(ROOT, 'extension/pkg');
export const WASM = join(PKG, 'axsnap_wasm_bg.wasm');

export const PANEL_DIST = join(ROOT, 'extension/panel/dist');

/** The side panel's one script, bundled (esbuild is loaded here: setup installs it first). */
export function buildPanel() {
  const esbuild = createRequire(import.meta.url)('esbuild');
  const r = esbuild.buildSync({
    entryPoints: [join(ROOT, 'extension/panel/panel.js')],
    outfile: join(PANEL_DIST, 'panel.js'),
    bundle: true, format: 'esm', target: 'chrome116', platform: 'browser',
    minify: true, sourcemap: 'external', legalComments: 'external', logLevel: 'warning', metafile: true,
  });
  const bytes = Object.values(r.metafile.outputs).reduce((n, o) => n + o.bytes, 0);
  console.log(`panel: ${statSync(join(PANEL_DIST, 'panel.js')).size} bytes (${bytes} with map and licenses)`);
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
