// Builds the store package: dist/axsnap.zip with exactly the files the
// extension loads, found by following the manifest's entry points through
// HTML script and link tags, JavaScript imports (es-module-lexer) and
// `new URL('…', import.meta.url)` (how the Wasm glue finds its .wasm).
// Builds the Wasm core first when it is missing or older than its sources,
// and the side panel's bundle every time.
//
//   npm run package
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { zipSync } from 'fflate';
import { init, parse } from 'es-module-lexer';
import { ROOT, step } from './lib.mjs';
import { build, buildPanel, WASM } from './build.mjs';
import { BRIDGE_FILE } from '../extension/bridge/register.js';

export const ZIP = join(ROOT, 'dist/axsnap.zip');

/** Newest modification time of the files below `dir`. */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })) {
    if (e.isFile()) t = Math.max(t, statSync(join(e.parentPath ?? e.path, e.name)).mtimeMs);
  }
  return t;
}

function wasmIsCurrent() {
  if (!existsSync(WASM)) return false;
  const sources = Math.max(newest('crates/axsnap-core/src'), newest('crates/axsnap-wasm/src'),
    ...['Cargo.toml', 'Cargo.lock', 'crates/axsnap-core/Cargo.toml', 'crates/axsnap-wasm/Cargo.toml'].map((f) => statSync(join(ROOT, f)).mtimeMs));
  return statSync(WASM).mtimeMs >= sources;
}

/** The files a manifest names directly. */
function entryPoints(manifest) {
  const out = [manifest.background?.service_worker, manifest.side_panel?.default_path, manifest.action?.default_popup,
    manifest.options_page, manifest.options_ui?.page, manifest.devtools_page,
    ...Object.values(manifest.icons || {}), ...Object.values(manifest.action?.default_icon || {}),
    ...(manifest.content_scripts || []).flatMap((c) => [...(c.js || []), ...(c.css || [])]),
    ...(manifest.web_accessible_resources || []).flatMap((w) => w.resources || [])];
  return out.filter((f) => typeof f === 'string');
}

/** Paths (from the root) that a file loads. */
function references(file, text) {
  const here = posix.dirname(file);
  const local = (spec) => !/^[a-z][a-z0-9+.-]*:|^\/\//i.test(spec) && !spec.startsWith('#');
  const resolve = (spec) => posix.normalize(spec.startsWith('/') ? spec.slice(1) : posix.join(here, spec.split(/[?#]/)[0]));
  let specs = [];
  if (file.endsWith('.html')) {
    specs = [...text.matchAll(/<(?:script|link|img)\b[^>]*?\b(?:src|href)=["']([^"']+)["']/gi)].map((m) => m[1]);
  } else if (file.endsWith('.js') || file.endsWith('.mjs')) {
    specs = parse(text)[0].filter((i) => i.type === 'static' || i.type === 'dynamic').map((i) => i.specifier).filter(Boolean);
    specs.push(...[...text.matchAll(/new URL\(\s*(['"])([^'"]+)\1\s*,\s*import\.meta\.url\s*\)/g)].map((m) => m[2]));
  } else if (file.endsWith('.css')) {
    specs = [...text.matchAll(/url\(\s*['"]?([^'")]+)['"]?\s*\)/g)].map((m) => m[1]);
  }
  return specs.filter(local).map(resolve);
}

/** Every file the extension loads, from manifest.json on. */
export async function packageFiles() {
  await init;
  const manifest = JSON.parse(readFileSync(join(ROOT, 'manifest.json'), 'utf8'));
  const files = new Set(['manifest.json']);
  // The bridge is registered at runtime (chrome.scripting), so no manifest entry names it.
  const queue = [...entryPoints(manifest), BRIDGE_FILE];
  while (queue.length) {
    const f = queue.pop();
    if (files.has(f)) continue;
    if (!existsSync(join(ROOT, f))) throw new Error(`${f} is loaded by the extension but does not exist`);
    files.add(f);
    if (/\.(html|m?js|css)$/.test(f)) queue.push(...references(f, readFileSync(join(ROOT, f), 'utf8')));
  }
  return [...files].sort();
}

export async function packageExtension() {
  if (!wasmIsCurrent()) build({ quiet: true });
  else buildPanel(); // a few seconds: the panel bundle is never stale
  step('packaging the extension');
  const files = await packageFiles();
  // A fixed date: the same sources give the same zip.
  const mtime = new Date('2020-01-01T00:00:00Z');
  const zip = zipSync(Object.fromEntries(files.map((f) => [f, [readFileSync(join(ROOT, f)), { mtime }]])), { level: 9 });
  mkdirSync(dirname(ZIP), { recursive: true });
  writeFileSync(ZIP, zip);
  console.log(`${relative(ROOT, ZIP)}: ${files.length} files, ${zip.length} bytes`);
  return { files, bytes: zip.length };
}

if (import.meta.url === `file://${process.argv[1]}`) await packageExtension();
