// Writes what is derived from the protocol's definition (protocol/protocol.js):
// the TypeScript declarations, the JSON Schema and the README's protocol
// tables. `--check` writes nothing and fails when a file is out of date
// (tests/unit/protocol.test.mjs runs the same check).
//
//   npm run protocol [-- --check]
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';
import { ACTIONS, COMMANDS, COMMON_FIELDS, ERRORS, EVENTS, OPTIONS, PAGE_FACT, PROTOCOL_VERSION, REF_FACT, STATS } from '../protocol/protocol.js';
import { protocolSchema } from '../protocol/schema.js';

const pascal = (s) => s[0].toUpperCase() + s.slice(1);
const quote = (v) => JSON.stringify(v);
const doc = (text, indent) => (text ? `${indent}/** ${text.replace(/\*\//g, '*\\/')} */\n` : '');

/**
 * A field fragment as a TypeScript type. In requests every nested field is
 * optional (`nested: 'optional'`), in answers every one is present.
 */
function tsType(f, indent = '', nested = 'present') {
  if (f.ts) return f.ts;
  if (f.properties === OPTIONS) return 'SnapshotOptions';
  if (f.anyOf) return [...new Set(f.anyOf.map((x) => tsType(x, indent, nested)))].join(' | ');
  if (f.enum) return f.enum.map(quote).join(' | ');
  if (f.const !== undefined) return quote(f.const);
  if (f.type === 'array') return `Array<${tsType(f.items, indent, nested)}>`;
  if (f.values) return `Record<string, ${tsType(f.values, indent, nested)}>`;
  if (f.properties) {
    const present = Object.keys(f.properties).filter((k) => !(f.optional || []).includes(k));
    return tsObject(f.properties, nested === 'present' ? present : (f.required || []), indent, f.additional, nested);
  }
  return { string: 'string', integer: 'number', number: 'number', boolean: 'boolean', object: 'Record<string, unknown>' }[f.type] || 'unknown';
}

/** `{ a: T; b?: U }` with each field's description as JSDoc. */
function tsObject(fields, required, indent, additional = false, nested = 'present') {
  const inner = `${indent}  `;
  const lines = Object.entries(fields).map(([k, f]) =>
    `${doc(f.description, inner)}${inner}${k}${required.includes(k) ? '' : '?'}: ${tsType(f, inner, nested)};\n`);
  if (additional) lines.push(`${inner}[key: string]: unknown;\n`);
  return `{\n${lines.join('')}${indent}}`;
}

/** The request type(s) of one command: one per case where it has variants. */
function requestTypes(cmd, def) {
  const name = `${pascal(cmd)}Request`;
  const base = { cmd: { const: cmd }, id: { ts: 'RequestId', description: COMMON_FIELDS.id.description } };
  const body = (fields, required) => tsObject({ ...base, ...fields }, ['cmd', ...required], '', false, 'optional');
  if (!def.variants) {
    return `${doc(def.description, '')}export interface ${name} ${body(def.fields, def.required || [])}\n`;
  }
  const { field, cases } = def.variants;
  const parts = Object.entries(cases).map(([value, c]) => {
    const fields = { [field]: { ...def.fields[field], enum: [value], description: ACTIONS[value] && cmd === 'act' ? ACTIONS[value].description : c.description } };
    for (const k of c.allowed) fields[k] = c.fields?.[k] || def.fields[k];
    const fieldRequired = def.fields[field].default === value ? [] : [field];
    return `export interface ${name}_${pascal(value)} ${body(fields, [...fieldRequired, ...c.required])}\n`;
  });
  return `${parts.join('')}${doc(def.description, '')}export type ${name} = ${Object.keys(cases).map((v) => `${name}_${pascal(v)}`).join(' | ')};\n`;
}

function resultType(cmd, def) {
  const name = `${pascal(cmd)}Result`;
  if (def.result) {
    const optional = def.optionalResult || [];
    return `export interface ${name} ${tsObject(def.result, Object.keys(def.result).filter((k) => !optional.includes(k)), '')}\n`;
  }
  return `export type ${name} =\n${Object.values(def.variants.cases).map((c) => `  | ${tsObject(c.result, Object.keys(c.result).filter((k) => !(c.optionalResult || []).includes(k)), '  ')}`).join('\n')};\n`;
}

export function declarations() {
  const cmds = Object.entries(COMMANDS);
  return `// The axsnap message protocol, version ${PROTOCOL_VERSION}: every request, answer and error code.
// Generated from protocol/protocol.js by scripts/protocol.mjs: do not edit.

export type ProtocolVersion = ${PROTOCOL_VERSION};

/** A caller's request id, echoed in the answer. */
export type RequestId = string | number;

/** Every error code, with its meaning. */
export type ErrorCode =
${Object.entries(ERRORS).map(([code, meaning]) => `  /** ${meaning.replace(/`/g, '')} */\n  | ${quote(code)}`).join('\n')};

/** Snapshot options. */
export interface SnapshotOptions ${tsObject(OPTIONS, [], '', false, 'optional')}

export type Action = ${Object.keys(ACTIONS).map(quote).join(' | ')};

/** ${STATS.description}: what \`snapshot\` (and \`watch\`) measured. */
export type SnapshotStats = ${tsType({ ...STATS, ts: undefined })};

/** ${REF_FACT.description} */
export type RefFact = ${tsType({ ...REF_FACT, ts: undefined })};

/** ${PAGE_FACT.description} */
export type PageFact = ${tsType({ ...PAGE_FACT, ts: undefined })};

${cmds.map(([cmd, def]) => `${requestTypes(cmd, def)}\n${resultType(cmd, def)}`).join('\n')}
/** Every command: its request and the fields of its successful answer. */
export interface Commands {
${cmds.map(([cmd]) => `  ${cmd}: { request: ${pascal(cmd)}Request; result: ${pascal(cmd)}Result };`).join('\n')}
}

export type Command = keyof Commands;
export type Request = Commands[Command]['request'];

export interface Failure {
  ok: false;
  id?: RequestId;
  /** Some errors carry facts to act on beside code and message (a dialog's type and text). */
  error: { code: ErrorCode; message: string; [fact: string]: unknown };
}

/** What a request of command C is answered with. */
export type Answer<C extends Command = Command> = ({ ok: true; id?: RequestId } & Commands[C]['result']) | Failure;

${Object.entries(EVENTS).map(([name, e]) => `${doc(e.description, '')}export interface ${pascal(name)}Event ${tsObject({ ok: { const: e.ok }, event: { const: name }, ...e.fields }, ['ok', 'event', ...Object.keys(e.fields).filter((k) => !(e.optional || []).includes(k))], '')}\n`).join('')}
/** What a long-lived port pushes without a request (never with an \`id\`). */
export type PortEvent = ${Object.keys(EVENTS).map((n) => `${pascal(n)}Event`).join(' | ')};
`;
}

export function schemaJson() {
  return `${JSON.stringify(protocolSchema(), null, 2)}\n`;
}

// ---- README tables, between <!-- protocol:NAME --> and <!-- /protocol:NAME -->

const cell = (s) => String(s).replace(/\|/g, '\\|');

/** `{cmd:"act", tabId?, ref?, action, value?}` */
function requestSketch(cmd, def) {
  const required = new Set(def.required || []);
  if (def.variants) for (const c of Object.values(def.variants.cases)) for (const k of c.required) if (c.required.length && Object.values(def.variants.cases).every((x) => x.required.includes(k))) required.add(k);
  const fields = Object.keys(def.fields).map((k) => (required.has(k) ? k : `${k}?`));
  return `\`{cmd:"${cmd}"${fields.length ? `, ${fields.join(', ')}` : ''}}\``;
}

function answerSketch(def) {
  const list = (result, optional = []) => Object.keys(result).map((k) => (optional.includes(k) ? `${k}?` : k)).join(', ');
  if (def.result) return `\`{ok:true${Object.keys(def.result).length ? `, ${list(def.result, def.optionalResult)}` : ''}}\``;
  return Object.entries(def.variants.cases).map(([v, c]) => `${v}: \`{ok:true, ${list(c.result, c.optionalResult)}}\``).join('; ');
}

export const README_SECTIONS = {
  commands: () => ['| request | answer | what it does |', '|---|---|---|',
    ...Object.entries(COMMANDS).map(([cmd, def]) => `| ${cell(requestSketch(cmd, def))} | ${cell(answerSketch(def))} | ${cell(def.description)} |`)].join('\n'),
  actions: () => ['| action | ref | value | what it does |', '|---|---|---|---|',
    ...Object.entries(ACTIONS).map(([a, d]) => {
      const fields = [...(d.value ? [d.value.description] : []), ...Object.entries(d.fields || {}).map(([k, f]) => `\`${k}\`: ${f.description}`)];
      return `| \`${a}\` | ${d.ref === 'none' ? '–' : d.ref} | ${fields.length ? cell(fields.join('; ')) : '–'} | ${cell(d.description)} |`;
    })].join('\n'),
  errors: () => ['| code | meaning |', '|---|---|', ...Object.entries(ERRORS).map(([c, m]) => `| \`${c}\` | ${cell(m)} |`)].join('\n'),
};

/** The README with every protocol section regenerated. */
export function readme(text) {
  let out = text;
  for (const [name, make] of Object.entries(README_SECTIONS)) {
    const re = new RegExp(`(<!-- protocol:${name} -->\\n)(?:[\\s\\S]*?\\n)?(<!-- /protocol:${name} -->)`);
    if (!re.test(out)) throw new Error(`README.md has no <!-- protocol:${name} --> section`);
    out = out.replace(re, (_, a, b) => `${a}${make()}\n${b}`);
  }
  return out;
}

/** Every derived file: path (from the repository root) → content. */
export function derived() {
  return {
    'protocol/axsnap-protocol.d.ts': declarations(),
    'protocol/axsnap-protocol.schema.json': schemaJson(),
    'README.md': readme(readFileSync(join(ROOT, 'README.md'), 'utf8')),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const check = process.argv.includes('--check');
  const stale = [];
  for (const [path, content] of Object.entries(derived())) {
    const file = join(ROOT, path);
    let now = null;
    try { now = readFileSync(file, 'utf8'); } catch { /* not written yet */ }
    if (now === content) continue;
    stale.push(path);
    if (!check) writeFileSync(file, content);
  }
  if (check && stale.length) {
    console.error(`out of date: ${stale.join(', ')}: run npm run protocol`);
    process.exit(1);
  }
  console.log(stale.length ? `${check ? 'stale' : 'wrote'}: ${stale.join(', ')}` : 'protocol files up to date');
}
