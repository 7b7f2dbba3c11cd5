// Installs what is missing and nothing else: Debian's Chromium and
// ChromeDriver, the Wasm target, the wasm-bindgen CLI matching Cargo.lock,
// and the npm dependencies. Safe to run again: each step checks first.
// A command that builds without a browser asks for `{ browser: false }`, one
// that needs no Rust for `{ rust: false }`.
import { readFileSync, existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, run, output, step, CHROMIUM } from './lib.mjs';

export function wasmBindgenVersion() {
  const lock = readFileSync(join(ROOT, 'Cargo.lock'), 'utf8');
  const m = lock.match(/name = "wasm-bindgen"\nversion = "([^"]+)"/);
  if (!m) throw new Error('Cargo.lock has no wasm-bindgen entry');
  return m[1];
}

export function setup({ browser = true, rust = true } = {}) {
  if (browser && (!existsSync(CHROMIUM) || !existsSync('/usr/bin/chromedriver'))) {
    step('installing Debian chromium and chromium-driver');
    const sudo = process.getuid && process.getuid() === 0 ? [] : ['sudo'];
    const apt = (...a) => (sudo.length ? run('sudo', ['apt-get', ...a]) : run('apt-get', a));
    apt('update', '-qq');
    apt('install', '-y', '-qq', 'chromium', 'chromium-driver');
  }
  if (rust) setupRust();
  setupNpm();
}

function setupRust() {
  const targets = output('rustup', ['target', 'list', '--installed']) || '';
  if (!targets.split('\n').includes('wasm32-unknown-unknown')) {
    step('adding the wasm32-unknown-unknown target');
    run('rustup', ['target', 'add', 'wasm32-unknown-unknown']);
  }
  const want = wasmBindgenVersion();
  const have = (output('wasm-bindgen', ['--version']) || '').split(' ')[1];
  if (have !== want) {
    // --locked fails here (a pinned dependency is missing from the registry).
    step(`installing wasm-bindgen-cli ${want} (takes 5-12 minutes once)`);
    run('cargo', ['install', 'wasm-bindgen-cli', '--version', `=${want}`]);
  }
}

function setupNpm() {
  // Also after a pull that added a dependency.
  const deps = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).devDependencies || {});
  if (!existsSync(join(ROOT, 'node_modules/.package-lock.json')) || deps.some((d) => !existsSync(join(ROOT, 'node_modules', d, 'package.json')))) {
    // A linked node_modules (another checkout's folder) lacks what that folder
    // lacks: npm ci here would replace the link with a full install of its own
    // (minutes) and leave the other checkout as it was. Say where to install.
    const modules = join(ROOT, 'node_modules');
    if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
      throw new Error('node_modules is a link and lacks dependencies of package.json: run npm ci where it points, or replace the link with a folder of its own');
    }
    step('installing npm dependencies');
    run('npm', ['ci', '--no-audit', '--no-fund']);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) setup({ browser: !process.argv.includes('--no-browser') });
