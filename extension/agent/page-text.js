// Page text as the model receives it: fenced so that it can never pass for
// the conversation. Nothing here or elsewhere reads the printed format to make
// a decision: guards read the typed facts every answer carries (`refs`, `page`).

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
