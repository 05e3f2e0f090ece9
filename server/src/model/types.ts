// The declaration model: one typed description of a Python file, built once per version and read by
// every feature (rules, contracts, routing, docs). Positions are LSP positions (0-based line, UTF-16
// character). Nothing here holds tree-sitter nodes, so a model outlives its parse tree.
import type { SdkProfile } from '../sdk/profile';

export interface Pos {
  line: number;
  character: number;
}

export interface Range {
  start: Pos;
  end: Pos;
}

/** A statically known value, or `unknown` when it cannot be known without running the code. */
export type Value =
  | { kind: 'str'; value: string; range: Range; text: string }
  /** `value` holds one character per byte (0–255). */
  | { kind: 'bytes'; value?: string; range: Range; text: string }
  | { kind: 'int' | 'float' | 'complex'; value: number; range: Range; text: string }
  | { kind: 'bool'; value: boolean; range: Range; text: string }
  | { kind: 'none'; range: Range; text: string }
  | { kind: 'ellipsis'; range: Range; text: string }
  | { kind: 'list' | 'tuple' | 'set'; items: Value[]; range: Range; text: string }
  | { kind: 'dict'; entries: { key: Value; value: Value }[]; range: Range; text: string }
  /** A list/set/dict comprehension or a generator expression. */
  | { kind: 'comprehension'; of: 'list' | 'set' | 'dict' | 'generator'; range: Range; text: string }
  /** A lambda: its parameters, the expression it returns, and the calls in it (run when it is called, not where it is written). */
  | { kind: 'lambda'; params: Param[]; body?: Value; calls: Call[]; range: Range; text: string }
  | { kind: 'call'; call: Call; range: Range; text: string }
  /** A bare name, resolved through the module's bindings by `resolve`. */
  | { kind: 'name'; name: string; range: Range; text: string }
  /** A dotted name such as `os.environ` or `vis.Symbol` (not a call). */
  | { kind: 'attribute'; path: string; range: Range; text: string }
  /** An attribute of something that is not a dotted name, such as `Tools().describe`. */
  | { kind: 'member'; object: Value; attr: string; range: Range; text: string }
  /** A module-level function or class (the result of resolving a name). */
  | { kind: 'function'; name: string; range: Range; text: string }
  | { kind: 'class'; name: string; range: Range; text: string }
  | { kind: 'unknown'; range: Range; text: string };

export type ValueKind = Value['kind'];

export interface Argument {
  /** Keyword name; undefined for a positional argument. */
  name?: string;
  /** `*args` or `**kwargs` splat: the call's arguments are not fully known. */
  splat?: '*' | '**';
  value: Value;
  range: Range;
  nameRange?: Range;
}

export interface Call {
  /** Source text of the callee, e.g. `vis.Symbol`. */
  callee: string;
  /** When the callee is itself a call (`vis.method(tag="mutation")(Tools.save)`): that call. */
  inner?: Call;
  /** When the callee is an attribute of what a call returned (`Path("x").read_text()`): that call. Such a call has no qualified name. */
  receiver?: Call;
  /** Fully qualified name of the callee through the file's imports, e.g. `blockether.vis.extension.Symbol`. */
  qualified?: string;
  /**
   * The SDK member the callee is (set with `qualified`), e.g. `{ flavour: 'typed', member: 'Symbol' }`;
   * `missing` when the file's SDK version has no such member (the SDK profile sets it).
   */
  sdk?: { flavour: SdkFlavour; member: string; missing?: boolean };
  args: Argument[];
  range: Range;
  calleeRange: Range;
  /** Range of the argument list, parentheses included. */
  argsRange: Range;
}

export type ParamKind = 'positional_only' | 'positional_or_keyword' | 'var_positional' | 'keyword_only' | 'var_keyword';

export interface Param {
  name: string;
  kind: ParamKind;
  annotation?: string;
  annotationRange?: Range;
  /** Source text of the default, when there is one. */
  default?: string;
  defaultValue?: Value;
}

export interface Decorator {
  /** Source text after the `@`. */
  text: string;
  /** Dotted name of the decorator (without the call), e.g. `dataclass` or `vis.method`. */
  name?: string;
  qualified?: string;
  call?: Call;
  range: Range;
}

export interface FunctionDecl {
  name: string;
  range: Range;
  nameRange: Range;
  params: Param[];
  returns?: string;
  returnsRange?: Range;
  decorators: Decorator[];
  /** The docstring as Python evaluates the literal (not yet cleaned like inspect.getdoc). */
  docstring?: string;
  /** Where the body's first statement starts (the docstring's place). */
  bodyStart?: Pos;
  isAsync: boolean;
  /** The source text of the definition (decorators aside), for cheap tests before the body is read. */
  readonly text: string;
  /** The body, read when first asked for (decorators, factories and the runtime-call rules look inside). */
  readonly body: FunctionBody;
  /**
   * Every call in the body at any depth (nested functions, classes and lambdas aside), read when first
   * asked for: declarations built when the function runs (`return vis.ActivityPresentation(...)`).
   * Not qualified here: `bodyCalls` (model/sdk.ts) resolves them through the module's imports. Names the
   * function binds itself (parameters, assignments, loop targets...) read as unknown in their arguments,
   * and calls through them are left out.
   */
  readonly calls: Call[];
  /** The source text of the `def` (decorators aside), for cheap checks before reading the body. */
  readonly source: string;
}

/** What the top level of a function body holds. */
export interface FunctionBody {
  /** Nested `def`s, with their decorators. */
  functions: FunctionDecl[];
  /** The values of `return` statements (a bare `return` is None). */
  returns: Value[];
  /** Other statements (docstring and `pass` aside). */
  others: number;
  /** What the body does at any depth: the calls it makes, what it returns, stores and reads. */
  flow: BodyFlow;
}

/**
 * What a function body does at any depth of its statements (`if`, `for`, `with`, `try`...), nested
 * functions, classes and lambdas aside (each has its own). Read with the body, bounded in size.
 */
export interface BodyFlow {
  /** Every call, nested calls included, in source order (not yet resolved through the imports). */
  calls: Call[];
  /** The value of every `return` (a bare `return` is None). */
  returns: Value[];
  /** A `yield` is in the body: calling the function makes a generator. */
  yields: boolean;
  /** `await` is in the body. */
  awaits: boolean;
  /** `X[key] = value` statements. */
  stores: { object: Value; key: Value; value: Value; range: Range }[];
  /** `X[key]` read in an expression (not a store target). */
  subscripts: { object: Value; key: Value; range: Range }[];
  /** `with EXPR as NAME` items (`name` when the target is one name). */
  withs: { value: Value; name?: string }[];
  /** Names the body binds: assignments, loop, `with` and `except` targets, imports, nested defs, comprehension variables (parameters aside, `global` names left out). */
  locals: Set<string>;
  /** Imports inside the body. */
  imports: ImportBinding[];
  /** Functions defined anywhere in the body, with their decorators. */
  functions: FunctionDecl[];
  /** Lambdas written anywhere in the body. */
  lambdas: Extract<Value, { kind: 'lambda' }>[];
  /** True when the body was larger than the reading bound and only its first part was read. */
  truncated: boolean;
}

export interface FieldDecl {
  name: string;
  annotation?: string;
  annotationRange?: Range;
  default?: string;
  defaultValue?: Value;
  range: Range;
}

export interface ClassDecl {
  name: string;
  range: Range;
  nameRange: Range;
  bases: string[];
  decorators: Decorator[];
  docstring?: string;
  methods: FunctionDecl[];
  /** Annotated class-body assignments (`x: int = 1`): dataclass fields when the class is a dataclass. */
  fields: FieldDecl[];
  /** Unannotated class-body assignments (`X = 1`): class attributes. */
  attributes: { name: string; value: Value; range: Range }[];
  classes: ClassDecl[];
  /** `self.NAME = value` statements directly in `__init__`. */
  selfAssignments: { name: string; value: Value; range: Range }[];
}

export interface ImportBinding {
  /** The name bound in the module. */
  local: string;
  /** The imported module (`import a.b as c` → `a.b`; `import a.b` → `a.b`; `from a import b` → `a`). */
  module: string;
  /** For `from module import name`. */
  name?: string;
  /** False for `import a.b`, which binds only `a`. */
  aliased: boolean;
  range: Range;
  /** The whole import statement. */
  statementRange: Range;
  /** Inside an `if`/`try`/... block rather than at the top level. */
  conditional: boolean;
}

/** How a module-level name is bound. */
export type Binding =
  | { kind: 'assign'; name: string; value: Value; range: Range; annotation?: string }
  | { kind: 'function'; name: string; decl: FunctionDecl; range: Range }
  | { kind: 'class'; name: string; decl: ClassDecl; range: Range }
  | { kind: 'import'; name: string; binding: ImportBinding; range: Range }
  | { kind: 'other'; name: string; range: Range };

export type Generation = 'G1' | 'G2' | 'G3';

export type SdkFlavour = 'g1' | 'typed';

export interface SdkImport {
  flavour: SdkFlavour;
  /** The whole import statement. */
  range: Range;
  text: string;
}

/** A SyntaxError (or IndentationError, TabError) Python raises when it compiles the file. */
export interface PySyntaxError {
  kind: 'SyntaxError' | 'IndentationError' | 'TabError';
  message: string;
  range: Range;
}

export interface ScriptBlock {
  range: Range;
  /** The TOML content, comment markers removed. */
  content: string;
}

export interface Model {
  uri: string;
  lineCount: number;
  imports: ImportBinding[];
  /** The statements that import the Vis SDK, and which SDK each one is. */
  sdkImports: SdkImport[];
  /** The SDK generation the file is written for, or undefined when it does not use the SDK. */
  generation?: Generation;
  /** True when the generation was inferred without a registration call, pin or generation-specific member to go by. */
  generationAssumed: boolean;
  /** The SDK profile: generation, release and the evidence that decided them (server/src/sdk/profile.ts). */
  sdk?: SdkProfile;
  futureAnnotations: boolean;
  script?: ScriptBlock;
  functions: FunctionDecl[];
  classes: ClassDecl[];
  /** Module-level bindings by name, in source order. */
  bindings: Map<string, Binding[]>;
  /** Every call at module level (outside function and class bodies), in source order, nested ones included, and the calls in what a static factory called at module level returns. */
  calls: Call[];
  /** The bodies of module-level `if __name__ == "__main__":` blocks: what is there does not run when Vis imports the module. */
  mainBlocks: Range[];
  /** Module-level assignments to attributes (`Tools.save = vis.method(tag="mutation")(Tools.save)`), and rebindings of a function to itself through `vis.method` (`fn = vis.method(...)(fn)`), in source order. */
  attributeAssignments: { target: string; value: Value; range: Range }[];
  /** Module-level functions called at module level whose result is static: `def _hooks(): return [...]`. */
  factories: Map<FunctionDecl, Value>;
  /** The calls to each SDK member, keyed `typed.Symbol`, `g1.extension`..., in source order. */
  sdkCalls: Map<string, Call[]>;
  /** Rows that tree-sitter could not parse and that were recovered. */
  recovered: { startRow: number; endRow: number }[];
  /**
   * Where Python refuses to compile the file, one error per broken region (a top-level statement and the
   * lines after it), with the message Python gives (`invalid syntax` where it cannot be told).
   */
  syntaxErrors: PySyntaxError[];
  /**
   * Set when the file was not parsed (over Python's nesting limits or the size limit, or the parser
   * failed on it): the model is empty and this says why. Only for files that import the Vis SDK.
   */
  unanalysed?: { rule: 'SYN-001' | 'ANA-001'; message: string; range: Range };
}
