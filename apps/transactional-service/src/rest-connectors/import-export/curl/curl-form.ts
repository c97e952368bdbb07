import { MultipartPart } from '@app/domain';
import { ImportSourceError } from '../connector-draft';
import { ImportWarnings } from '../import-warnings';
import { CurlOption } from './curl-arguments';

/** A word of a -F value and where its reading stopped. */
interface Word {
  text: string;
  end: number;
}

/**
 * A word as curl's get_param_word reads it (tool_formparse.c): in double quotes, with `\"` and `\\` escaped, up to
 * the closing quote (anything after it up to the next `;` is dropped, as curl drops it); else up to the next `;`.
 */
function wordAt(text: string, start: number): Word {
  if (text[start] === '"') {
    let word = '';
    for (let i = start + 1; i < text.length; i++) {
      if (text[i] === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i];
      else if (text[i] === '"') {
        const semicolon = text.indexOf(';', i);
        return { text: word, end: semicolon === -1 ? text.length : semicolon };
      } else word += text[i];
    }
    // No closing quote: curl reads the word from its quote as written.
  }
  const semicolon = text.indexOf(';', start);
  const end = semicolon === -1 ? text.length : semicolon;
  return { text: text.slice(start, end), end };
}

/** A parameter curl reads after a -F value; any other `;…` after `type=` is part of the type (`type=text/plain; charset=utf-8`). */
const PARAMETER = /^[ \t]*(type|filename|headers|encoder)=/i;

/** The type after `type=` as curl reads it: as written (quotes included), up to a `;` that starts another parameter. */
function typeAt(text: string, start: number): Word {
  for (let at = text.indexOf(';', start); at !== -1; at = text.indexOf(';', at + 1)) {
    if (PARAMETER.test(text.slice(at + 1))) return { text: text.slice(start, at), end: at };
  }
  return { text: text.slice(start), end: text.length };
}

/** The `;type=`, `;filename=`, `;headers=` and `;encoder=` after a -F value, as curl reads them; others skipped (curl warns). */
function paramsAt(text: string, start: number, option: CurlOption, warnings: ImportWarnings): { type?: string; filename?: string } {
  const params: { type?: string; filename?: string } = {};
  const where = `line ${option.line}, ${option.written}`;
  for (let at = start; at < text.length && text[at] === ';';) {
    const param = PARAMETER.exec(text.slice(at + 1));
    const valueAt = at + 1 + (param?.[0].length ?? 0);
    const name = param?.[1].toLowerCase();
    const word = name === 'type' ? typeAt(text, valueAt) : wordAt(text, valueAt);
    if (name === undefined) {
      warnings.push({
        code: 'FORM_PARAMETER_SKIPPED',
        where,
        message: `curl skips the unknown form parameter ${word.text.trim().slice(0, 40)}, and so does the import.`,
      });
    } else if (name === 'type') params.type = word.text.trim();
    else if (name === 'filename') params.filename = word.text;
    else
      warnings.push({ code: 'FORM_PARAMETER_SKIPPED', where, message: `The part's ${name} are not kept: a part has a name, a filename and a content type.` });
    at = word.end;
  }
  return params;
}

/**
 * One `-F` / `--form-string` option as a multipart part. `--form-string name=value`: the value as written. `-F`:
 * `name=value` a text part, `name=@path` a file (its content never read: an empty `value` named by the path's last
 * segment, FILE_NOT_READ; its bytes when a `# connector-file:` line gives them, `files`), `name=<path` a text part read from a file (empty, FILE_NOT_READ); each may be followed by
 * `;type=…` (the part's contentType) and `;filename=…`, and a value may be quoted (`name="a;b"`), as curl reads them.
 */
export function formPart(option: CurlOption, warnings: ImportWarnings, files: ReadonlyMap<string, string>): MultipartPart {
  const text = option.value ?? '';
  const equals = text.indexOf('=');
  if (equals <= 0) throw new ImportSourceError(`line ${option.line}`, `${option.written} needs name=value (a part has a non-empty name)`);
  const name = text.slice(0, equals);
  if (option.name === 'form-string') return { name, value: text.slice(equals + 1) };
  const fromFile = text[equals + 1] === '@' || text[equals + 1] === '<';
  const word = wordAt(text, equals + (fromFile ? 2 : 1));
  const { type, filename } = paramsAt(text, word.end, option, warnings);
  const typed = type === undefined ? {} : { contentType: type };
  if (!fromFile) return { name, value: word.text, ...(filename !== undefined && { filename }), ...typed };
  const isFile = text[equals + 1] === '@';
  const base64 = isFile ? files.get(word.text) : undefined;
  if (base64 !== undefined) return { name, base64, filename: filename ?? word.text.split(/[/\\]/).pop()!, ...typed };
  warnings.push({
    code: 'FILE_NOT_READ',
    where: `line ${option.line}, ${option.written}`,
    message:
      `${option.written} ${name.slice(0, 40)}=${text.slice(equals + 1, equals + 41)} ${isFile ? 'uploads' : 'reads its text from'} a file: an import never ` +
      `reads a file; the part ${name.slice(0, 40)} is kept with an empty value: write its content (value, or base64 for bytes).`,
  });
  if (!isFile) return { name, value: '', ...(filename !== undefined && { filename }), ...typed };
  return { name, value: '', filename: filename ?? word.text.split(/[/\\]/).pop()!, ...typed };
}
