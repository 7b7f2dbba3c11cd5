// Builds packages/cdp (@axsnap/cdp): one ESM bundle for Node with esbuild (the
// package's transport, the extension's router and pipeline, the protocol and
// the Wasm core's glue), the Wasm core beside it, the declarations with the
// protocol's generated types, then type-checks the package's type tests and
// loads the bundle once.
//
//   npm run cdp
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, run, step } from './lib.mjs';
import { WASM } from './build.mjs';

export const CDP = join(ROOT, 'packages/cdp');
export const CDP_DIST = join(CDP, 'dist');

export async function buildCdp({ quiet = false } = {}) {
  rmSync(CDP_DIST, { recursive: true, force: true });
  mkdirSync(CDP_DIST, { recursive: true });
  createRequire(import.meta.url)('esbuild').buildSync({
    entryPoints: [join(CDP, 'src/index.js')],
    outfile: join(CDP_DIST, 'index.js'),
    bundle: true, format: 'esm', target: 'node20', platform: 'node', logLevel: 'warning',
  });
  copyFileSync(WASM, join(CDP_DIST, 'axsnap_wasm_bg.wasm'));
  copyFileSync(join(CDP, 'src/index.d.ts'), join(CDP_DIST, 'index.d.ts'));
  copyFileSync(join(ROOT, 'protocol/axsnap-protocol.d.ts'), join(CDP_DIST, 'protocol.d.ts'));
  run('tsc', ['-p', join(CDP, 'test/tsconfig.json')], { quiet });
  const built = await import(pathToFileURL(join(CDP_DIST, 'index.js')).href);
  if (typeof built.attach !== 'function') throw new Error('packages/cdp/dist/index.js exports no attach()');
  if (!quiet) console.log(`@axsnap/cdp: ${statSync(join(CDP_DIST, 'index.js')).size} bytes + the Wasm core`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  step('building @axsnap/cdp (packages/cdp)');
  await buildCdp();
}
