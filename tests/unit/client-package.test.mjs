// @axsnap/client as a stranger gets it: `npm pack` in its folder (prepack builds
// it there), the tarball installed into an empty project, then imported from
// Node as ESM and type-checked by TypeScript with `nodenext` and with `bundler`
// resolution. What is packed has to stand alone: no path into the repository.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { CLIENT } from '../../packages/client/build.mjs';

const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
let work, project, packed;

before(() => {
  work = mkdtempSync(join(tmpdir(), 'axsnap-client-pack-'));
  // The prepack build's own lines come first on stdout.
  const out = npm(['pack', '--json', '--pack-destination', work], CLIENT);
  const [info] = JSON.parse(out.slice(out.search(/^\[/m)));
  packed = info;
  project = join(work, 'project');
  execFileSync('mkdir', [project]);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'stranger', private: true, type: 'module' }));
  npm(['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', join(work, info.filename)], project);
});
after(() => rmSync(work, { recursive: true, force: true }));

test('the tarball holds the built code, its types, the README and the LICENSE, and nothing of the sources', () => {
  const files = packed.files.map((f) => f.path).sort();
  for (const f of ['LICENSE', 'README.md', 'dist/index.d.ts', 'dist/index.js', 'dist/protocol.d.ts', 'package.json']) {
    assert.ok(files.includes(f), `${f} missing from ${files}`);
  }
  assert.ok(!files.some((f) => f.startsWith('src/') || f === 'build.mjs'), files.join(' '));
  const meta = JSON.parse(readFileSync(join(project, 'node_modules/@axsnap/client/package.json'), 'utf8'));
  for (const k of ['repository', 'homepage', 'bugs', 'keywords', 'engines', 'license']) assert.ok(meta[k], `no ${k}`);
  const readme = readFileSync(join(project, 'node_modules/@axsnap/client/README.md'), 'utf8');
  assert.doesNotMatch(readme, /\]\((?!https:\/\/|#)/, 'a link the npm page cannot follow');
});

test('Node imports it as ESM from an empty project', () => {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e',
    "import { connect, AxsnapError } from '@axsnap/client'; console.log(typeof connect, new AxsnapError('timeout', 'x').code);"],
  { cwd: project, encoding: 'utf8' });
  assert.equal(out.trim(), 'function timeout');
});

const tsc = (() => {
  const pkg = createRequire(import.meta.url).resolve('typescript/package.json');
  return join(dirname(pkg), JSON.parse(readFileSync(pkg, 'utf8')).bin.tsc);
})();

for (const [module, resolution] of [['nodenext', 'nodenext'], ['esnext', 'bundler']]) {
  test(`TypeScript type-checks a use of it with ${resolution} resolution`, () => {
    writeFileSync(join(project, 'use.ts'), [
      "import { connect, AxsnapError, type Answer } from '@axsnap/client';",
      'export async function look(): Promise<string> {',
      '  const ax = await connect();',
      "  const snap = await ax.request({ cmd: 'snapshot', options: { mode: 'interactive' } });",
      "  const failed: Answer<'snapshot'> = { ok: false, error: { code: 'stale_ref', message: 'gone' } };",
      "  return snap.text + String(failed.ok) + String(new AxsnapError('timeout', 'late') instanceof Error);",
      '}',
    ].join('\n'));
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', module, moduleResolution: resolution, lib: ['es2022', 'dom'], types: [] },
      files: ['use.ts'],
    }));
    try {
      execFileSync(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: project, encoding: 'utf8', stdio: 'pipe' });
    } catch (e) {
      assert.fail(`${e.stdout}${e.stderr}`);
    }
  });
}
