// Builds packages/client: its ESM bundle with esbuild, its declarations with
// tsc (the protocol's generated types beside them, so the package stands
// alone), then type-checks the package's type tests against what was built.
//
//   npm run client
import { copyFileSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { ROOT, run, step } from './lib.mjs';
import { setup } from './setup.mjs';

export const CLIENT = join(ROOT, 'packages/client');
export const CLIENT_DIST = join(CLIENT, 'dist');

export function buildClient({ quiet = false } = {}) {
  rmSync(CLIENT_DIST, { recursive: true, force: true });
  mkdirSync(CLIENT_DIST, { recursive: true });
  createRequire(import.meta.url)('esbuild').buildSync({
    entryPoints: [join(CLIENT, 'src/index.ts')],
    outfile: join(CLIENT_DIST, 'index.js'),
    bundle: true, format: 'esm', target: 'es2020', platform: 'neutral', logLevel: 'warning',
  });
  run('tsc', ['-p', join(CLIENT, 'tsconfig.json')], { quiet });
  copyFileSync(join(ROOT, 'protocol/axsnap-protocol.d.ts'), join(CLIENT_DIST, 'protocol.d.ts'));
  run('tsc', ['-p', join(CLIENT, 'test/tsconfig.json')], { quiet });
  if (!quiet) console.log(`client: ${statSync(join(CLIENT_DIST, 'index.js')).size} bytes`);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  setup();
  step('building the client package (packages/client)');
  buildClient();
}
