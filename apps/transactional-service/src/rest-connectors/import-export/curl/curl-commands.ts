import { ImportSourceError } from '../connector-draft';
import { ImportWarnings } from '../import-warnings';
import { leadingName } from '../quoted-list';
import { COPY_AS_BASH, ShellToken, ShellWord } from './shell-words';

/** One `curl …` of the source: its arguments, and the comment lines right above it. */
export interface CurlCommand {
  line: number;
  arguments: ShellWord[];
  comments: CommentLine[];
}

export interface CommentLine {
  text: string;
  line: number;
}

/** Operators that send curl's output or errors somewhere: nothing a connector keeps. */
const REDIRECTIONS = /^\d*(?:>|>>|>\||>&|<|<&|<>)$|^&>>?$/;
/** Operators that would make of one line several commands, a subshell or a process substitution. */
const JOINS = new Set([';', ';;', '&&', '||', '&', '(', ')', '<(', '>(']);
const CURL = /^(?:.*\/)?curl$/;
const WINDOWS_CURL = /^(?:.*[\\/])?curl\.exe$/i;

/**
 * The curl commands of a token stream, one per line (a line continued by `\` or inside quotes is one line); comment
 * lines and blank lines between them are skipped. A `$ ` prompt before `curl` is dropped. What follows a `|` is
 * another program's and is skipped with a warning, as are redirections; anything that joins commands is refused.
 */
export function curlCommands(tokens: ShellToken[], warnings: ImportWarnings): CurlCommand[] {
  const commands: CurlCommand[] = [];
  let comments: CommentLine[] = [];
  for (const line of splitLines(tokens)) {
    const first = line[0];
    if (first.kind === 'comment') {
      comments.push({ text: first.text, line: first.line });
      continue;
    }
    commands.push(readCommand(line, comments, warnings));
    comments = [];
  }
  return commands;
}

/** The tokens of each non-blank line. */
function splitLines(tokens: ShellToken[]): ShellToken[][] {
  const lines: ShellToken[][] = [];
  let current: ShellToken[] = [];
  for (const token of [...tokens, { kind: 'newline', line: 0 } as const]) {
    if (token.kind !== 'newline') current.push(token);
    else if (current.length > 0) {
      lines.push(current);
      current = [];
    }
  }
  return lines;
}

function readCommand(tokens: ShellToken[], comments: CommentLine[], warnings: ImportWarnings): CurlCommand {
  const start = tokens[0].kind === 'word' && tokens[0].word.text === '$' ? 1 : 0;
  const name = tokens[start];
  const line = lineOf(name ?? tokens[0]);
  if (name?.kind !== 'word') throw new ImportSourceError(`line ${line}`, 'a line must start with curl');
  checkCommandName(name.word);
  const words: ShellWord[] = [];
  for (let index = start + 1; index < tokens.length; index++) {
    const token = tokens[index];
    if (token.kind === 'word') words.push(token.word);
    else if (token.kind !== 'operator') break;
    else if (token.operator === '|' || token.operator === '|&') {
      skipPipeline(tokens.slice(index + 1), token.line, warnings);
      break;
    } else index = skipRedirection(tokens, index, warnings);
  }
  return { line, arguments: words, comments };
}

function checkCommandName(word: ShellWord): void {
  if (CURL.test(word.text)) return;
  if (WINDOWS_CURL.test(word.text))
    throw new ImportSourceError(`line ${word.line}`, `curl.exe is a Windows command line (cmd or PowerShell quoting): ${COPY_AS_BASH}`);
  if (word.text.includes('=')) {
    throw new ImportSourceError(`line ${word.line}`, 'a variable assignment is not read: give the value when the connector runs ($NAME becomes {{NAME}})');
  }
  throw new ImportSourceError(`line ${word.line}`, `"${leadingName(word.text)}" is not curl: each line holds one curl command or a # comment`);
}

/** `| jq .`: another program reads curl's output; the connector keeps the call only. */
function skipPipeline(rest: ShellToken[], line: number, warnings: ImportWarnings): void {
  const join = rest.find((token) => token.kind === 'operator' && JOINS.has(token.operator));
  if (join) refuseJoin(join);
  const program = rest.find((token) => token.kind === 'word');
  const what = program?.kind === 'word' ? ` (${leadingName(program.word.text)} …)` : '';
  warnings.push({
    code: 'PIPE_IGNORED',
    where: `line ${line}, |`,
    message: `What curl's output is piped into${what} is not imported: the connector keeps the call only.`,
  });
}

function skipRedirection(tokens: ShellToken[], index: number, warnings: ImportWarnings): number {
  const token = tokens[index] as Extract<ShellToken, { kind: 'operator' }>;
  if (token.operator === '<<' || token.operator === '<<<') {
    throw new ImportSourceError(
      `line ${token.line}`,
      `a here-document (${token.operator}) feeds curl's input, which an import does not read: put the data in --data-raw`,
    );
  }
  if (!REDIRECTIONS.test(token.operator)) refuseJoin(token);
  const target = tokens[index + 1];
  if (target?.kind !== 'word') throw new ImportSourceError(`line ${token.line}`, `the redirection ${token.operator} names no file`);
  const input = token.operator.startsWith('<') || /^\d*<&?$/.test(token.operator);
  warnings.push({
    code: 'REDIRECT_IGNORED',
    where: `line ${token.line}, ${token.operator}`,
    message: input
      ? `Input redirection ${token.operator} ${target.word.text.slice(0, 40)} is not read: an import reads no file; put the data in --data-raw.`
      : `Redirection ${token.operator} ${target.word.text.slice(0, 40)} is ignored: the connector keeps the call, not where its output went.`,
  });
  return index + 1;
}

function refuseJoin(token: ShellToken): never {
  const operator = token.kind === 'operator' ? token.operator : '';
  throw new ImportSourceError(
    `line ${lineOf(token)}`,
    `${operator} joins commands or starts a subshell: an import reads one curl command per line, and runs nothing`,
  );
}

function lineOf(token: ShellToken): number {
  return token.kind === 'word' ? token.word.line : token.line;
}
