// Markdown from the model becomes a tree of safe nodes: never HTML, never a script link.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseMarkdown, parseInline } from '../../extension/panel/markdown.js';

test('headings, lists, code blocks and paragraphs', () => {
  assert.deepEqual(parseMarkdown('## Done\n\n- one\n- **two**\n\n1. a\n2) b\n\n```\n<b>x</b>\n```\nplain\ntext'), [
    { t: 'h', level: 2, c: [{ t: 'text', v: 'Done' }] },
    { t: 'ul', items: [[{ t: 'text', v: 'one' }], [{ t: 'strong', c: [{ t: 'text', v: 'two' }] }]] },
    { t: 'ol', items: [[{ t: 'text', v: 'a' }], [{ t: 'text', v: 'b' }]] },
    { t: 'pre', v: '<b>x</b>' },
    { t: 'p', c: [{ t: 'text', v: 'plain text' }] },
  ]);
});

test('inline: bold, italics, code, safe links only; HTML stays text', () => {
  assert.deepEqual(parseInline('a *b* `c<d>` [e](https://x.test/) [f](javascript:alert(1)) <img src=x onerror=y>'), [
    { t: 'text', v: 'a ' }, { t: 'em', c: [{ t: 'text', v: 'b' }] }, { t: 'text', v: ' ' }, { t: 'code', v: 'c<d>' }, { t: 'text', v: ' ' },
    { t: 'a', href: 'https://x.test/', c: [{ t: 'text', v: 'e' }] }, { t: 'text', v: ' ' }, { t: 'text', v: 'f' },
    { t: 'text', v: ') <img src=x onerror=y>' },
  ]);
  assert.deepEqual(parseInline('snake_case_name'), [{ t: 'text', v: 'snake_case_name' }]);
});
