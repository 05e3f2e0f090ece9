// The manifest against the code, read with ts-morph (the TypeScript compiler): every contributed command,
// setting, view and menu is registered or read in client/src (settings also by the server), and the code
// registers or reads none that package.json does not contribute. Also the listing: icon, l10n strings,
// the message bundle, URLs.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { Node, SyntaxKind, type CallExpression, type Project, type SourceFile } from 'ts-morph';
import { bundleText, clientProject, extractMessages } from '../scripts/l10n';

const root = path.join(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const contributes = manifest.contributes;

let project: Project;
let client: SourceFile[];

before(() => {
  project = clientProject();
  project.addSourceFileAtPath(path.join(root, 'server/src/features/context.ts'));
  client = project.getSourceFiles().filter((f) => f.getFilePath().includes('/client/src/'));
});

/** The string an expression has at compile time: a literal, or a const whose type is a string literal. */
function stringValue(node: Node | undefined): string | undefined {
  if (!node) return undefined;
  if (Node.isStringLiteral(node) || Node.isNoSubstitutionTemplateLiteral(node)) return node.getLiteralValue();
  const type = node.getType();
  return type.isStringLiteral() ? (type.getLiteralValue() as string) : undefined;
}

/** Calls `<anything>.<method>(...)` (or `method(...)`) in client code. */
function calls(method: string): CallExpression[] {
  return client.flatMap((f) =>
    f.getDescendantsOfKind(SyntaxKind.CallExpression).filter((c) => {
      const e = c.getExpression();
      return (Node.isPropertyAccessExpression(e) && e.getName() === method) || (Node.isIdentifier(e) && e.getText() === method);
    }),
  );
}

/** First-argument strings of those calls; `where` says which were not known at compile time. */
function firstArguments(method: string): { values: string[]; unknown: string[] } {
  const values: string[] = [];
  const unknown: string[] = [];
  for (const c of calls(method)) {
    const v = stringValue(c.getArguments()[0]);
    if (v === undefined) unknown.push(`${path.relative(root, c.getSourceFile().getFilePath())}:${c.getStartLineNumber()}`);
    else values.push(v);
  }
  return { values, unknown };
}

/** The section of a `getConfiguration(...)` call, through a variable that holds one. */
function configurationSection(node: Node): string | undefined | null {
  let target: Node | undefined = node;
  if (Node.isIdentifier(target)) {
    const declaration = target.getSymbol()?.getDeclarations()[0];
    target = Node.isVariableDeclaration(declaration) ? declaration.getInitializer() : undefined;
  }
  if (!target || !Node.isCallExpression(target)) return null;
  const e = target.getExpression();
  if (!Node.isPropertyAccessExpression(e) || e.getName() !== 'getConfiguration') return null;
  const [section] = target.getArguments();
  return section === undefined ? undefined : (stringValue(section) ?? null);
}

/** Settings the client reads: `getConfiguration(section?).get|inspect(key)`, as full keys. */
function clientSettingReads(): string[] {
  const keys: string[] = [];
  for (const method of ['get', 'inspect']) {
    for (const c of calls(method)) {
      const e = c.getExpression();
      if (!Node.isPropertyAccessExpression(e)) continue;
      const section = configurationSection(e.getExpression());
      const key = stringValue(c.getArguments()[0]);
      if (section === null || key === undefined) continue;
      keys.push(section ? `${section}.${key}` : key);
    }
  }
  return keys;
}

/** Settings the server reads: the fields of its Settings type, under `visAuthoring` (an object-typed field's own fields as dotted keys). */
function serverSettingReads(): string[] {
  const settings = project.getSourceFileOrThrow(path.join(root, 'server/src/features/context.ts')).getInterfaceOrThrow('Settings');
  return settings.getProperties().flatMap((p) => {
    const type = p.getTypeNode();
    if (type && Node.isTypeLiteral(type)) return type.getProperties().map((q) => `visAuthoring.${p.getName()}.${q.getName()}`);
    return [`visAuthoring.${p.getName()}`];
  });
}

/** vscode-languageclient reads `<client id>.trace.server` itself. */
function languageClientReads(): string[] {
  return client.flatMap((f) =>
    f.getDescendantsOfKind(SyntaxKind.NewExpression).filter((n) => n.getExpression().getText() === 'LanguageClient').map((n) => `${stringValue(n.getArguments()[0])}.trace.server`),
  );
}

const sorted = (xs: Iterable<string>) => [...new Set(xs)].sort();
const contributedCommands = () => sorted(contributes.commands.map((c: { command: string }) => c.command));
const contributedViews = () => sorted(Object.values(contributes.views as Record<string, { id: string }[]>).flat().map((v) => v.id));

describe('manifest ↔ code (ts-morph)', () => {
  it('every contributed command is registered, and every registered command is contributed', () => {
    const { values, unknown } = firstArguments('registerCommand');
    // The stand-ins of the host commands in Restricted Mode (trust.ts) register ids from a table.
    assert.deepEqual(unknown, ['client/src/trust.ts:76']);
    assert.deepEqual(sorted(values), contributedCommands());
  });

  it('every contributed setting is read, and every visAuthoring setting read is contributed', () => {
    const read = sorted([...clientSettingReads(), ...serverSettingReads(), ...languageClientReads()].filter((k) => k.startsWith('visAuthoring.')));
    assert.deepEqual(read, sorted(Object.keys(contributes.configuration.properties)));
  });

  it('every contributed view has a provider, and every provider is for a contributed view', () => {
    const providers = [...firstArguments('createTreeView').values, ...firstArguments('registerTreeDataProvider').values];
    assert.deepEqual(sorted(providers), contributedViews());
  });

  it('menus, welcome views and when clauses name contributed commands and views, and context set in code', () => {
    const commands = new Set(contributedCommands());
    const views = new Set(contributedViews());
    const schemes = new Set(firstArguments('registerTextDocumentContentProvider').values);
    const contextKeys = new Set(calls('executeCommand').filter((c) => stringValue(c.getArguments()[0]) === 'setContext').map((c) => stringValue(c.getArguments()[1])));
    const contextValues = new Set(
      client.flatMap((f) => f.getDescendantsOfKind(SyntaxKind.BinaryExpression).filter((b) => /\.contextValue$/.test(b.getLeft().getText())).map((b) => stringValue(b.getRight()))),
    );
    const problems: string[] = [];
    const checkWhen = (where: string, when: string | undefined) => {
      if (!when) return;
      for (const [, v] of when.matchAll(/\bview == ([\w.]+)/g)) if (!views.has(v)) problems.push(`${where}: view ${v} is not contributed`);
      for (const [, v] of when.matchAll(/\bviewItem == ([\w.-]+)/g)) if (!contextValues.has(v)) problems.push(`${where}: no tree item has contextValue ${v}`);
      for (const [, v] of when.matchAll(/\bresourceScheme [!=]= ([\w.-]+)/g)) if (!schemes.has(v)) problems.push(`${where}: no content provider for scheme ${v}`);
      for (const [, v] of when.matchAll(/\bin (visAuthoring\.[\w.]+)/g)) if (!contextKeys.has(v)) problems.push(`${where}: context key ${v} is never set`);
    };
    for (const [menu, items] of Object.entries(contributes.menus as Record<string, { command: string; when?: string }[]>)) {
      for (const item of items) {
        if (!commands.has(item.command)) problems.push(`${menu}: ${item.command} is not a contributed command`);
        checkWhen(`${menu} ${item.command}`, item.when);
      }
    }
    for (const w of contributes.viewsWelcome as { view: string; when?: string; contents: string }[]) {
      if (!views.has(w.view)) problems.push(`viewsWelcome: view ${w.view} is not contributed`);
      checkWhen(`viewsWelcome ${w.view}`, w.when);
    }
    assert.deepEqual(problems, []);
  });

  it('every t() message is a literal, so that the English bundle (npm run l10n, at packaging) has them all', () => {
    const { messages, notLiteral } = extractMessages(project);
    assert.deepEqual(notLiteral, []);
    const bundle = JSON.parse(bundleText(messages)) as Record<string, string>;
    assert.equal(bundle['{0} errors'], '{0} errors');
    assert.equal(bundle['{0}, so it needs a trusted workspace. Diagnostics, hovers and previews work in Restricted Mode.'], '{0}, so it needs a trusted workspace. Diagnostics, hovers and previews work in Restricted Mode.');
  });

  it('notifications, status texts and tooltips are messages through t(), not literals', () => {
    const literal = (n: Node | undefined) => !!n && (Node.isStringLiteral(n) || Node.isNoSubstitutionTemplateLiteral(n) || Node.isTemplateExpression(n));
    // client/src/host/ moves its messages to t() in its own change (issue 16); it joins this check then.
    const inScope = (f: SourceFile) => !f.getFilePath().includes('/client/src/host/');
    const found: string[] = [];
    for (const method of ['showInformationMessage', 'showWarningMessage', 'showErrorMessage']) {
      for (const c of calls(method)) if (inScope(c.getSourceFile()) && literal(c.getArguments()[0])) found.push(`${path.relative(root, c.getSourceFile().getFilePath())}:${c.getStartLineNumber()} ${method}`);
    }
    for (const f of client.filter(inScope)) {
      for (const b of f.getDescendantsOfKind(SyntaxKind.BinaryExpression)) {
        if (b.getOperatorToken().getKind() === SyntaxKind.EqualsToken && /\.(tooltip|detail|name)$/.test(b.getLeft().getText()) && literal(b.getRight())) {
          found.push(`${path.relative(root, f.getFilePath())}:${b.getStartLineNumber()} ${b.getLeft().getText()}`);
        }
      }
    }
    assert.deepEqual(found, []);
  });
});

describe('manifest and listing', () => {
  const nls = JSON.parse(fs.readFileSync(path.join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

  it('every %key% in package.json is in package.nls.json, and every key there is used', () => {
    const used = sorted([...JSON.stringify(manifest).matchAll(/"%([^%"]+)%"/g)].map((m) => m[1]));
    assert.deepEqual(used, sorted(Object.keys(nls)));
  });

  it('names one project URL for the repository, the homepage and issues, and no placeholder', () => {
    const url = 'https://github.com/blockether/vis-authoring';
    assert.deepEqual([manifest.repository.url, manifest.homepage, manifest.bugs.url], [`${url}.git`, `${url}#readme`, `${url}/issues`]);
    const texts = ['package.json', 'README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'test/e2e/harness/package.json'].map((f) => fs.readFileSync(path.join(root, f), 'utf8'));
    for (const text of texts) assert.doesNotMatch(text, /example\.(invalid|com)|\.\.\/shared|\/work\/shared/);
  });

  it('has a 128×128 PNG icon, the one scripts/icon.mjs draws (npm run icon)', async () => {
    const icon = fs.readFileSync(path.join(root, manifest.icon));
    assert.equal(icon.subarray(1, 4).toString('ascii'), 'PNG');
    assert.deepEqual([icon.readUInt32BE(16), icon.readUInt32BE(20)], [128, 128]);
    const { renderIcon } = (await import(path.join(root, 'scripts', 'icon.mjs'))) as { renderIcon(): Buffer };
    assert.ok(renderIcon().equals(icon), 'images/icon.png is what npm run icon writes');
  });

  it('declares Restricted Mode and virtual workspace support, limited to analysis', () => {
    assert.deepEqual(manifest.capabilities.untrustedWorkspaces.supported, 'limited');
    assert.deepEqual(manifest.capabilities.untrustedWorkspaces.restrictedConfigurations, ['visAuthoring.host.reloadOnSave', 'visAuthoring.host.reloadTimeoutSeconds', 'visAuthoring.host.databasePath']);
    assert.equal(manifest.capabilities.virtualWorkspaces.supported, 'limited');
    for (const key of manifest.capabilities.untrustedWorkspaces.restrictedConfigurations) assert.ok(contributes.configuration.properties[key], key);
  });

  it('builds the bundle before packaging, and README images are files in the repository', () => {
    assert.equal(manifest.scripts['vscode:prepublish'], 'node scripts/build.mjs --production && node --import tsx scripts/l10n.ts');
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const images = [...readme.matchAll(/!\[[^\]]*\]\(([^)]+)\)/g)].map((m) => m[1]);
    assert.ok(images.length >= 3, 'the README shows screenshots');
    for (const image of images) assert.ok(fs.existsSync(path.join(root, image)), image);
  });
});
