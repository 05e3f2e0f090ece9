// Tool-design advice from the SDK's docs (vis-sdk.md §5.6), on the tools the file's Symbols export (the
// Symbol analysis, shared with the contract rules): a credential written as a parameter's literal default,
// which the contract exports for the model to read (DESIGN-001), and a docstring whose first line retypes
// the signature, when that line is the tool's apropos preview (DESIGN-002). Warnings: Vis loads such tools.
import type { SymbolInfo } from '../contracts/symbols';
import type { FunctionDecl } from '../model/types';
import { pyRepr } from '../model/literals';
import type { Rule, RuleContext } from './types';

/** Parameter names that hold a credential: `token`, `api_key`, `github_token`, `password`... (the last word names it). */
const CREDENTIAL = /(?:^|_)(?:token|secret|password|passwd|passphrase|api_?key|apikey|access_key|private_key|credentials?)$/i;
/** Tokens that are positions, not credentials (`page_token`, `next_token`). */
const POSITION = /^(?:page|next|prev|previous|continuation|cursor|sync|resume|start|end)_token$/i;
/** A word every name CREDENTIAL matches contains: a def whose text has none has no such parameter, and its parameters are not read. */
const CREDENTIAL_WORD = /token|secret|passw|passphrase|api_?key|access_key|private_key|credential/i;

/** The tool defs of each list of Symbol analyses (both rules read them). */
const defs = new WeakMap<readonly SymbolInfo[], FunctionDecl[]>();

/** The tools defined in this file, once each (a function exported twice is one definition). */
function toolDefs(ctx: RuleContext): FunctionDecl[] {
  const infos = ctx.symbols();
  const kept = defs.get(infos);
  if (kept) return kept;
  const out = new Set<FunctionDecl>();
  for (const info of infos) {
    for (const tool of info.tools) {
      if (tool.decl && (!tool.declUri || tool.declUri === ctx.model.uri)) out.add(tool.decl);
    }
  }
  const list = [...out];
  defs.set(infos, list);
  return list;
}

export const designRules: Rule[] = [
  {
    id: 'DESIGN-001',
    severity: 'warning',
    summary: "A tool parameter that holds a credential has no literal default: the contract exports literal defaults for the model to read.",
    check(ctx) {
      // A unit per def: what it reports depends on the def alone.
      for (const fn of toolDefs(ctx)) {
        ctx.unit(fn, () => {
          if (!CREDENTIAL_WORD.test(fn.text)) return;
          for (const p of fn.params) {
            const d = p.defaultValue;
            if (!d || d.kind !== 'str' || d.value === '' || !CREDENTIAL.test(p.name) || POSITION.test(p.name)) continue;
            ctx.report(d.range, `${p.name} defaults to a literal ${pyRepr(d.value.length > 4 ? d.value.slice(0, 4) + '…' : d.value)}: the tool's contract shows literal defaults to the model; read the credential from a declared env= variable or a setting when the tool runs`);
          }
        });
      }
    },
  },
  {
    id: 'DESIGN-002',
    severity: 'warning',
    summary: "A tool's docstring does not open by retyping its signature: the first line is the tool's apropos preview.",
    check(ctx) {
      for (const fn of toolDefs(ctx)) {
        ctx.unit(fn, () => {
          const first = fn.docstring?.split('\n').find((l) => l.trim() !== '')?.trim();
          if (!first) return;
          const escaped = fn.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          if (!new RegExp(`^(?:def\\s+)?${escaped}\\s*\\(`).test(first)) return;
          ctx.report(fn.nameRange, `the docstring of ${fn.name} opens with its signature: the first line is the tool's apropos preview and the model already sees the signature; say what the tool does`);
        });
      }
    },
  },
];
