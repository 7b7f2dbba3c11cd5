#!/usr/bin/env node
// Starts the axsnap-mcp binary of this computer's platform package, which npm
// installed beside this one (the optionalDependencies whose os and cpu match),
// with this process's arguments and stdio: the MCP client speaks to the binary
// directly. Nothing is downloaded here.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';

const target = `${process.platform}-${process.arch}`;
const name = `@axsnap/mcp-${target}`;
const exe = process.platform === 'win32' ? 'axsnap-mcp.exe' : 'axsnap-mcp';
let binary;
try {
  binary = createRequire(import.meta.url).resolve(`${name}/bin/${exe}`);
} catch {
  console.error(`axsnap-mcp: no prebuilt server for ${target} (${name} is not installed). `
    + 'Builds exist for linux-x64, linux-arm64, darwin-x64, darwin-arm64 and win32-x64; npm leaves the matching one out '
    + 'when installing with --no-optional or --omit=optional. Elsewhere: cargo install --path crates/axsnap-mcp from the axsnap repository.');
  process.exit(1);
}

const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit', windowsHide: true });
// The client stops the server by closing stdin or with a signal: pass signals on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
child.on('error', (e) => {
  console.error(`axsnap-mcp: could not start ${binary}: ${e.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 128 : 1)));
