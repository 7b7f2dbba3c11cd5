// The fixture apps: each directory here with an index.html is one app; one
// with a main.jsx (or main.js) has it bundled by esbuild, from the libraries
// in node_modules, into a gitignored cache keyed by the hash of every
// source here and of package-lock.json, so the bundles are built once per
// change and never committed. `serveApps()` serves the apps and their
// bundles on 127.0.0.1 (app `x` at /x/, its bundle at /built/x.js and .css).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ROOT } from '../../scripts/lib.mjs';
import { serve } from '../server.mjs';

export const APPS_DIR = join(ROOT, 'tests/apps');
const CACHE = join(ROOT, '.cache/apps');

/** The apps, by name. */
export function appNames() {
  return readdirSync(APPS_DIR).filter((d) => existsSync(join(APPS_DIR, d, 'index.html'))).sort();
}

function entryOf(app) {
  return ['main.jsx', 'main.js'].map((f) => join(APPS_DIR, app, f)).find(existsSync);
}

function sourceHash() {
  const h = createHash('sha256');
  const walk = (dir) => {
    for (const e of readdirSync(dir).sort()) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else h.update(p.slice(APPS_DIR.length)).update(readFileSync(p));
    }
  };
  walk(APPS_DIR);
  h.update(readFileSync(join(ROOT, 'package-lock.json')));
  return h.digest('hex').slice(0, 16);
}

/** Builds every app's bundle unless this version is built already; returns the bundles' directory. */
export async function buildApps() {
  const dir = join(CACHE, sourceHash());
  if (existsSync(join(dir, 'done'))) return dir;
  await rm(CACHE, { recursive: true, force: true });
  const tmp = `${dir}.tmp`;
  await mkdir(tmp, { recursive: true });
  const entries = Object.fromEntries(appNames().filter(entryOf).map((a) => [a, entryOf(a)]));
  await build({
    entryPoints: entries,
    outdir: tmp,
    bundle: true,
    minify: true,
    format: 'esm',
    splitting: false,
    jsx: 'automatic',
    loader: { '.js': 'jsx', '.woff': 'empty', '.woff2': 'empty', '.svg': 'dataurl' },
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'error',
    legalComments: 'none',
  });
  await writeFile(join(tmp, 'done'), '');
  await rename(tmp, dir);
  return dir;
}

/** Builds (if needed) and serves the apps; `url(app)` is an app's page. */
export async function serveApps() {
  const built = await buildApps();
  const server = await serve({ '/': APPS_DIR, '/built/': built });
  return { ...server, app: (name, host) => server.url(`/${name}/index.html`, host) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t = Date.now();
  console.log(await buildApps(), `${Date.now() - t} ms`);
}
