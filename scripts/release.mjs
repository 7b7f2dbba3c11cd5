// Builds the npm packages of the MCP server: one platform package per target
// (@axsnap/mcp-<os>-<cpu>, its `os` and `cpu` fields set so npm installs only
// the matching one) carrying the prebuilt axsnap-mcp binary, and the launcher
// @axsnap/mcp (packages/mcp) that lists them as optionalDependencies, the way
// esbuild and Biome ship native binaries. Packs every one into dist/npm.
//
//   npm run release                 every target (cross-compiled with cargo-zigbuild)
//   npm run release -- --host-only  this computer's target only
import { chmodSync, copyFileSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, run, step } from './lib.mjs';

export const NPM_DIST = join(ROOT, 'dist/npm');
const LAUNCHER = join(ROOT, 'packages/mcp');

/**
 * npm's platform names and Rust's target triples. macOS: the oldest release the binary runs on, Rust's own
 * minimum for the target (zig would otherwise write its newest, macOS 15, into the binary). Linux: the
 * oldest glibc the binary links against, so that it runs on the distributions people still use, not only on
 * the one it was built on (Rust's own minimum for these targets).
 */
export const TARGETS = [
  { os: 'linux', cpu: 'x64', triple: 'x86_64-unknown-linux-gnu', glibc: '2.17' },
  { os: 'linux', cpu: 'arm64', triple: 'aarch64-unknown-linux-gnu', glibc: '2.17' },
  { os: 'darwin', cpu: 'x64', triple: 'x86_64-apple-darwin', macos: '10.12' },
  { os: 'darwin', cpu: 'arm64', triple: 'aarch64-apple-darwin', macos: '11.0' },
  { os: 'win32', cpu: 'x64', triple: 'x86_64-pc-windows-gnu' },
];
export const HOST = TARGETS.find((t) => t.os === process.platform && t.cpu === process.arch);
const exe = (t) => (t.os === 'win32' ? 'axsnap-mcp.exe' : 'axsnap-mcp');
const launcherMeta = () => JSON.parse(readFileSync(join(LAUNCHER, 'package.json'), 'utf8'));

/** Writes the platform package of `target` around `binary` and the launcher into dist/npm; packs both. Returns the tarballs' paths. */
export function stagePackages(target, binary, { dest = NPM_DIST, quiet = false } = {}) {
  const launcher = launcherMeta();
  const name = `@axsnap/mcp-${target.os}-${target.cpu}`;
  if (launcher.optionalDependencies?.[name] !== launcher.version) {
    throw new Error(`packages/mcp/package.json lists no ${name}@${launcher.version} in optionalDependencies`);
  }
  const dir = join(dest, `mcp-${target.os}-${target.cpu}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'bin'), { recursive: true });
  copyFileSync(binary, join(dir, 'bin', exe(target)));
  chmodSync(join(dir, 'bin', exe(target)), 0o755);
  copyFileSync(join(LAUNCHER, 'LICENSE'), join(dir, 'LICENSE'));
  writeFileSync(join(dir, 'package.json'), `${JSON.stringify({
    name, version: launcher.version,
    description: `The axsnap-mcp server binary for ${target.os}-${target.cpu}; installed by @axsnap/mcp`,
    license: launcher.license, repository: launcher.repository, homepage: launcher.homepage,
    os: [target.os], cpu: [target.cpu], files: ['bin', 'LICENSE'], preferUnplugged: true,
  }, null, 2)}\n`);
  writeFileSync(join(dir, 'README.md'), `# ${name}\n\nThe prebuilt \`axsnap-mcp\` for ${target.os}-${target.cpu}. Install [@axsnap/mcp](https://www.npmjs.com/package/@axsnap/mcp) instead.\n`);
  const launcherDir = join(dest, 'mcp');
  rmSync(launcherDir, { recursive: true, force: true });
  cpSync(LAUNCHER, launcherDir, { recursive: true });
  return [pack(launcherDir, dest, quiet), pack(dir, dest, quiet)];
}

function pack(dir, dest, quiet) {
  const out = execFileSync('npm', ['pack', '--json', '--pack-destination', dest], { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', quiet ? 'pipe' : 'inherit'] });
  const [info] = JSON.parse(out.slice(out.search(/^\[/m)));
  return join(dest, info.filename);
}

/** `file`'s words for each target: what a binary of it must say. */
export const FORMAT = {
  'linux-x64': /ELF 64-bit.*x86-64/, 'linux-arm64': /ELF 64-bit.*(aarch64|ARM aarch64)/,
  'darwin-x64': /Mach-O 64-bit.*x86_64/, 'darwin-arm64': /Mach-O 64-bit.*arm64/, 'win32-x64': /PE32\+.*x86-64/,
};

/** `hostOnly`: the quick build for trying the packages here, linked against this computer's glibc. */
function buildTarget(t, hostOnly) {
  if (hostOnly) {
    run('cargo', ['build', '--release', '-p', 'axsnap-mcp', '--target', t.triple]);
  } else {
    run('rustup', ['target', 'add', t.triple], { quiet: true });
    const triple = t.glibc ? `${t.triple}.${t.glibc}` : t.triple;
    run('cargo', ['zigbuild', '--release', '-p', 'axsnap-mcp', '--target', triple], t.macos ? { env: { MACOSX_DEPLOYMENT_TARGET: t.macos } } : {});
  }
  const binary = join(ROOT, 'target', t.triple, 'release', exe(t));
  console.log(`${t.os}-${t.cpu}: ${checkBinary(t, binary)}`);
  if (t.glibc && !hostOnly) {
    const needs = glibcNeeded(binary);
    if (newer(needs, t.glibc)) throw new Error(`${binary} needs glibc ${needs}, more than ${t.glibc}`);
    console.log(`${t.os}-${t.cpu}: needs glibc ${needs} or later`);
  }
  return binary;
}

/** The newest glibc symbol version an ELF binary asks for (its version-needed names are plain strings in it). */
export function glibcNeeded(binary) {
  const versions = [...readFileSync(binary).toString('latin1').matchAll(/GLIBC_(2\.\d+(?:\.\d+)?)\0/g)].map((m) => m[1]);
  return versions.reduce((a, b) => (newer(b, a) ? b : a), '2.0');
}

/** Whether glibc version `a` is newer than `b`. */
const newer = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] || 0) !== (y[i] || 0)) return (x[i] || 0) > (y[i] || 0);
  return false;
};

/** The binary a platform package in dist/npm carries. */
export const packedBinary = (t, dest = NPM_DIST) => join(dest, `mcp-${t.os}-${t.cpu}`, 'bin', exe(t));

/** What `file` says of `binary`; throws unless that is the format and architecture of `t`. */
export function checkBinary(t, binary) {
  const kind = execFileSync('file', ['-b', binary], { encoding: 'utf8' }).trim();
  if (!FORMAT[`${t.os}-${t.cpu}`].test(kind)) throw new Error(`${binary} is not a ${t.os}-${t.cpu} binary: ${kind}`);
  return kind;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const hostOnly = process.argv.includes('--host-only');
  const targets = hostOnly ? [HOST] : TARGETS;
  if (!targets[0]) throw new Error(`no npm package for ${process.platform}-${process.arch}`);
  rmSync(NPM_DIST, { recursive: true, force: true });
  const started = Date.now();
  const failed = [];
  for (const t of targets) {
    step(`building axsnap-mcp for ${t.os}-${t.cpu} (${t.triple})`);
    try {
      stagePackages(t, buildTarget(t, hostOnly));
    } catch (e) {
      console.error(`${t.os}-${t.cpu}: ${e.message}`);
      failed.push(`${t.os}-${t.cpu}`);
    }
  }
  console.log(`\ntarballs in ${NPM_DIST} after ${Math.round((Date.now() - started) / 1000)} s`);
  if (failed.length) {
    console.error(`not built: ${failed.join(', ')}`);
    process.exit(1);
  }
}
