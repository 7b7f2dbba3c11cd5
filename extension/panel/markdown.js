// Markdown from the model, shown safely: parsed into a small tree and built
// with DOM nodes and textContent, never innerHTML, so nothing the model
// writes can become markup, script or a javascript: link. Covers what
// answers use: headings, paragraphs, lists, code blocks, bold, italics,
// inline code and http(s)/mailto links. Anything else is text.

/**
 * @typedef {{t:'text', v:string} | {t:'strong'|'em', c:Inline[]} | {t:'code', v:string} | {t:'a', href:string, c:Inline[]}} Inline
 * @typedef {{t:'h', level:number, c:Inline[]} | {t:'p', c:Inline[]} | {t:'ul'|'ol', items:Inline[][]} | {t:'pre', v:string}} Block
 */

const SAFE_URL = /^(https?:|mailto:)/i;

/** @returns {Inline[]} */
export function parseInline(s) {
  /** @type {Inline[]} */
  const out = [];
  let text = '';
  const flush = () => { if (text) out.push({ t: 'text', v: text }); text = ''; };
  for (let i = 0; i < s.length;) {
    const rest = s.slice(i);
    let m;
    if ((m = /^`([^`]+)`/.exec(rest))) {
      flush(); out.push({ t: 'code', v: m[1] });
    } else if ((m = /^\*\*(.+?)\*\*/.exec(rest)) || (m = /^__(.+?)__/.exec(rest))) {
      flush(); out.push({ t: 'strong', c: parseInline(m[1]) });
    } else if ((m = /^\*([^*\s][^*]*?)\*/.exec(rest)) || (m = /^_([^_\s][^_]*?)_(?![\w])/.exec(rest))) {
      flush(); out.push({ t: 'em', c: parseInline(m[1]) });
    } else if ((m = /^\[([^\]]+)\]\(([^)\s]+)\)/.exec(rest))) {
      flush();
      if (SAFE_URL.test(m[2])) out.push({ t: 'a', href: m[2], c: parseInline(m[1]) });
      else out.push(...parseInline(m[1]));
    } else {
      text += s[i];
      i++;
      continue;
    }
    i += m[0].length;
  }
  flush();
  return out;
}

/** @returns {Block[]} */
export function parseMarkdown(src) {
  const lines = String(src).replace(/\r\n?/g, '\n').split('\n');
  /** @type {Block[]} */
  const blocks = [];
  let para = [];
  const endPara = () => { if (para.length) blocks.push({ t: 'p', c: parseInline(para.join(' ')) }); para = []; };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    let m;
    if (/^\s*```/.test(line)) {
      endPara();
      const code = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) code.push(lines[i]);
      blocks.push({ t: 'pre', v: code.join('\n') });
    } else if ((m = /^(#{1,6})\s+(.*)$/.exec(line))) {
      endPara();
      blocks.push({ t: 'h', level: m[1].length, c: parseInline(m[2]) });
    } else if ((m = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line))) {
      endPara();
      const kind = /\d/.test(m[1]) ? 'ol' : 'ul';
      const last = blocks.at(-1);
      const list = last && last.t === kind ? last : (blocks.push({ t: kind, items: [] }), blocks.at(-1));
      /** @type {any} */ (list).items.push(parseInline(m[2]));
    } else if (!line.trim()) {
      endPara();
    } else {
      para.push(line.trim());
    }
  }
  endPara();
  return blocks;
}

/** Builds the DOM for Markdown text into `el` (replacing its content). */
export function renderMarkdown(el, src) {
  const doc = el.ownerDocument;
  const inline = (parent, nodes) => {
    for (const n of nodes) {
      if (n.t === 'text') parent.append(doc.createTextNode(n.v));
      else if (n.t === 'code') parent.append(Object.assign(doc.createElement('code'), { textContent: n.v }));
      else if (n.t === 'a') {
        const a = doc.createElement('a');
        a.href = n.href;
        a.target = '_blank';
        a.rel = 'noopener noreferrer';
        inline(a, n.c);
        parent.append(a);
      } else {
        const e = doc.createElement(n.t);
        inline(e, n.c);
        parent.append(e);
      }
    }
  };
  el.replaceChildren();
  for (const b of parseMarkdown(src)) {
    if (b.t === 'pre') {
      const pre = doc.createElement('pre');
      pre.append(Object.assign(doc.createElement('code'), { textContent: b.v }));
      el.append(pre);
    } else if (b.t === 'ul' || b.t === 'ol') {
      const list = doc.createElement(b.t);
      for (const item of b.items) {
        const li = doc.createElement('li');
        inline(li, item);
        list.append(li);
      }
      el.append(list);
    } else {
      // Headings in a chat bubble sit below the panel's own (h1, h2).
      const e = doc.createElement(b.t === 'h' ? `h${Math.min(6, b.level + 2)}` : 'p');
      inline(e, /** @type {any} */ (b).c);
      el.append(e);
    }
  }
}
