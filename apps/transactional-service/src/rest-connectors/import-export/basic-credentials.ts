import { isBasicCredentials, PLACEHOLDER } from '@app/domain';
import { CredentialDraft } from './connector-draft';

/**
 * Basic auth's credentials from a user and a password as a source gives them (`{{variables}}` in the connector's
 * syntax; undefined: not given, as `-u user` without a password). Both literal: basicToken, the Base64 of
 * `user:password` (UTF-8, RFC 7617), or null when HTTP Basic cannot carry them (a control character, a lone
 * surrogate). Otherwise the two parts, each with its value, or the variable that stands for it, or neither: the import
 * asks only for what the source does not hold (basicUsername, basicPassword), and the service makes the token.
 */
export function basicCredentials(user: string, password: string | undefined, where: string): CredentialDraft[] | null {
  if (password !== undefined && !holdsVariable(user) && !holdsVariable(password)) {
    const text = `${user}:${password}`;
    const token = Buffer.from(text, 'utf8').toString('base64');
    return text.isWellFormed() && isBasicCredentials(token) ? [{ field: 'basicToken', value: token, where }] : null;
  }
  return [part('basicUsername', user, where), part('basicPassword', password, where)];
}

function holdsVariable(text: string): boolean {
  return text.search(PLACEHOLDER) !== -1;
}

function part(field: 'basicUsername' | 'basicPassword', text: string | undefined, where: string): CredentialDraft {
  if (text === undefined) return { field, where };
  if (!holdsVariable(text)) return { field, value: text, where };
  const [first] = text.matchAll(PLACEHOLDER);
  // A part that is one variable is that variable; one that mixes text and variables is asked for whole.
  return { field, variable: first[1], where };
}
