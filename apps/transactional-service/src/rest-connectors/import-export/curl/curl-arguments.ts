import { ImportSourceError, ImportWarning } from '../connector-draft';
import { ImportWarnings } from '../import-warnings';
import { leadingName } from '../quoted-list';
import { NEGATABLE_SWITCHES, OPTIONS_WITH_ARGUMENT, SHORT_OPTIONS, SWITCHES } from './curl-options';
import { ShellWord } from './shell-words';

/** An option as curl reads it: its long name, its argument if it takes one, and how and where it was written. */
export interface CurlOption {
  /** The long name without dashes (`header` for `-H`); a `--no-x` switch is `x` with `negated`. */
  name: string;
  value?: string;
  negated?: boolean;
  /** As written (`-H`, `--header`, `--compres`), for messages. */
  written: string;
  line: number;
}

/** The options and URLs of one request group (`--next` starts another, with options of its own). */
export interface CurlArguments {
  options: CurlOption[];
  urls: ShellWord[];
}

const SHORT = new Map(Object.entries(SHORT_OPTIONS));
const ALL_LONG = [...OPTIONS_WITH_ARGUMENT, ...SWITCHES];

/**
 * curl's own reading of its arguments (tool_getparam.c): `--long value` (never `--long=value`), a long name cut short
 * where that is unambiguous, `--no-<switch>`, clusters of one-letter switches with the last one's argument attached
 * or next (`-sSL`, `-XPOST`, `-d x`), `--` ending the options, and every other argument a URL.
 */
export function readCurlArguments(words: ShellWord[], warnings: ImportWarnings): CurlArguments[] {
  const groups: CurlArguments[] = [{ options: [], urls: [] }];
  let optionsEnded = false;
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    const group = groups[groups.length - 1];
    if (!optionsEnded && word.text === '--') optionsEnded = true;
    else if (optionsEnded || !word.text.startsWith('-') || word.text === '-') group.urls.push(word);
    else {
      const read = word.text.startsWith('--') ? readLong(words, index, warnings) : readShort(words, index, warnings);
      for (const option of read.options) {
        if (option.name === 'next') groups.push({ options: [], urls: [] });
        else if (option.name === 'url') groups[groups.length - 1].urls.push({ text: option.value ?? '', line: option.line });
        else groups[groups.length - 1].options.push(option);
      }
      index = read.next;
    }
  }
  return groups.filter((group, index) => index === 0 || group.options.length > 0 || group.urls.length > 0);
}

interface Read {
  options: CurlOption[];
  /** The index of the last word used. */
  next: number;
}

function readLong(words: ShellWord[], index: number, warnings: ImportWarnings): Read {
  const word = words[index];
  const written = word.text;
  const resolved = resolveLong(written.slice(2));
  if (!resolved) {
    warnings.push(unknownLong(word));
    return { options: [], next: index };
  }
  if (!OPTIONS_WITH_ARGUMENT.has(resolved.name)) return { options: [{ ...resolved, written, line: word.line }], next: index };
  const value = argumentOf(words, index, written);
  return { options: [{ name: resolved.name, value, written, line: word.line }], next: index + 1 };
}

/** The option a long name stands for: exact, `no-` of a switch, or the only option it abbreviates. */
function resolveLong(name: string): { name: string; negated?: boolean } | undefined {
  if (OPTIONS_WITH_ARGUMENT.has(name) || SWITCHES.has(name)) return { name };
  if (name.startsWith('no-') && NEGATABLE_SWITCHES.has(name.slice(3))) return { name: name.slice(3), negated: true };
  const candidates = ALL_LONG.filter((option) => option.startsWith(name));
  return name.length > 0 && candidates.length === 1 ? { name: candidates[0] } : undefined;
}

/**
 * The warning for a long option curl does not know. It names the option only: what follows `=` (curl takes no
 * `--header=value`, it refuses the option) or is run into the name may be a credential, `--header=Authorization: …`,
 * `--user=ana:secret`, and a warning is shown and kept where a secret is not.
 */
function unknownLong(word: ShellWord): ImportWarning {
  const shown = leadingName(word.text);
  const equals = word.text.indexOf('=');
  const meant = equals > 2 ? resolveLong(word.text.slice(2, equals)) : undefined;
  const hint =
    meant && OPTIONS_WITH_ARGUMENT.has(meant.name)
      ? ` curl takes no --${meant.name}=value (it refuses the option): write --${meant.name} and the value as the next word.`
      : '';
  return {
    code: 'UNKNOWN_OPTION',
    where: `line ${word.line}, ${shown}`,
    message: `${shown} is not a curl option this importer knows (or an ambiguous abbreviation): not imported.${hint}`,
  };
}

function readShort(words: ShellWord[], index: number, warnings: ImportWarnings): Read {
  const word = words[index];
  const options: CurlOption[] = [];
  for (let at = 1; at < word.text.length; at++) {
    const letter = word.text[at];
    const name = SHORT.get(letter);
    if (name === undefined) {
      // curl stops at an unknown letter; so does the import: the rest of the word may be a value run into it.
      const shown = /[A-Za-z0-9]/.test(letter) ? `-${letter}` : 'a character';
      warnings.push({
        code: 'UNKNOWN_OPTION',
        where: `line ${word.line}, ${shown}`,
        message: `${shown} is not a curl option: it and the rest of its word are not imported.`,
      });
      return { options, next: index };
    } else if (!OPTIONS_WITH_ARGUMENT.has(name)) options.push({ name, written: `-${letter}`, line: word.line });
    else {
      // The rest of the word is the argument (-XPOST), or else the next word is (-X POST).
      const attached = word.text.slice(at + 1);
      if (attached.length > 0) return { options: [...options, { name, value: attached, written: `-${letter}`, line: word.line }], next: index };
      options.push({ name, value: argumentOf(words, index, `-${letter}`), written: `-${letter}`, line: word.line });
      return { options, next: index + 1 };
    }
  }
  return { options, next: index };
}

function argumentOf(words: ShellWord[], index: number, written: string): string {
  const next = words[index + 1];
  if (next === undefined) throw new ImportSourceError(`line ${words[index].line}`, `${written.slice(0, 60)} needs a value after it`);
  return next.text;
}
