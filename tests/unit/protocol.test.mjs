// The protocol's one definition and what is derived from it: request
// validation, the JSON Schema (checked to agree with the validator), the
// TypeScript declarations and the README's tables (checked up to date), and
// error codes used anywhere in the code (checked to be defined).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { ACTIONS, COMMANDS, ERRORS, MAX_REQUEST_CHARS, OPTIONS } from '../../protocol/protocol.js';
import { validateRequest, jsonSize, requestId } from '../../protocol/validate.js';
import { protocolSchema, requestSchema } from '../../protocol/schema.js';
import { derived } from '../../scripts/protocol.mjs';
import { ROOT } from '../../scripts/lib.mjs';

/** The code a request is refused with, or 'ok'. */
const verdict = (msg) => {
  try {
    validateRequest(msg);
    return 'ok';
  } catch (e) {
    assert.equal(typeof e.message, 'string');
    assert.ok(Object.hasOwn(ERRORS, e.code), `undefined code ${e.code}`);
    return e.code;
  }
};
const refusal = (msg) => {
  try {
    validateRequest(msg);
  } catch (e) {
    return e;
  }
  assert.fail(`accepted ${JSON.stringify(msg)}`);
};

test('derived files are up to date with protocol/protocol.js (npm run protocol writes them)', () => {
  for (const [path, content] of Object.entries(derived())) {
    assert.equal(readFileSync(join(ROOT, path), 'utf8'), content, `${path} is out of date: run npm run protocol`);
  }
});

test('the README\'s error table is exactly the protocol\'s codes', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.split('<!-- protocol:errors -->')[1].split('<!-- /protocol:errors -->')[0];
  const codes = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
  assert.deepEqual(codes, Object.keys(ERRORS));
});

test('every request the tests and tools send today is accepted as it is', () => {
  const ok = [
    { cmd: 'ping' }, { cmd: 'snapshot' }, { cmd: 'snapshot', tabId: 3, options: { mode: 'interactive', full: true } },
    { cmd: 'snapshot', options: { format: 'json', maxChars: 400, maxDepth: 2, maxText: 20, maxUrl: 30, root: 'A4' } },
    { cmd: 'act', ref: 'A1', action: 'click' }, { cmd: 'act', tabId: 1, ref: 'A1', action: 'fill', value: '' },
    { cmd: 'act', action: 'press', value: 'Enter' }, { cmd: 'act', action: 'scroll', value: 'down' },
    { cmd: 'act', action: 'scroll', value: -300 }, { cmd: 'act', ref: 'A2', action: 'scroll' },
    { cmd: 'act', ref: 'A1', action: 'click', value: undefined }, { cmd: 'resolve', ref: 'A9' }, { cmd: 'reset', tabId: 0 },
    { cmd: 'tabs' }, { cmd: 'tabs', action: 'list' }, { cmd: 'tabs', action: 'open', url: 'https://example.com/' },
    { cmd: 'tabs', action: 'switch', tabId: 4 }, { cmd: 'tabs', action: 'close', tabId: 4 },
    { cmd: 'navigate', url: 'http://127.0.0.1:8000/', timeout: 5000 }, { cmd: 'back' }, { cmd: 'ping', id: 'r1' }, { cmd: 'ping', id: 7 },
  ];
  for (const msg of ok) assert.equal(verdict(msg), 'ok', JSON.stringify(msg));
});

test('malformed requests get the code that says what is wrong', () => {
  const cases = [
    ['nonsense', 'bad_request'], [null, 'bad_request'], [[], 'bad_request'], [{}, 'bad_request'], [{ cmd: 5 }, 'bad_request'],
    [{ cmd: 'launch-rockets' }, 'unknown_command'], [{ cmd: 'toString' }, 'unknown_command'], [{ cmd: '__proto__' }, 'unknown_command'],
    [{ cmd: 'snapshot', tabid: 3 }, 'bad_request'], [{ cmd: 'snapshot', tabId: 'seven' }, 'bad_request'],
    [{ cmd: 'snapshot', tabId: -1 }, 'bad_request'], [{ cmd: 'snapshot', tabId: 1.5 }, 'bad_request'],
    [{ cmd: 'snapshot', options: 'full' }, 'bad_options'], [{ cmd: 'snapshot', options: { colour: 'red' } }, 'bad_options'],
    [{ cmd: 'snapshot', options: { maxChars: -1 } }, 'bad_options'], [{ cmd: 'snapshot', options: { mode: 'sideways' } }, 'bad_options'],
    [{ cmd: 'snapshot', options: { full: 'yes' } }, 'bad_options'], [{ cmd: 'snapshot', options: { toString: 1 } }, 'bad_options'],
    [{ cmd: 'act', action: 'click' }, 'bad_request'], [{ cmd: 'act', ref: 'A1', action: 'teleport' }, 'bad_request'],
    [{ cmd: 'act', ref: 'A1', action: 'fill', value: 5 }, 'bad_request'], [{ cmd: 'act', ref: 'A1', action: 'fill' }, 'bad_request'],
    [{ cmd: 'act', ref: 'A1', action: 'click', value: 'x' }, 'bad_request'], [{ cmd: 'act', ref: 7, action: 'click' }, 'bad_request'],
    [{ cmd: 'act', action: 'scroll', value: -1e100 }, 'bad_request'], [{ cmd: 'act', action: 'scroll', value: 'sideways' }, 'bad_request'],
    [{ cmd: 'resolve' }, 'bad_request'], [{ cmd: 'tabs', action: 'open' }, 'bad_request'], [{ cmd: 'tabs', tabId: 3 }, 'bad_request'],
    [{ cmd: 'tabs', action: 'switch' }, 'bad_request'], [{ cmd: 'tabs', action: 'dance' }, 'bad_request'],
    [{ cmd: 'navigate' }, 'bad_request'], [{ cmd: 'navigate', url: 'x', timeout: 600000 }, 'bad_request'],
    [{ cmd: 'ping', id: { a: 1 } }, 'bad_request'], [{ cmd: 'ping', extra: true }, 'bad_request'],
  ];
  for (const [msg, code] of cases) assert.equal(verdict(msg), code, JSON.stringify(msg));
});

test('__proto__ and other inherited names are plain unknown names, with a clean message', () => {
  const options = refusal(JSON.parse('{"cmd":"snapshot","options":{"__proto__":{"mode":"x"}}}'));
  assert.deepEqual([options.code, options.message], ['bad_options', `unknown option "__proto__": known are ${Object.keys(OPTIONS).join(', ')}`]);
  const field = refusal(JSON.parse('{"cmd":"snapshot","__proto__":{"tabId":1}}'));
  assert.equal(field.code, 'bad_request');
  assert.match(field.message, /^snapshot has no field "__proto__"/);
  const ctor = refusal({ cmd: 'snapshot', options: { constructor: 1 } });
  assert.match(ctor.message, /^unknown option "constructor"/);
  // Nothing the caller adds reaches the handlers.
  const out = validateRequest(JSON.parse('{"cmd":"act","ref":"A1","action":"click","id":"x"}'));
  assert.deepEqual(out, { cmd: 'act', ref: 'A1', action: 'click', id: 'x' });
  assert.equal(Object.getPrototypeOf(out), Object.prototype);
});

test('a request id is echoed even when the request is refused, if it is a valid id', () => {
  assert.equal(requestId({ cmd: 'nope', id: 'r7' }), 'r7');
  assert.equal(requestId({ id: 12 }), 12);
  for (const msg of [{ id: { x: 1 } }, { id: 'x'.repeat(65) }, { id: 1.5 }, 'str', null, [], {}]) assert.equal(requestId(msg), undefined, JSON.stringify(msg));
});

test('requests over 1 MB are too_large, measured without building them', () => {
  const big = { cmd: 'act', ref: 'A1', action: 'fill', value: 'x'.repeat(MAX_REQUEST_CHARS) };
  assert.equal(verdict(big), 'too_large');
  assert.equal(verdict({ ...big, value: 'x'.repeat(MAX_REQUEST_CHARS - 200) }), 'ok');
  const wide = { cmd: 'snapshot', options: Object.fromEntries(Array.from({ length: 200000 }, (_, i) => [`k${i}`, i])) };
  assert.equal(verdict(wide), 'too_large');
  let deep = {};
  for (let i = 0; i < 300000; i++) deep = { a: deep };
  assert.equal(verdict({ cmd: 'snapshot', options: deep }), 'too_large');
  assert.ok(jsonSize({ a: 'bc', d: [1, true, null] }) >= JSON.stringify({ a: 'bc', d: [1, true, null] }).length - 4);
});

test('the JSON Schema accepts exactly what the validator accepts', () => {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  const schema = protocolSchema();
  const valid = ajv.compile(schema);
  const values = [undefined, 'A1', 'up', 'https://x.test/', '', 3, -1, 2.5, 0, true, { mode: 'full' }, { maxChars: -2 }, { nope: 1 }, 'list', 'open', 'switch', 'close', 'fill', 'click', 'scroll', 'press', 'dialog', 'accept', null];
  const names = ['tabId', 'ref', 'action', 'value', 'options', 'url', 'timeout', 'active', 'id', 'text', 'extra'];
  let seed = 42;
  const rnd = (n) => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed % n; };
  let checked = 0;
  for (let i = 0; i < 20000; i++) {
    const msg = { cmd: Object.keys(COMMANDS)[rnd(Object.keys(COMMANDS).length)] };
    for (const n of names) if (rnd(3) === 0) msg[n] = values[rnd(values.length)];
    const json = JSON.parse(JSON.stringify(msg)); // as Chrome delivers it
    const ours = verdict(json) === 'ok';
    assert.equal(valid(json), ours, `${JSON.stringify(json)}: validator ${ours}, schema ${!ours} ${JSON.stringify(valid.errors)}`);
    checked += ours;
  }
  assert.ok(checked > 500, `only ${checked} valid requests generated`);
  for (const cmd of Object.keys(COMMANDS)) assert.equal(requestSchema(cmd).properties.cmd.const, cmd);
});

test('every action has a request type and the panel\'s list is the protocol\'s', () => {
  const dts = readFileSync(join(ROOT, 'protocol/axsnap-protocol.d.ts'), 'utf8');
  for (const a of Object.keys(ACTIONS)) assert.match(dts, new RegExp(`action: "${a}";`));
  for (const file of sources('extension', '.js').filter((f) => !f.includes('/pkg/') && !f.includes('/dist/'))) {
    assert.ok(!/'click', 'fill'/.test(readFileSync(file, 'utf8')), `${file} keeps an action list of its own: use protocol/protocol.js's ACTIONS`);
  }
});

test('the options and their defaults are the ones the core parses', () => {
  const rust = readFileSync(join(ROOT, 'crates/axsnap-core/src/options.rs'), 'utf8');
  const keys = rust.match(/pub const KEYS: &\[&str\] = &\[([^\]]*)\]/)[1].match(/"([^"]+)"/g).map((k) => JSON.parse(k));
  assert.deepEqual([...keys].sort(), Object.keys(OPTIONS).sort());
  const constant = (name) => Number(rust.match(new RegExp(`pub const ${name}: usize = ([\\d_]+);`))[1].replaceAll('_', ''));
  assert.equal(OPTIONS.maxChars.default, constant('AGENT_MAX_CHARS'));
  assert.equal(OPTIONS.maxUrl.default, constant('AGENT_MAX_URL'));
});

/** Every source file under a directory, recursively. */
function sources(dir, ext) {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(ext))
    .map((e) => join(e.parentPath ?? e.path, e.name));
}

test('every error code the extension or the core can send is defined, and every defined one is used', () => {
  const used = new Set();
  for (const file of [...sources('extension', '.js'), ...sources('protocol', '.js')]) {
    if (file.includes('/pkg/')) continue;
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/new AxError\(\s*'([a-z_]+)'/g)) used.add(m[1]);
    for (const m of text.matchAll(/\[\/.*?\/i?, '([a-z_]+)',/g)) used.add(m[1]); // fromChrome's table
  }
  for (const file of sources('crates', '.rs')) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/ErrorCode::\w+ => "([a-z_]+)"/g)) used.add(m[1]);
    for (const m of text.matchAll(/CallError::new\(\s*"([a-z_]+)"/g)) used.add(m[1]); // axsnap-mcp's own failures
  }
  for (const code of used) assert.ok(Object.hasOwn(ERRORS, code), `${code} is sent but not defined in protocol/protocol.js`);
  const unused = Object.keys(ERRORS).filter((c) => !used.has(c) && !['internal', 'bad_options', 'unknown_command', 'too_large'].includes(c));
  assert.deepEqual(unused, [], 'defined codes nothing sends');
});
