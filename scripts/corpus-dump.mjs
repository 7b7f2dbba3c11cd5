// Dumps the CLI's output for every corpus page in every mode and format into
// a directory, so a change that must keep the output identical can be
// checked with `diff -r`:
//   node scripts/corpus-dump.mjs /tmp/before   (change, rebuild)
//   node scripts/corpus-dump.mjs /tmp/after && diff -r /tmp/before /tmp/after
// Uses target/release/axsnap (built first) and AXSNAP_CORPUS or /work/shared/corpus/ax.

import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const out = process.argv[2];
if (!out) {
  console.error('usage: node scripts/corpus-dump.mjs OUT_DIR');
  process.exit(2);
}
const root = new URL('..', import.meta.url).pathname;
const corpus = process.env.AXSNAP_CORPUS || '/work/shared/corpus/ax';
execFileSync('cargo', ['build', '--release', '-q', '-p', 'axsnap-cli'], { cwd: root, stdio: 'inherit' });
const bin = join(root, 'target/release/axsnap');
const variants = {
  full: [],
  interactive: ['--mode', 'interactive'],
  capped: ['--max-chars', '12000', '--max-url', '64'],
  'interactive-capped': ['--mode', 'interactive', '--max-chars', '12000', '--max-url', '64'],
  depth: ['--max-depth', '4', '--max-text', '40'],
};
mkdirSync(out, { recursive: true });
for (const file of readdirSync(corpus).filter((f) => f.endsWith('.json.gz')).sort()) {
  const page = file.replace('.json.gz', '');
  for (const [name, flags] of Object.entries(variants)) {
    for (const format of ['text', 'json']) {
      const r = spawnSync(bin, [...flags, '--format', format, '--stats', join(corpus, file)], { maxBuffer: 1 << 28, encoding: 'utf8' });
      if (r.status !== 0) throw new Error(`${file} ${name} ${format}: ${r.stderr}`);
      const base = join(out, `${page}.${name}.${format}`);
      writeFileSync(`${base}.out`, r.stdout);
      // Stats without the timings, which differ from run to run.
      writeFileSync(`${base}.stats`, r.stderr.replace(/ \w+_ms=[\d.]+/g, ''));
    }
  }
}
