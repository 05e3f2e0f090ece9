// Static Symbol contracts: the public face of server/src/contracts.
export * from './types';
export { contractSteps, symbolInfos, isSymbolCall, toolsByDecl, typeContext, type SymbolInfo, type ToolInfo, type Issue, type ContractOptions } from './symbols';
export { contractDoc, typeText } from './doc';
export { typeSource } from './callable';
export { cleandoc } from '../model/docstring';
export { scopeOf, type ModuleLoader, type ModuleScope } from './scope';
