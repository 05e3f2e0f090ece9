// `vis.LanguageSurface(...)` (vis-sdk.md §2.9; only the SDK version with `language_tools`, extension.py
// @1a8b6ead: in the others the name is SDK-002's AttributeError): LS-001…LS-005, the first error of each
// surface only. Handler arities are callback shapes (§5.5), checked with the other callbacks.
import { pyStrip } from '../model/literals';
import { isCallable, isKnown } from '../model/sdk';
import { LANGUAGE_HANDLERS } from '../sdk/members';
import { pyString } from '../fixes/edits';
import { at, familyRules, itemsOf, withChoice, type CallFamily, type RuleDoc } from './declaration';
import { booleanMeant, isLiteralAt, stringInList } from './fixes';
import type { Rule } from './types';


/** What LanguageSurface accepts as a language name. */
const LANGUAGE = /^[a-z][a-z0-9_+-]*$/;

const DOCS: RuleDoc[] = [
  { id: 'LS-001', summary: "LanguageSurface language is a lowercase name such as 'toml'.", fixable: true },
  { id: 'LS-002', summary: "LanguageSurface extensions is a list or tuple of file suffixes (a bare 'toml' is refused).", fixable: true },
  { id: 'LS-003', summary: 'LanguageSurface is_exact_syntax is a bool.', fixable: true },
  { id: 'LS-004', summary: 'Every LanguageSurface handler given is a callable.' },
  { id: 'LS-005', summary: 'A LanguageSurface declares at least one handler.' },
];

export const languageFamilies: CallFamily[] = [
  {
    flavour: 'typed',
    member: 'LanguageSurface',
    steps: [
      {
        id: 'LS-001',
        check(c) {
          const v = c.arg('language');
          if (!v || !isKnown(v) || (v.kind === 'str' && LANGUAGE.test(v.value))) return undefined;
          // `"TOML"` → `"toml"`: the same name in lower case, when that is one.
          const lower = v.kind === 'str' && LANGUAGE.test(v.value.toLowerCase()) && isLiteralAt(c.ctx, v) ? pyString(v.value.toLowerCase(), v.text) : undefined;
          const fix = lower ? { title: `Change to ${lower}`, edits: [{ range: v.range, newText: lower }] } : undefined;
          return at(v, "vis.LanguageSurface requires language=<lowercase name>, such as 'toml'", { fix });
        },
      },
      {
        id: 'LS-002',
        check(c) {
          const v = c.arg('extensions');
          if (!v || !isKnown(v) || (v.kind === 'comprehension' && v.of === 'list')) return undefined;
          const message = "vis.LanguageSurface extensions must be file suffixes, such as ['toml']";
          const items = itemsOf(c.model, v);
          if (!items) return withChoice(at(v, message), stringInList(c.ctx, v, (s) => pyStrip(s) !== '' && !/[\s,]/.test(s)));
          const bad = items.find((i) => isKnown(i) && (i.kind !== 'str' || pyStrip(i.value) === ''));
          return bad ? at(bad, message) : undefined;
        },
      },
      {
        id: 'LS-003',
        check(c) {
          const v = c.arg('is_exact_syntax');
          return v && isKnown(v) && v.kind !== 'bool' ? withChoice(at(v, 'vis.LanguageSurface is_exact_syntax must be a boolean'), booleanMeant(c.ctx, v, 'is_exact_syntax')) : undefined;
        },
      },
      {
        id: 'LS-004',
        check(c) {
          for (const h of LANGUAGE_HANDLERS) {
            const v = c.arg(h);
            if (v && v.kind !== 'none' && isCallable(v) === false) return at(v, `vis.LanguageSurface ${h} must be a callable`);
          }
          return undefined;
        },
      },
      {
        id: 'LS-005',
        check(c) {
          const none = LANGUAGE_HANDLERS.every((h) => {
            const v = c.arg(h);
            return v ? v.kind === 'none' : c.absent(h);
          });
          return none ? { range: c.call.calleeRange, message: 'vis.LanguageSurface requires at least one handler, such as format=<callable>' } : undefined;
        },
      },
    ],
  },
];

export const languageRules: Rule[] = familyRules(DOCS, languageFamilies);
