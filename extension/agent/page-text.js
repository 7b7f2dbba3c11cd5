// What the agent needs to know about a snapshot it received: the page's
// title and URL, and for each ref the element's role, name, whether it is a
// secret field and whether it sits in a form that holds a secret or payment
// field. Read from the text the model reads (one space of indent per level,
// refs before what they name: after the role word and before a quoted name
// (`button A7 "Pay"`), before a link (`A5 [Docs](/docs)`), or before the
// words of an element without a name of its own), and page text handed to
// the model is fenced so that it can never pass for the conversation.

/**
 * @typedef {{ref:string, role:string, name:string, line:string, secret:string|null, filled:boolean,
 *   focused:boolean, inSensitiveForm:boolean, url:string|null}} RefFact
 */

/** Names that mean payment data even where the page did not mark the field. */
const PAYMENT_NAME = /\b(card ?number|credit card|debit card|cvc|cvv|csc|security code|iban|expir(y|ation)( date)?)\b/i;

const REF_THEN_NAME = /(?:^|\s)(?:- |\d+\. )?([a-z]+) ((?:A\d+ )+)"((?:[^"\\]|\\.)*)"/g;
const LINK = /((?:A\d+ )+)#?\[((?:[^\]\\]|\\.)*)\](?:\(([^)]*)\)|\[\d+\])?/g;
/** A link whose words are its URL or its mail address, said once: `A7 <https://a.org/x>`, `A8 <ann@a.org>`. */
const AUTOLINK = /((?:A\d+ )+)<([^<>\s]+)>/g;
/**
 * An element whose words are a link inside it, its ref and the link's side
 * by side: `option A6 A7 [Berlin](/b)`. The first ref is the element's.
 */
const HOLDS_LINK = /^(?:[-~+] +)?(?:- |\d+\. )?(option|row|cell|gridcell|treeitem|menuitem|tab|article|clickable) (A\d+) (?=(?:A\d+ )+#?\[)/;
/**
 * An element named by its words rather than a quoted name: the role word,
 * its ref, then what it shows (`clickable A7 Move to Doing`, `droptarget A9
 * Archive`, `th A3 Due`; a description aside). Such an element starts its
 * line (after a list or diff mark), and the rest of the line is its words.
 */
const ROLE_THEN_REF = /(?:^|\s)(clickable|droptarget|button|menuitem|tab|option|treeitem|img|th|rowheader|cell|gridcell) ((?:A\d+ ?)+)(.*)$/;
const DESCRIPTION = / ?desc="(?:[^"\\]|\\.)*"/g;

/** The first line of a snapshot: `page "Title" URL`. */
export function pageHeader(text) {
  const m = /^page "((?:[^"\\]|\\.)*)" (\S+)/.exec(text || '');
  return m ? { title: m[1], url: m[2] } : { title: '', url: '' };
}

/**
 * Facts about every ref in a snapshot's text.
 * @param {string} text
 * @returns {Map<string, RefFact>}
 */
export function refFacts(text) {
  /** @type {Map<string, RefFact>} */
  const facts = new Map();
  const lines = (text || '').split('\n');
  /** Open forms: depth and the facts of their refs. */
  /** @type {Array<{depth:number, sensitive:boolean, refs:RefFact[]}>} */
  let forms = [];
  const closeForms = (depth) => {
    while (forms.length && forms.at(-1).depth >= depth) {
      const f = forms.pop();
      if (f.sensitive) for (const r of f.refs) r.inSensitiveForm = true;
      // A secret in an inner form also makes the outer form sensitive.
      if (f.sensitive && forms.length) forms.at(-1).sensitive = true;
    }
  };
  for (const line of lines) {
    const depth = line.length - line.trimStart().length;
    closeForms(depth);
    const body = line.trimStart();
    if (/^form\b/.test(body)) { forms.push({ depth, sensitive: false, refs: [] }); continue; }
    const found = [];
    for (const m of body.matchAll(REF_THEN_NAME)) {
      for (const ref of m[2].trim().split(' ')) found.push({ ref, role: m[1], name: m[3] });
    }
    const holder = HOLDS_LINK.exec(body);
    for (const m of body.matchAll(LINK)) {
      for (const ref of m[1].trim().split(' ')) {
        found.push(holder && ref === holder[2] ? { ref, role: holder[1], name: m[2] } : { ref, role: 'link', name: m[2], url: m[3] || null });
      }
    }
    for (const m of body.matchAll(AUTOLINK)) {
      const url = /^[a-z][a-z0-9+.-]*:/i.test(m[2]) ? m[2] : `mailto:${m[2]}`;
      for (const ref of m[1].trim().split(' ')) found.push({ ref, role: 'link', name: m[2], url });
    }
    const worded = found.length ? null : ROLE_THEN_REF.exec(body);
    if (worded) {
      // A table row goes on past a cell: its words end where the cell does.
      // (a cell of figures follows its `|` without a space: `| A7 Total |120`).
      const name = worded[3].replace(DESCRIPTION, '').split(/ \|(?: |(?=\d))/)[0].trim();
      for (const ref of worded[2].trim().split(' ')) found.push({ ref, role: worded[1], name });
    }
    const secret = (/ secret=([\w-]+)/.exec(body) || [])[1] || null;
    for (const f of found) {
      if (facts.has(f.ref)) continue;
      const fact = {
        ref: f.ref, role: f.role, name: f.name, line: body, url: f.url ?? null,
        secret: found.length === 1 ? secret : null,
        filled: / filled\b/.test(body), focused: / focused\b/.test(body), inSensitiveForm: false,
      };
      facts.set(f.ref, fact);
      for (const form of forms) form.refs.push(fact);
    }
    if (forms.length && (secret || (found.length && PAYMENT_NAME.test(found[0].name) && /^(textbox|spinbutton|combobox)$/.test(found[0].role)))) {
      forms.at(-1).sensitive = true;
    }
  }
  closeForms(0);
  return facts;
}

/** Attribute-safe text. */
const attr = (s) => String(s ?? '').replace(/[&"<>\n]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;', '\n': ' ' })[c]);

/**
 * Page text as the model receives it: fenced in <page …> … </page>, with
 * anything in the page that looks like the fence defused, so a page cannot
 * end the fence and speak as the tool or the person.
 */
export function fencePage({ tab, url, title, text, kind = 'snapshot' }) {
  const body = String(text).replace(/<(\/?)(page)\b/gi, '&lt;$1$2');
  return `<page tab="${tab}" kind="${kind}" url="${attr(url)}" title="${attr(title)}">\n${body}\n</page>`;
}

/** Text from a page outside a fence (tab titles, URLs, names): one line, fence-safe. */
export const inline = (s, max = 200) => attr(s).slice(0, max);
