import { MultipartPart } from '@app/domain';
import { CommentLine } from './curl-commands';
import { shellQuoted } from './posix-quote';
import { tokenizeShell } from './shell-words';

/**
 * curl reads a file part's bytes from a file, and a connector holds them as Base64: an exported file part is
 * `-F 'name=@path'`, and the comment line above the command, `# connector-file: 'path' 'Base64'`, holds its bytes,
 * for the importer to read back (and for the user to write the file from, before running the command).
 */
export const FILE_COMMENT = 'connector-file:';

/** A value in curl's -F double quotes: `"` and `\` escaped, which curl's get_param_word reads back. */
const quotedFormWord = (text: string) => `"${text.replace(/[\\"]/g, (char) => `\\${char}`)}"`;

/**
 * The options of a multipart body: a text part `--form-string` (sent as written: no `@`, `<` or `;type=` read in
 * it), a text part with a filename or content type `-F 'name="value";filename=…;type=…'`, a Base64 part
 * `-F 'name=@path;type=…'` with its FILE_COMMENT line.
 */
export function formOptions(parts: readonly MultipartPart[], word: (text: string) => string = shellQuoted): { options: string[]; comments: string[] } {
  const comments: string[] = [];
  const options = parts.map(({ name, value, base64, filename, contentType }) => {
    // curl takes a type as written, up to a `;` that starts another parameter: never quoted.
    const type = contentType === undefined ? '' : `;type=${contentType}`;
    if (base64 !== undefined) {
      const path = filename ?? name;
      comments.push(`# ${FILE_COMMENT} ${shellQuoted(path)} ${shellQuoted(base64)}`);
      return `-F ${shellQuoted(`${name}=@${quotedFormWord(path)}${type}`)}`;
    }
    if (filename === undefined && contentType === undefined) return `--form-string ${word(`${name}=${value ?? ''}`)}`;
    const named = filename === undefined ? '' : `;filename=${quotedFormWord(filename)}`;
    return `-F ${shellQuoted(`${name}=${quotedFormWord(value ?? '')}${named}${type}`)}`;
  });
  if (comments.length > 0) comments.unshift('# Multipart files: write each file named below from its Base64 (base64 -d) before running the command.');
  return { options, comments };
}

/** The bytes of each file path the FILE_COMMENT lines above a command give. */
export function readFileComments(comments: readonly CommentLine[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const { text } of comments) {
    if (!text.trim().startsWith(FILE_COMMENT)) continue;
    const words = tokenizeShell(text.trim().slice(FILE_COMMENT.length)).flatMap((token) => (token.kind === 'word' ? [token.word.text] : []));
    if (words.length === 2) files.set(words[0], words[1]);
  }
  return files;
}
