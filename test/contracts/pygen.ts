// Random annotations and defaults built from Python's expression grammar, for the property tests of the
// contract engine: nested subscripts, unary and binary operators, parentheses, comments inside
// brackets, containers, calls and attributes, and string literals with every prefix and quote. Every
// text is syntactically valid Python in an annotation or default position (runtime errors such as
// `~1.5` or `{[]: 1}` are fine: Python raises them only when the module runs).
import { PyRandom } from '../changes/pyRandom';

const TYPE_NAMES = [
  'int', 'str', 'float', 'bool', 'bytes', 'None', 'Any', 'object', 'Path', 'Rec', 'Node', 'Color', 'Missing', 'LIMIT', 'Alias', 'Remote',
  'list', 'dict', 'tuple', 'set', 'frozenset', 'type', 'List', 'Dict', 'Tuple', 'Sequence', 'Mapping', 'Optional', 'Union', 'Literal',
  'Annotated', 'PathLike', 'typing.List', 't.Optional', 'os.PathLike', 'Color.RED', 'vis.Symbol',
];
const SUBSCRIPTABLE = ['Optional', 'Union', 'Literal', 'Annotated', 'List', 'Dict', 'Tuple', 'list', 'dict', 'tuple', 'set', 'Sequence', 'Mapping', 'PathLike', 'typing.List', 't.Optional', 'Rec', 'type', 'Node'];
const VALUE_NAMES = ['LIMIT', 'NAME', 'Color.RED', 'Color', 'Rec', 'helper', 'Missing', 'True', 'False', 'None', 'math.pi', 'string.digits', 'CONFIG', 'Cycle'];
const PREFIXES = ['', 'r', 'u', 'R', 'U', 'b', 'B', 'rb', 'br', 'Rb', 'bR', 'RB', 'f', 'F', 'rf', 'fR'];
const QUOTES = ["'", '"', "'''", '"""'];
const ESCAPES = ['\\n', '\\t', '\\\\', "\\'", '\\"', '\\x41', '\\x00', '\\101', '\\u00e9', '\\U0001F600', '\\N{BULLET}', '\\q'];
const BINARY = ['|', '+', '-', '*', '/', '//', '%', '**', '<<', '>>', '&', '^', '@'];
const NUMBERS = ['0', '1', '3', '200', '10', '1_000', '0x1F', '0o17', '0b101', '1.5', '0.1', '1e300', '1e400', '2.5e-8', '3j', '1.5j', '.5', '1.', '00', '0.0'];

export class PyGen {
  constructor(private r: PyRandom) {}

  private pick<T>(items: readonly T[]): T {
    return this.r.choice(items);
  }

  private chance(p: number): boolean {
    return this.r.random() < p;
  }

  /** A string literal: any prefix, any quote, escapes valid for its kind (no non-ASCII in bytes). */
  string(): string {
    const prefix = this.pick(PREFIXES);
    const quote = this.pick(QUOTES);
    const q = quote[0];
    const other = q === "'" ? '"' : "'";
    const raw = /r/i.test(prefix);
    const bytes = /b/i.test(prefix);
    const fstr = /f/i.test(prefix);
    let body = '';
    for (let i = this.r.randint(0, 4); i > 0; i--) {
      const k = this.r.randint(0, 6);
      if (k === 0 && !raw) {
        const e = this.pick(ESCAPES);
        // \N{...}, \u and \U are str escapes only (and \N's braces are kept out of f-strings).
        body += bytes && /\\[NuU]/.test(e) ? '\\x42' : fstr && e.startsWith('\\N') ? '\\t' : e;
      } else if (k === 0) body += this.pick(['\\d', '\\n', '\\x']);
      else if (k === 1 && !bytes) body += this.pick(['é', '雪', '😀', ' ']);
      else if (k === 2 && fstr) body += this.pick(['{LIMIT}', '{{', '}}', '{1 + 1!r}', '{NAME:>8}']);
      else if (k === 3) body += other;
      else if (k === 4) body += raw ? 'q' : '\\' + q;
      else if (k === 5 && quote.length === 3) body += this.pick(['\n', 'a\nb']);
      else body += this.pick(['a', 'x', 'note', '1h', '-', '#', '|']);
    }
    // A triple-quoted body must not end in its quote character.
    if (quote.length === 3 && body.endsWith(q)) body += ' ';
    return prefix + quote + body + quote;
  }

  number(): string {
    return this.pick(NUMBERS);
  }

  /** A comment between two items of a bracket: `# ...` and a line break. */
  private sep(): string {
    return this.chance(0.15) ? `,  # ${this.pick(['note', 'a, b]', "it's", '"x'])}\n        ` : ', ';
  }

  private items(depth: number, make: (d: number) => string, min = 0, max = 3): string {
    const n = this.r.randint(min, max);
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(make(depth + 1));
    let text = '';
    out.forEach((x, i) => (text += (i ? this.sep() : '') + x));
    if (n > 0 && this.chance(0.2)) text += ',';
    return text;
  }

  /** An annotation-like expression. */
  annotation(depth = 0): string {
    const k = depth > 3 ? this.r.randint(0, 2) : this.r.randint(0, 12);
    switch (k) {
      case 0:
      case 1:
        return this.pick(TYPE_NAMES);
      case 2:
        return this.chance(0.5) ? this.string() : this.pick(['"int"', "'Rec'", '"int | None"', "'list[Rec]'", '"Page[int]"', '"Missing"', '"("']);
      case 3:
      case 4:
      case 5: {
        const base = this.pick(SUBSCRIPTABLE);
        if (base === 'Literal') return `Literal[${this.items(depth, () => this.literalArg(depth + 1), 1, 4)}]`;
        if (base === 'Annotated') return `Annotated[${this.annotation(depth + 1)}, ${this.items(depth, () => (this.chance(0.7) ? this.string() : this.value(depth + 2)), 1, 2)}]`;
        const args = this.items(depth, (d) => (this.chance(0.1) ? '...' : this.annotation(d)), 1, 3);
        return `${base}[${args}]`;
      }
      case 6:
      case 7:
        return `${this.annotation(depth + 1)} | ${this.annotation(depth + 1)}`;
      case 8:
        return `(${this.annotation(depth + 1)})`;
      case 9:
        return `${this.pick(['make_type', 'typing.cast', 'Rec', 'Missing'])}(${this.items(depth, (d) => this.value(d), 0, 2)})`;
      case 10:
        return `${this.pick(['-', '~', '+'])}${this.annotation(depth + 1)}`;
      case 11:
        return `[${this.items(depth, (d) => this.annotation(d), 0, 2)}]`;
      default:
        return `${this.annotation(depth + 1)} ${this.pick(BINARY)} ${this.annotation(depth + 1)}`;
    }
  }

  private literalArg(depth: number): string {
    return this.pick([
      () => this.string(),
      () => this.number(),
      () => `-${this.number()}`,
      () => this.pick(['True', 'False', 'None', 'LIMIT', 'Color.RED', 'NAME']),
      () => `Literal[${this.literalArg(depth + 1)}, ${this.literalArg(depth + 1)}]`,
      () => `(${this.literalArg(depth + 1)})`,
    ])();
  }

  /** A default-like expression. */
  value(depth = 0): string {
    const k = depth > 3 ? this.r.randint(0, 2) : this.r.randint(0, 14);
    switch (k) {
      case 0:
        return this.number();
      case 1:
        return this.string();
      case 2:
        return this.pick(VALUE_NAMES);
      case 3:
        return `${this.pick(['-', '+', '~'])}${this.value(depth + 1)}`;
      case 4:
      case 5:
        return `${this.value(depth + 1)} ${this.pick(BINARY)} ${this.value(depth + 1)}`;
      case 6:
        return `(${this.value(depth + 1)})`;
      case 7:
        return this.chance(0.5) ? `(${this.value(depth + 1)},)` : `(${this.items(depth, (d) => this.value(d), 0, 3)})`.replace(/^\((.+[^,])\)$/s, (m, inner) => (inner.includes(',') ? m : `(${inner},)`));
      case 8:
        return `[${this.items(depth, (d) => this.value(d))}]`;
      case 9:
        return `{${this.items(depth, (d) => `${this.value(d)}: ${this.value(d)}`)}}`;
      case 10:
        return `{${this.items(depth, (d) => this.value(d), 1, 3)}}`;
      case 11:
        return `${this.pick(['set', 'frozenset', 'tuple', 'list', 'dict', 'object', 'float', 'make', 'Rec', 'int', 'complex'])}(${this.items(depth, (d) => this.value(d), 0, 1)})`;
      case 12:
        return this.pick(['...', 'None', 'True', '(lambda: 1)', '[x for x in ()]', '(x for x in ())', 'f"{LIMIT}"', '"a" "b"', "b'a' b'c'"]);
      case 13:
        return `[*${this.value(depth + 1)}]`;
      default:
        return `{**${this.pick(['CONFIG', '{}', '{1: 2}'])}, ${this.value(depth + 1)}: 0}`;
    }
  }
}

/** The module-level names the generated expressions refer to (some deliberately unresolvable). */
export const PRELUDE = `import math
import os
import string
import typing
import typing as t
from enum import Enum
from pathlib import Path
from dataclasses import dataclass, field
from typing import Annotated, Any, Dict, List, Literal, Mapping, Optional, Sequence, Tuple, Union
from os import PathLike
from mydep.models import Remote

LIMIT = 3
NAME = "n"
CONFIG = {"a": 1, True: 2}
Cycle = Cycle2 = None
Alias = list[int]

class Color(Enum):
    RED = 1

@dataclass
class Node:
    """A node."""
    children: "list[Node]"
    parent: Optional["Node"] = None

def make(*a, **k):
    return a

def helper():
    """Help."""
`;
