// Shared fixtures for the contract tests: build a model from inline Python and read its Symbols.
import { ModelBuilder } from '../../server/src/model/build';
import type { Model } from '../../server/src/model/types';
import { parseDocument } from '../../server/src/parse/parser';
import { symbolInfos, type ContractFormat, type ModuleLoader, type SymbolInfo } from '../../server/src/contracts';

export const HEADER = 'import blockether.vis.extension as vis\n';
export const G3_FOOTER = '\nvis.register_extension(vis.Extension(name="t", description="T", alias="t"))\n';

export function modelOf(text: string, uri = 'file:///work/ext/extension.py'): Model {
  return new ModelBuilder().build(uri, parseDocument(text));
}

export function symbols(text: string, format: ContractFormat = 'C3', loader?: ModuleLoader, uri?: string): SymbolInfo[] {
  return symbolInfos(modelOf(text, uri), { format, loader });
}

/** The contract of the only (or the given) Symbol in a G3 file. */
export function contractOf(body: string, format: ContractFormat = 'C3', index = 0): unknown {
  const infos = symbols(HEADER + body + G3_FOOTER, format);
  const info = infos[index];
  if (!info) throw new Error('no Symbol');
  if (!info.contract) throw new Error(`no contract: ${info.unknownReason} ${JSON.stringify(info.issues)}`);
  return info.contract;
}

export const js = (v: unknown) => JSON.stringify(v);
