import { AuthType } from '@app/domain';
import { inlineOrigin, withScheme } from './url';
import { environmentPlaceholder, isEnvironmentReference, variablesIn } from './variables';
import { UrlAndAuth, userinfoAuth } from './url-auth';
import { Warnings } from './warnings';

/** Where a URL goes, settled: the URL, or why it cannot be settled (the item is then left out). */
export type Located = { url: string } | { problem: string };

/** The collection's variables: the values it gives, and every name it declares (with a value or empty). */
export interface CollectionValues {
  values: ReadonlyMap<string, string>;
  declared: ReadonlySet<string>;
}

/** What a located URL is called in messages: `URL` or `token URL`. */
type UrlName = 'URL' | 'token URL';

/**
 * The URL with the collection's values in its scheme and authority where a connector needs them written out: always
 * when it carries a secret (`withSecret`), else only when it does not start with an http(s) scheme otherwise.
 * Then `http://` in front when it has no scheme, as Postman sends it.
 */
export function located(url: string, variables: CollectionValues, withSecret: boolean, what: UrlName, where: string, warnings: Warnings): Located {
  const inlined = inlineOrigin(url, variables.values, withSecret, variables.declared);
  if ('missing' in inlined) {
    return {
      problem:
        `its ${what}'s scheme, host or port comes from {{${inlined.missing}}}, which the collection does not define: ` +
        "give it a value in the collection's variables, or write the URL out",
    };
  }
  if (inlined.environment.length > 0) {
    const references = inlined.environment.map((name) => `{{${name}}} is {{${environmentPlaceholder(name)}}}`).join(', ');
    warnings.add(
      'ENVIRONMENT_VARIABLE',
      where,
      `The ${what}'s scheme, host or port comes from a variable the collection does not define (a Postman environment's): ${references}, ` +
        "the connector variable of the environment it is imported into (the answer's environmentVariables says whether it is set; postmanEnvironment fills it).",
    );
  }
  if (inlined.inlined.length > 0) {
    const why = withSecret
      ? 'a connector with auth has none there (the secret would go wherever the variable points)'
      : "a connector's URL starts with http:// or https://";
    warnings.add(
      'VARIABLE_INLINED',
      where,
      `The ${what}'s scheme, host or port came from {{${inlined.inlined.join('}}, {{')}}}: the collection's values are written in, since ${why}.`,
    );
  }
  // A URL that starts with the environment's variable takes its scheme from the value (a Postman environment's base URL).
  const [first] = variablesIn(inlined.url);
  if (inlined.url.startsWith(`{{${first}}}`) && isEnvironmentReference(first)) return { url: inlined.url };
  const schemed = withScheme(inlined.url);
  if (schemed.added) warnings.add('SCHEME_ADDED', where, `The ${what} has no scheme: http:// is added, as Postman does.`);
  return { url: schemed.url };
}

/** The request's URL located, its user info turned into the auth settings (or removed), with the auth settings that result. */
export function locatedRequest(state: UrlAndAuth, variables: CollectionValues, where: string, warnings: Warnings): UrlAndAuth | { problem: string } {
  const first = located(state.url, variables, state.auth.authType !== AuthType.AUTH_NONE, 'URL', where, warnings);
  if ('problem' in first) return first;
  const settled = userinfoAuth({ url: first.url, auth: state.auth }, where, warnings);
  if (settled.auth === state.auth) return settled;
  // User info became basic auth: its URL may now hold no variable where the token goes.
  const again = located(settled.url, variables, true, 'URL', where, warnings);
  return 'problem' in again ? again : { url: again.url, auth: settled.auth };
}
