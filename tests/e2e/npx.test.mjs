// `npx -y @axsnap/mcp` as a person's MCP client runs it: the launcher and this
// computer's platform package, packed as `npm run release` packs them (around
// the debug binary the test stages built: the release build is
// `npm run release`'s job), installed from their tarballs into an empty
// folder, started through npx, and one MCP session completed over stdio.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { HOST, TARGETS, checkBinary, packedBinary, stagePackages } from '../../scripts/release.mjs';
import { ROOT } from '../harness.mjs';

const binary = join(ROOT, 'target/debug/axsnap-mcp');
let work, project;

before(() => {
  if (!existsSync(binary)) execFileSync('cargo', ['build', '-p', 'axsnap-mcp', '--quiet'], { cwd: ROOT, stdio: 'inherit' });
  work = mkdtempSync(join(tmpdir(), 'axsnap-npx-'));
  const tarballs = stagePackages(HOST, binary, { dest: join(work, 'packed'), quiet: true });
  project = join(work, 'project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'stranger', private: true }));
  // The other platforms' packages are in no registry here: npm skips them as optional.
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', ...tarballs], { cwd: project, stdio: 'pipe' });
});
after(() => rmSync(work, { recursive: true, force: true }));

const env = (extra) => ({ ...getDefaultEnvironment(), npm_config_offline: 'true', ...extra });

test('npx @axsnap/mcp token prints the pairing token', () => {
  const token = 'npx-test-token-0123456789abcdef';
  const out = execFileSync('npx', ['-y', '@axsnap/mcp', 'token'], { cwd: project, encoding: 'utf8', env: env({ AXSNAP_MCP_TOKEN: token }) });
  assert.equal(out.trim(), token);
});

test('npx -y @axsnap/mcp serves MCP: tools with titles and hints, and a call answered with a typed error', async () => {
  const port = 17800 + Math.floor(Math.random() * 150);
  const client = new Client({ name: 'npx-test', version: '1' });
  await client.connect(new StdioClientTransport({
    command: 'npx', args: ['-y', '@axsnap/mcp', '--port', String(port), '--connect-timeout', '1'], cwd: project, stderr: 'pipe',
    env: env({ AXSNAP_MCP_TOKEN: 'npx-test-token-0123456789abcdef' }),
  }));
  try {
    assert.equal(client.getServerVersion()?.name, 'axsnap');
    const { tools } = await client.listTools();
    assert.ok(tools.some((t) => t.name === 'browser_snapshot' && t.title && t.annotations?.readOnlyHint === true), JSON.stringify(tools.map((t) => t.name)));
    // No extension is paired with this server: the call says so, by code, within its deadline.
    const r = await client.callTool({ name: 'browser_tabs', arguments: {} });
    assert.equal(r.isError, true);
    assert.equal(r.structuredContent?.code, 'no_extension', JSON.stringify(r));
  } finally {
    await client.close();
  }
});

// The cross-compiled packages are `npm run release`'s (minutes of builds, never run by npm test): where it left
// them in dist/npm, each binary must be its platform's format and architecture.
for (const t of TARGETS) {
  const binary = packedBinary(t);
  test(`the packed ${t.os}-${t.cpu} server is a ${t.os}-${t.cpu} binary`, { skip: !existsSync(binary) && 'no npm run release output' }, () => {
    assert.ok(checkBinary(t, binary));
  });
}
