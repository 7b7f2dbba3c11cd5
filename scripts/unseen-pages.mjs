// A second set of real pages, none of them in the shared corpus, for checking
// that the compaction figures are not tuned to the corpus: documentation this
// machine already holds (Node.js, npm, Rust, Valgrind, QEMU and Debian
// manuals), copied into bench/unseen/pages/ for `npm run bench -- --corpus
// bench/unseen`. Only the HTML is copied (stylesheets stay behind), which the
// accessibility tree barely notices with JavaScript off. Pages missing on a
// machine are skipped and named.

import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'bench/unseen/pages');

function rustDocs() {
  const base = join(homedir(), '.rustup/toolchains');
  if (!existsSync(base)) return null;
  const chain = readdirSync(base).find((t) => existsSync(join(base, t, 'share/doc/rust/html/book')));
  return chain ? join(base, chain, 'share/doc/rust/html') : null;
}

const rust = rustDocs();
const SOURCES = {
  'node-fs': '/usr/share/doc/nodejs/api/fs.html',
  'node-events': '/usr/share/doc/nodejs/api/events.html',
  'node-cli': '/usr/share/doc/nodejs/api/cli.html',
  'node-errors': '/usr/share/doc/nodejs/api/errors.html',
  'node-url': '/usr/share/doc/nodejs/api/url.html',
  'npm-install': '/usr/lib/node_modules/npm/docs/output/commands/npm-install.html',
  'npm-scripts': '/usr/lib/node_modules/npm/docs/output/using-npm/scripts.html',
  'npm-package-json': '/usr/lib/node_modules/npm/docs/output/configuring-npm/package-json.html',
  'valgrind-memcheck': '/usr/share/doc/valgrind/html/mc-manual.html',
  'valgrind-news': '/usr/share/doc/valgrind/html/dist.news.html',
  'valgrind-faq': '/usr/share/doc/valgrind/html/faq.html',
  'qemu-img': '/usr/share/doc/qemu-utils/qemu-img.html',
  'libffi-index': '/usr/share/doc/libffi8/html/index.html',
  'debian-users-and-groups': '/usr/share/doc/base-passwd/users-and-groups.html',
  ...(rust ? {
    'rust-book-strings': join(rust, 'book/ch08-02-strings.html'),
    'rust-book-ownership': join(rust, 'book/ch04-01-what-is-ownership.html'),
    'rust-std-vec': join(rust, 'std/vec/struct.Vec.html'),
    'rust-std-collections': join(rust, 'std/collections/index.html'),
    'rust-std-index': join(rust, 'std/index.html'),
    'rustc-platform-support': join(rust, 'rustc/platform-support.html'),
    'cargo-manifest': join(rust, 'cargo/reference/manifest.html'),
    'cargo-build': join(rust, 'cargo/commands/cargo-build.html'),
    'rust-reference-expressions': join(rust, 'reference/expressions.html'),
  } : {}),
};

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const missing = [];
for (const [name, from] of Object.entries(SOURCES)) {
  if (existsSync(from)) copyFileSync(from, join(OUT, `${name}.html`));
  else missing.push(name);
}
console.log(`${Object.keys(SOURCES).length - missing.length} pages in ${OUT}${missing.length ? `; missing here: ${missing.join(', ')}` : ''}`);
