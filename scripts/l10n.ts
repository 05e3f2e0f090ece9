// The English message bundle (l10n/bundle.l10n.json) from the client's t('...') calls, as
// `@vscode/l10n-dev export` makes it from `vscode.l10n.t(...)`: every message is its own key and value.
// Translators copy it to bundle.l10n.<locale>.json. Written at packaging (`vscode:prepublish`) and by
// `npm run l10n`; a test fails when a t() call has a message that is not a literal string.
import fs from 'node:fs';
import path from 'node:path';
import { Node, Project, SyntaxKind } from 'ts-morph';

export const ROOT = path.join(__dirname, '..');
export const BUNDLE = path.join(ROOT, 'l10n', 'bundle.l10n.json');

export interface Extracted {
  messages: string[];
  /** `file:line` of t() calls whose message is not a literal string. */
  notLiteral: string[];
}

/** Every t() message in client/src, sorted and without duplicates. */
export function extractMessages(project = clientProject()): Extracted {
  const messages = new Set<string>();
  const notLiteral: string[] = [];
  for (const file of project.getSourceFiles()) {
    for (const call of file.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const callee = call.getExpression();
      if (!Node.isIdentifier(callee) || callee.getText() !== 't') continue;
      const [first] = call.getArguments();
      if (first && (Node.isStringLiteral(first) || Node.isNoSubstitutionTemplateLiteral(first))) messages.add(first.getLiteralValue());
      else notLiteral.push(`${path.relative(ROOT, file.getFilePath())}:${call.getStartLineNumber()}`);
    }
  }
  return { messages: [...messages].sort(), notLiteral };
}

export function clientProject(): Project {
  const project = new Project({ tsConfigFilePath: path.join(ROOT, 'tsconfig.json'), skipAddingFilesFromTsConfig: true });
  project.addSourceFilesAtPaths(path.join(ROOT, 'client/src/**/*.ts'));
  return project;
}

export function bundleText(messages: string[]): string {
  return JSON.stringify(Object.fromEntries(messages.map((m) => [m, m])), null, 2) + '\n';
}

if (require.main === module) {
  const { messages, notLiteral } = extractMessages();
  if (notLiteral.length) {
    console.error(`t() needs a literal message at: ${notLiteral.join(', ')}`);
    process.exit(1);
  }
  fs.mkdirSync(path.dirname(BUNDLE), { recursive: true });
  fs.writeFileSync(BUNDLE, bundleText(messages));
  console.log(`wrote ${path.relative(process.cwd(), BUNDLE)} (${messages.length} messages)`);
}
