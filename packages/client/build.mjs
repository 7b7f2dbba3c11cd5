// Builds this package inside its own folder (npm pack runs it as `prepack`):
// the ESM bundle with esbuild, the declarations with tsc, and the protocol's
// generated types beside them, so what is packed stands alone. esbuild and
// TypeScript are found the way Node finds any dependency: here, else in the
// repository's node_modules.
import { copyFileSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CLIENT = dirname(fileURLToPath(import.meta.url));
export const CLIENT_DIST = join(CLIENT, 'dist');
const PROTOCOL_TYPES = join(CLIENT, '../../protocol/axsnap-protocol.d.ts');
const require = createRequire(import.meta.url);

/** Runs this package's TypeScript on a tsconfig; throws with its output when it fails. */
export function tsc(project, { quiet = false } = {}) {
  const pkg = require.resolve('typescript/package.json');
  const bin = join(dirname(pkg), JSON.parse(readFileSync(pkg, 'utf8')).bin.tsc);
  const r = spawnSync(process.execPath, [bin, '-p', project], { stdio: quiet ? 'pipe' : 'inherit', encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`tsc -p ${project} failed${quiet ? `\n${r.stdout}${r.stderr}` : ''}`);
}

export function build({ quiet = false } = {}) {
  rmSync(CLIENT_DIST, { recursive: true, force: true });
  mkdirSync(CLIENT_DIST, { recursive: true });
  require('esbuild').buildSync({
    entryPoints: [join(CLIENT, 'src/index.ts')],
    outfile: join(CLIENT_DIST, 'index.js'),
    bundle: true, format: 'esm', target: 'es2020', platform: 'neutral', logLevel: 'warning',
  });
  tsc(join(CLIENT, 'tsconfig.json'), { quiet });
  copyFileSync(PROTOCOL_TYPES, join(CLIENT_DIST, 'protocol.d.ts'));
  if (!quiet) console.log(`@axsnap/client: ${statSync(join(CLIENT_DIST, 'index.js')).size} bytes`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) build();
