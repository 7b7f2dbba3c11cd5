// Packs the nodes of a CDP input for the Wasm core, in the format
// crates/axsnap-core/src/packed.rs defines: walking the objects here in V8
// and crossing into Wasm once is several times faster than reading them
// property by property from Wasm. Only inputs of the shape Chrome sends are
// packed; anything else answers null and the core reads it with serde,
// which decides what is malformed.

const SLOW = Symbol('slow');

function slow() {
  throw SLOW;
}

const isRecord = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const I32 = (v) => Number.isSafeInteger(v) && v >= 0 && v <= 0x7fffffff;

/** Strings as UTF-8 in one buffer, each ending where `ends` says: what TextEncoder would write, without a join and a call per string. */
/**
 * The typed arrays of the last input packed, taken again by the next: the
 * core copies what it is handed before it returns, and a large page's
 * arrays cost more to allocate and collect than to keep.
 */
let kept = null;

/** `old` if it holds `length`, else a new array. */
function room(old, Type, length) {
  return old && old.length >= length ? old : new Type(length);
}

class Strings {
  constructor(old, bytes) {
    this.bytes = room(old && old.bytes, Uint8Array, bytes);
    this.at = 0;
    this.ends = room(old && old.ends, Uint32Array, 1024);
    this.count = 0;
  }

  add(s) {
    const n = s.length;
    let at = this.at;
    let bytes = this.bytes;
    if (at + 3 * n > bytes.length) {
      bytes = new Uint8Array(Math.max(2 * bytes.length, at + 3 * n));
      bytes.set(this.bytes.subarray(0, at));
      this.bytes = bytes;
    }
    for (let i = 0; i < n; i++) {
      let c = s.charCodeAt(i);
      if (c < 0x80) {
        bytes[at++] = c;
      } else if (c < 0x800) {
        bytes[at++] = 0xc0 | (c >> 6);
        bytes[at++] = 0x80 | (c & 0x3f);
      } else {
        if (c >= 0xd800 && c <= 0xdfff) {
          const d = i + 1 < n ? s.charCodeAt(i + 1) : 0;
          if (c <= 0xdbff && d >= 0xdc00 && d <= 0xdfff) {
            c = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
            i++;
            bytes[at++] = 0xf0 | (c >> 18);
            bytes[at++] = 0x80 | ((c >> 12) & 0x3f);
            bytes[at++] = 0x80 | ((c >> 6) & 0x3f);
            bytes[at++] = 0x80 | (c & 0x3f);
            continue;
          }
          c = 0xfffd; // a lone surrogate, as TextEncoder writes it
        }
        bytes[at++] = 0xe0 | (c >> 12);
        bytes[at++] = 0x80 | ((c >> 6) & 0x3f);
        bytes[at++] = 0x80 | (c & 0x3f);
      }
    }
    this.at = at;
    if (this.count === this.ends.length) {
      const more = new Uint32Array(2 * this.ends.length);
      more.set(this.ends);
      this.ends = more;
    }
    this.ends[this.count] = at;
    return this.count++;
  }

  done() {
    return [this.bytes.subarray(0, this.at), this.ends.subarray(0, this.count)];
  }
}

class Packer {
  constructor(nodes) {
    this.codes = room(kept && kept.codes, Int32Array, Math.max(1024, nodes * 16));
    this.at = 0;
    /** Texts most likely of their node alone (ids, names): hashing them would cost more than it saves. */
    this.texts = new Strings(kept && kept.texts, Math.max(1024, nodes * 24));
    /** Words that repeat across nodes (roles, properties' names and values), each once. */
    this.words = new Strings(kept && kept.words, 4096);
    this.index = new Map();
    /** Numbers as they are: the .wasm then needs no code to read them from text. */
    this.numbers = [];
  }

  code(v) {
    if (this.at === this.codes.length) {
      const more = new Int32Array(this.codes.length * 2);
      more.set(this.codes);
      this.codes = more;
    }
    this.codes[this.at++] = v;
  }

  word(s) {
    let i = this.index.get(s);
    if (i === undefined) {
      i = this.words.add(s);
      this.index.set(s, i);
    }
    this.code(i);
  }

  text(s) {
    this.code(this.texts.add(s));
  }
}

/** `[texts, textEnds, words, wordEnds, codes, numbers, {frames}]` (each frame without its nodes; null for `{nodes}`), or null. */
export function pack(input) {
  try {
    return packInput(input);
  } catch (e) {
    if (e === SLOW) return null;
    throw e;
  }
}

function packInput(input) {
  if (!isRecord(input) || input.result !== undefined) slow();
  let frames = null;
  let p;
  if (input.frames !== undefined && input.frames !== null) {
    if (!Array.isArray(input.frames) || input.nodes !== undefined) slow();
    frames = [];
    p = new Packer(input.frames.reduce((n, f) => n + (isRecord(f) && Array.isArray(f.nodes) ? f.nodes.length : 0), 0));
    p.code(input.frames.length);
    for (const frame of input.frames) {
      if (!isRecord(frame)) slow();
      const { nodes, ...rest } = frame;
      frames.push(rest);
      packNodes(p, nodes === undefined ? [] : nodes);
    }
  } else {
    if (!Array.isArray(input.nodes)) slow();
    p = new Packer(input.nodes.length);
    p.code(1);
    packNodes(p, input.nodes);
  }
  kept = p;
  const [texts, textEnds] = p.texts.done();
  const [words, wordEnds] = p.words.done();
  return [texts, textEnds, words, wordEnds, p.codes.subarray(0, p.at), new Float64Array(p.numbers), frames && { frames }];
}

function packNodes(p, nodes) {
  if (!Array.isArray(nodes)) slow();
  p.code(nodes.length);
  for (const node of nodes) {
    if (!isRecord(node)) slow();
    const id = node.nodeId;
    p.text(typeof id === 'string' ? id : id === undefined || id === null ? '' : slow());
    const { ignored, backendDOMNodeId: backend, frameId } = node;
    let head = 0;
    if (ignored === true) head |= 1;
    else if (ignored !== undefined && ignored !== false) slow();
    const hasBackend = backend !== undefined && backend !== null;
    if (hasBackend) {
      if (!I32(backend)) slow();
      head |= 2;
    }
    const hasFrame = frameId !== undefined && frameId !== null;
    if (hasFrame) {
      if (typeof frameId !== 'string') slow();
      head |= 4;
    }
    p.code(head);
    if (hasBackend) p.code(backend);
    if (hasFrame) p.word(frameId);
    optional(p, node.role, true);
    optional(p, node.name, false);
    optional(p, node.description, false);
    optional(p, node.value, false);
    const props = node.properties;
    if (props === undefined) p.code(0);
    else {
      if (!Array.isArray(props)) slow();
      p.code(props.length);
      for (const prop of props) {
        if (!isRecord(prop)) slow();
        const name = prop.name;
        p.word(typeof name === 'string' ? name : name === undefined ? '' : slow());
        if (prop.value === undefined) p.code(NONE);
        else axValue(p, prop.value, true);
      }
    }
    const kids = node.childIds;
    if (kids === undefined || kids === null) p.code(0);
    else {
      if (!Array.isArray(kids)) slow();
      p.code(kids.length);
      for (const k of kids) p.text(typeof k === 'string' ? k : slow());
    }
  }
}

// An AxValue's tag: the scalar in its low two bits, the name's source in the next two, the number of related nodes above.
const ABSENT = 0, NONE = 1, TEXT = 2, NUMBER = 3;
const CONTENTS = 4, OWN = 8;

function optional(p, v, repeats) {
  if (v === undefined || v === null) p.code(ABSENT);
  else axValue(p, v, repeats);
}

function axValue(p, v, repeats) {
  if (!isRecord(v)) slow();
  const x = v.value;
  let tag, text;
  switch (typeof x) {
    case 'string': tag = TEXT; text = x; break;
    case 'boolean': tag = TEXT; text = x ? 'true' : 'false'; break;
    case 'number': tag = NUMBER; break;
    // null, lists and objects hold no scalar
    case 'undefined': case 'object': tag = NONE; break;
    default: slow();
  }
  const sources = v.sources;
  if (sources !== undefined && sources !== null) tag |= nameSource(sources);
  const related = v.relatedNodes;
  if (related !== undefined) {
    if (!Array.isArray(related) || related.length > 0xffffff) slow();
    tag |= related.length << 4;
  }
  p.code(tag);
  if (text !== undefined) {
    if (repeats) p.word(text);
    else p.text(text);
  } else if ((tag & 3) === NUMBER) {
    p.code(p.numbers.length);
    p.numbers.push(x);
  }
  if (related !== undefined) {
    for (const r of related) {
      if (!isRecord(r)) slow();
      const b = r.backendDOMNodeId;
      p.code(b === undefined || b === null ? -1 : I32(b) ? b : slow());
    }
  }
}

/** CONTENTS or OWN for the first source with a value that is not superseded, as cdp.rs reads `sources`. */
function nameSource(sources) {
  if (!Array.isArray(sources)) slow();
  let found = 0;
  for (const s of sources) {
    if (!isRecord(s)) slow();
    const { type, superseded } = s;
    if (type !== undefined && typeof type !== 'string') slow();
    if (superseded !== undefined && superseded !== null && typeof superseded !== 'boolean') slow();
    if (!found && 'value' in s && !superseded) found = type === 'contents' ? CONTENTS : OWN;
  }
  return found;
}
