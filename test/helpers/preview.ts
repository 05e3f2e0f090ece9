// Reads one part of a docs preview (Markdown: `## <title> · N tokens`, then its text in a fence).
export function previewPart(text: string, title: string): string | undefined {
  const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^## ${escaped} \\u00b7 \\d+ tokens?\\n\\n(\`{3,})text\\n([\\s\\S]*?)\\n\\1$`, 'm').exec(text)?.[2];
}
