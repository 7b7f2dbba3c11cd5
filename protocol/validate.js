// Checks a request against the protocol's definition before anything acts on
// it. Returns a fresh request holding only the fields the definition knows
// (so nothing a caller adds, `__proto__` included, travels further), or
// throws an AxError: `too_large`, `bad_options` for the snapshot options,
// `unknown_command`, else `bad_request`.

import { COMMANDS, COMMON_FIELDS, MAX_REQUEST_CHARS, OPTIONS } from './protocol.js';
import { AxError } from './errors.js';

const has = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const show = (k) => JSON.stringify(String(k));
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * About how many characters the request has as JSON, counted without
 * building the string and given up once past `limit`.
 */
export function jsonSize(value, limit = Infinity) {
  let size = 0;
  const stack = [value];
  while (stack.length && size <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') size += v.length + 2;
    else if (v === null || typeof v !== 'object') size += String(v).length;
    else if (Array.isArray(v)) { size += 2 + v.length; for (const x of v) stack.push(x); }
    else for (const k of Object.keys(v)) { size += k.length + 4; stack.push(v[k]); }
  }
  return size;
}

const TYPES = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isSafeInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  boolean: (v) => typeof v === 'boolean',
  object: isObject,
  array: Array.isArray,
};

/** What is wrong with `value` under a JSON Schema fragment, or null. */
export function problem(schema, value, name) {
  if (schema.anyOf) {
    const all = schema.anyOf.map((s) => problem(s, value, name));
    return all.includes(null) ? null : all.join(', or ');
  }
  if (schema.enum && !schema.enum.includes(value)) {
    return `${name} must be one of ${schema.enum.map((e) => JSON.stringify(e)).join(', ')}`;
  }
  if (schema.type && !TYPES[schema.type](value)) {
    const what = { integer: 'a whole number', number: 'a number', object: 'an object', array: 'an array' }[schema.type] || `a ${schema.type}`;
    return `${name} must be ${what}`;
  }
  if (schema.minimum !== undefined && value < schema.minimum) return `${name} must be at least ${schema.minimum}`;
  if (schema.maximum !== undefined && value > schema.maximum) return `${name} must be at most ${schema.maximum}`;
  if (schema.maxLength !== undefined && value.length > schema.maxLength) return `${name} must be at most ${schema.maxLength} characters`;
  if (schema.items) {
    for (let i = 0; i < value.length; i++) {
      const p = problem(schema.items, value[i], `${name}[${i}]`);
      if (p) return p;
    }
  }
  if (schema.properties) {
    for (const k of Object.keys(value)) {
      if (has(schema.properties, k)) {
        const p = value[k] === undefined ? null : problem(schema.properties[k], value[k], `${name}.${k}`);
        if (p) return p;
      } else if (!schema.additional) {
        return `unknown field ${show(k)} in ${name}: known are ${Object.keys(schema.properties).join(', ')}`;
      }
    }
  }
  return null;
}

/** The snapshot options: unknown names and wrong values are `bad_options`. */
function checkOptions(schema, options) {
  if (!isObject(options)) throw new AxError('bad_options', 'options must be an object');
  for (const k of Object.keys(options)) {
    if (!has(schema.properties, k)) {
      throw new AxError('bad_options', `unknown option ${show(k)}: known are ${Object.keys(schema.properties).join(', ')}`);
    }
    const p = options[k] === undefined ? null : problem(schema.properties[k], options[k], `option ${k}`);
    if (p) throw new AxError('bad_options', p);
  }
  const out = {};
  for (const k of Object.keys(schema.properties)) if (options[k] !== undefined) out[k] = options[k];
  return out;
}

/** The request's `id` if it is a valid one, so that even a refusal can be matched to its request. */
export function requestId(msg) {
  const id = isObject(msg) ? /** @type {any} */ (msg).id : undefined;
  return id !== undefined && problem(COMMON_FIELDS.id, id, 'id') === null ? id : undefined;
}

/**
 * @param {unknown} msg  a request as it arrived
 * @returns {Record<string, any> & {cmd: string}}
 */
export function validateRequest(msg) {
  // The size first, before anything else is read; a command with a limit of its own (upload) is measured against that.
  const named = isObject(msg) ? /** @type {any} */ (msg).cmd : undefined;
  const cmd = typeof named === 'string' && has(COMMANDS, named) ? named : undefined;
  const limit = (cmd && COMMANDS[cmd].maxChars) || MAX_REQUEST_CHARS;
  if (jsonSize(msg, limit) > limit) {
    throw new AxError('too_large', `the request is larger than ${limit} characters: send less (${cmd === 'upload' ? 'smaller files' : 'a shorter value?'})`);
  }
  const commands = Object.keys(COMMANDS).join(', ');
  if (!isObject(msg)) throw new AxError('bad_request', `a request is an object like {cmd:"snapshot"}; commands: ${commands}`);
  const m = /** @type {Record<string, unknown>} */ (msg);
  if (typeof m.cmd !== 'string') throw new AxError('bad_request', `the request has no cmd: use one of ${commands}`);
  if (!has(COMMANDS, m.cmd)) throw new AxError('unknown_command', `unknown cmd ${show(m.cmd)}: use one of ${commands}`);
  const def = COMMANDS[m.cmd];
  const out = { cmd: m.cmd };
  if (m.id !== undefined) {
    const p = problem(COMMON_FIELDS.id, m.id, 'id');
    if (p) throw new AxError('bad_request', p);
    out.id = m.id;
  }
  for (const k of Object.keys(m)) {
    if (k === 'cmd' || k === 'id' || m[k] === undefined) continue;
    if (!has(def.fields, k)) {
      const known = Object.keys(def.fields);
      throw new AxError('bad_request', `${m.cmd} has no field ${show(k)}${known.length ? `: its fields are ${known.join(', ')}` : ''}`);
    }
    if (def.fields[k].properties === OPTIONS) {
      // Snapshot options (snapshot's `options`, act's `snapshot`).
      out[k] = checkOptions(def.fields[k], m[k]);
      continue;
    }
    const p = problem(def.fields[k], m[k], k);
    if (p) throw new AxError('bad_request', p);
    out[k] = m[k];
  }
  for (const k of def.required || []) {
    if (out[k] === undefined) throw new AxError('bad_request', `${m.cmd} needs ${k}`);
  }
  if (def.variants) checkVariant(m.cmd, def, out);
  return out;
}

/** The rules of one action: which fields it needs and takes, and their types. */
function checkVariant(cmd, def, out) {
  const { field, cases } = def.variants;
  const name = out[field] ?? def.fields[field].default;
  const c = cases[name];
  for (const k of c.required) {
    if (out[k] === undefined) throw new AxError('bad_request', `${cmd} ${name} needs ${k}`);
  }
  for (const k of Object.keys(out)) {
    if (k === 'cmd' || k === 'id' || k === field) continue;
    if (!c.allowed.includes(k)) throw new AxError('bad_request', `${cmd} ${name} takes no ${k}`);
    const schema = c.fields && c.fields[k];
    const p = schema && problem(schema, out[k], `${name}'s ${k}`);
    if (p) throw new AxError('bad_request', p);
  }
}
