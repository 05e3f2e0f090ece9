// The contract hover's Markdown as VS Code renders it (both seen in real VS Code, npm run e2e): GFM splits
// table rows at every unescaped `|`, code spans included, so `float | None` spilled into the next column;
// and VS Code drops HTML unless the client allows it, so the <details> sections lost their labels.
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { CLIENT_MARKDOWN, HOVER_HTML_TAGS } from '../../shared/protocol';
import { hoverMarkdown } from '../../server/src/features/contractHover';
import { initParser } from '../../server/src/parse/parser';
import { G3_FOOTER, HEADER, symbols } from './helpers';

before(async () => {
  await initParser();
});

const SOURCE = `from __future__ import annotations
from dataclasses import dataclass
from typing import Annotated

@dataclass
class Reading:
    """One reading."""

    elapsed_s: Annotated[float | None, "Seconds, or None when not measured."]

def measure(target: str, *, timeout_s: Annotated[float | None, "Seconds; None disables | the timeout."] = None, sep: str = "\\t|") -> Reading:
    """Measure one target."""

class Kit:
    """Tools."""

    def pick(self, name: str | None = None) -> str:
        """Pick one."""

probe = vis.Symbol(measure, name="probe")
kit = vis.Symbol(Kit(), name="kit")
`;

/** GFM table cells: split at unescaped pipes, then `\\|` becomes `|` (and nothing else is unescaped). */
function cells(row: string): string[] {
  return row.replace(/^\|/, '').replace(/\|$/, '').split(/(?<!\\)\|/).map((c) => c.trim().replace(/\\\|/g, '|'));
}

function tableRows(markdown: string, first: string): string[][] {
  return markdown.split('\n').filter((l) => l.startsWith(`| \`${first}`)).map(cells);
}

describe('contract hover tables', () => {
  const infos = () => symbols(HEADER + SOURCE + G3_FOOTER);

  it('keeps a union type, a pipe in a default and a backslash in their columns', () => {
    const md = hoverMarkdown({ info: infos()[0] }, 'C3')!;
    assert.deepEqual(tableRows(md, 'timeout_s'), [['`timeout_s`', '`float | None`', 'keyword_only', '`None`', 'Seconds; None disables | the timeout.']]);
    assert.deepEqual(tableRows(md, 'sep'), [['`sep`', '`str`', 'keyword_only', "`'\\t|'`", '']]);
    assert.deepEqual(tableRows(md, 'elapsed_s'), [['`elapsed_s`', '`float | None`', 'yes', 'Seconds, or None when not measured.']]);
  });

  it('keeps a namespace member signature with a union in its column', () => {
    const md = hoverMarkdown({ info: infos()[1] }, 'C3')!;
    assert.deepEqual(tableRows(md, 'kit.pick'), [['`kit.pick`', 'observation', "`(name: str | None = None) -> str`"]]);
  });
});

describe('contract hover HTML', () => {
  it('uses only the tags the client renders, and the client renders HTML', () => {
    const tags = new Set<string>();
    for (const info of symbols(HEADER + SOURCE + G3_FOOTER)) {
      for (const m of hoverMarkdown({ info }, 'C3')!.matchAll(/<\/?([a-z]+)[^>]*>/g)) tags.add(m[1]);
    }
    assert.deepEqual([...tags].sort(), ['details', 'summary']);
    assert.ok([...tags].every((t) => HOVER_HTML_TAGS.includes(t)));
    assert.deepEqual(CLIENT_MARKDOWN, { isTrusted: false, supportHtml: true });
  });
});
