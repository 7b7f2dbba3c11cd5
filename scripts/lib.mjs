// Small helpers shared by the npm scripts: run a command, find a tool.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homedir } from 'node:os';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const CARGO_BIN = join(process.env.CARGO_HOME || join(homedir(), '.cargo'), 'bin');

/** Runs a command with inherited stdio; throws with the command line if it fails. */
export function run(cmd, args, opts = {}) {
  const env = { ...process.env, PATH: `${CARGO_BIN}:${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}`, ...opts.env };
  const r = spawnSync(cmd, args, { stdio: opts.quiet ? 'pipe' : 'inherit', cwd: opts.cwd || ROOT, env, encoding: 'utf8' });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0 && !opts.allowFail) {
    const detail = opts.quiet ? `\n${r.stdout || ''}${r.stderr || ''}` : '';
    throw new Error(`${cmd} ${args.join(' ')} exited with ${r.status}${detail}`);
  }
  return r;
}

/** The output of a command, or null if it cannot run. */
export function output(cmd, args) {
  const env = { ...process.env, PATH: `${CARGO_BIN}:${process.env.PATH}` };
  const r = spawnSync(cmd, args, { encoding: 'utf8', env });
  return r.status === 0 ? r.stdout.trim() : null;
}

export function step(msg) {
  console.log(`\n== ${msg}`);
}

export const CHROMIUM = process.env.AXSNAP_CHROMIUM || '/usr/bin/chromium';
export const has = (p) => existsSync(p);

/**
 * Puts `report` between BENCHMARKS.md's `<!-- block:begin -->` and
 * `<!-- block:end -->`, adding the block under `heading` when it is new.
 */
export function writeBenchmarkBlock(block, heading, report) {
  const file = join(ROOT, 'BENCHMARKS.md');
  const begin = `<!-- ${block}:begin -->`, end = `<!-- ${block}:end -->`;
  let doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Benchmarks\n';
  if (!doc.includes(begin)) doc += `\n${heading}\n\n${begin}\n${end}\n`;
  doc = doc.replace(new RegExp(`${begin}[\\s\\S]*${end}`), () => `${begin}\n${report}\n${end}`);
  writeFileSync(file, doc);
  console.log('BENCHMARKS.md updated');
}
