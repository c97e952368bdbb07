import { formEncode } from './postman/body';

/** Text decoded from a form, or undefined when it does not decode. */
function formDecoded(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

/**
 * A form body's fields, decoded, when they are `key=value` pairs (and, `exact`, pairs that encode back to the body
 * exactly, variables left as written: Postman sends the fields, not the body); undefined otherwise. What the Postman
 * and OpenAPI exports write a form's fields from.
 */
export function formPairs(body: string, exact = true): Array<{ key: string; value: string }> | undefined {
  if (body === '') return [];
  const pairs: Array<{ key: string; value: string }> = [];
  for (const pair of body.split('&')) {
    const equals = pair.indexOf('=');
    const key = formDecoded(pair.slice(0, Math.max(equals, 0)));
    const value = formDecoded(pair.slice(equals + 1));
    if (equals < 0 || key === undefined || value === undefined) return undefined;
    pairs.push({ key, value });
  }
  if (!exact) return pairs;
  return pairs.map(({ key, value }) => `${formEncode(key)}=${formEncode(value)}`).join('&') === body ? pairs : undefined;
}
