// JSON Schema (2020-12) for every request and answer, derived from the
// definition in protocol.js: for tool schemas (MCP), clients and anything
// that validates the protocol outside the service worker.

import { COMMANDS, COMMON_FIELDS, ERRORS, PROTOCOL_VERSION } from './protocol.js';

/** A field fragment as standard JSON Schema: objects are closed unless marked `additional`. */
export function toJsonSchema(fragment) {
  // ts: a TypeScript name; values: a map's values; optional: fields an answer may leave out. No schema keywords.
  const { additional, properties, items, anyOf, ts, values, optional, ...rest } = fragment;
  const out = { ...rest };
  if (values) {
    out.type = 'object';
    out.additionalProperties = toJsonSchema(values);
  }
  if (anyOf) out.anyOf = anyOf.map(toJsonSchema);
  if (items) out.items = toJsonSchema(items);
  if (properties) {
    out.type = 'object';
    out.properties = Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, toJsonSchema(v)]));
    out.additionalProperties = Boolean(additional);
    if (optional) out.required = Object.keys(properties).filter((k) => !optional.includes(k));
  }
  return out;
}

/** The request schema of one command. */
export function requestSchema(cmd) {
  const def = COMMANDS[cmd];
  const properties = { cmd: { const: cmd, description: def.description }, id: toJsonSchema(COMMON_FIELDS.id) };
  for (const [k, v] of Object.entries(def.fields)) properties[k] = toJsonSchema(v);
  const schema = { type: 'object', description: def.description, properties, required: ['cmd', ...(def.required || [])], additionalProperties: false };
  if (def.variants) {
    const { field, cases } = def.variants;
    // Without `required`, an absent field would match every case's `if`; absent means the default case.
    const is = (name) => ({ properties: { [field]: { const: name } }, required: [field] });
    schema.allOf = Object.entries(cases).map(([name, c]) => ({
      if: def.fields[field].default === name ? { anyOf: [is(name), { not: { required: [field] } }] } : is(name),
      then: {
        required: c.required,
        properties: Object.fromEntries(Object.keys(def.fields).filter((k) => k !== field)
          .map((k) => [k, !c.allowed.includes(k) ? false : c.fields?.[k] ? toJsonSchema(c.fields[k]) : true])),
      },
    }));
  }
  return schema;
}

/** The fields of a successful answer, as an object schema. */
export function resultObject(result, optional = []) {
  const properties = Object.fromEntries(Object.entries(result).map(([k, v]) => [k, toJsonSchema(v)]));
  return { type: 'object', properties, required: Object.keys(result).filter((k) => !optional.includes(k)) };
}

/** The schema of a successful answer to one command (one of its cases' where they differ). */
export function resultSchema(cmd) {
  const def = COMMANDS[cmd];
  if (def.result) return resultObject(def.result, def.optionalResult);
  return { anyOf: Object.values(def.variants.cases).map((c) => resultObject(c.result)) };
}

export const FAILURE_SCHEMA = {
  type: 'object',
  properties: {
    ok: { const: false }, id: toJsonSchema(COMMON_FIELDS.id),
    error: {
      type: 'object', required: ['code', 'message'],
      description: 'some errors carry facts to act on beside code and message (a dialog\'s type and text)',
      properties: { code: { enum: Object.keys(ERRORS) }, message: { type: 'string' } },
    },
  },
  required: ['ok', 'error'],
  additionalProperties: false,
};

/** Everything in one document: `$defs` per command, `Request` and `ErrorCode`. */
export function protocolSchema() {
  const $defs = {};
  for (const cmd of Object.keys(COMMANDS)) {
    $defs[`${cmd}Request`] = requestSchema(cmd);
    $defs[`${cmd}Result`] = resultSchema(cmd);
  }
  $defs.Failure = FAILURE_SCHEMA;
  $defs.ErrorCode = { enum: Object.keys(ERRORS) };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `https://axsnap.invalid/protocol/v${PROTOCOL_VERSION}`,
    title: `axsnap message protocol, version ${PROTOCOL_VERSION}`,
    description: 'Generated from protocol/protocol.js by scripts/protocol.mjs: do not edit.',
    anyOf: Object.keys(COMMANDS).map((cmd) => ({ $ref: `#/$defs/${cmd}Request` })),
    $defs,
  };
}
