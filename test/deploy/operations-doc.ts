/**
 * docs/operations.md as the deployment tests read it: its sections, its tables, and the commands of its code
 * blocks, so that what it tells an operator to run can be held against the manifests.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './deploy-support';

export const OPERATIONS_DOC = join(ROOT, 'docs', 'operations.md');

export function readOperationsDoc(): string {
  return readFileSync(OPERATIONS_DOC, 'utf8');
}

/** The text under a heading (`## Name` or `### Name`), up to the next heading of the same or a higher level. */
export function section(text: string, heading: string): string {
  const lines = text.split('\n');
  // A `# comment` in a code block is no heading.
  let fenced = false;
  const levels = lines.map((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return fenced ? 0 : (/^(#+) /.exec(line)?.[1].length ?? 0);
  });
  const start = lines.findIndex((line, i) => levels[i] > 1 && line.replace(/^#+ /, '') === heading);
  if (start < 0) throw new Error(`docs/operations.md has no section "${heading}"`);
  const end = levels.findIndex((level, i) => i > start && level > 0 && level <= levels[start]);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The fenced code blocks of a text, with their language. */
export function codeBlocks(text: string): Array<{ language: string; code: string }> {
  return [...text.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map(([, language, code]) => ({ language, code }));
}

/**
 * The shell commands a text shows: each line of its bash blocks (continuations joined, comments dropped) and each
 * inline `kubectl …` or `docker …` span.
 */
export function shellCommands(text: string): string[] {
  const fromBlocks = codeBlocks(text)
    .filter((block) => block.language === 'bash')
    .flatMap((block) => block.code.replace(/\s*\\\n\s*/g, ' ').split('\n'))
    .map((line) => line.replace(/(^|\s)#.*$/, '').trim());
  const inline = [...text.matchAll(/`((?:kubectl|docker) [^`]+)`/g)].map(([, command]) => command.trim());
  return [...fromBlocks, ...inline].filter(Boolean);
}

/** Files under docker/k8s that the doc applies with `kubectl … apply -f <file>`. */
export function operationsDocAppliedFiles(): string[] {
  const files = shellCommands(readOperationsDoc()).flatMap((command) =>
    [...command.matchAll(/\bkubectl\b.*?\bapply\b.*?\s-f\s+(docker\/k8s\/\S+\.ya?ml)/g)].map(([, file]) => file),
  );
  return [...new Set(files)];
}

/** The rows of the first table whose header starts with these cells, each row its cells (code spans kept whole). */
export function markdownTable(text: string, header: string[]): string[][] {
  /** Cells split at each `|` outside code spans and not escaped (`\|`). */
  const splitRow = (line: string) => {
    const cells = [''];
    let inCode = false;
    for (let i = 0; i < line.length; i++) {
      const char = line[i];
      if (char === '`') inCode = !inCode;
      if (char === '|' && !inCode && line[i - 1] !== '\\') cells.push('');
      else cells[cells.length - 1] += char;
    }
    return cells.slice(1, line.trimEnd().endsWith('|') ? -1 : undefined).map((cell) => cell.trim());
  };
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('|') && header.every((cell, i) => splitRow(line)[i] === cell));
  if (start < 0) throw new Error(`no table with the header ${header.join(' | ')}`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(splitRow(line));
  }
  return rows;
}

/** The code spans of a cell, unquoted: "`A`, `B`" is ['A', 'B']. */
export function codeSpans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]*)`/g)].map(([, code]) => code);
}
