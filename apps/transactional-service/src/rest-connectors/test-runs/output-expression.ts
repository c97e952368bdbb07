import { query } from 'jsonpath-rfc9535';

/** What a test run says of the connector's `output` expression against the answer it got. */
export interface OutputEvaluation {
  expression: string;
  /** What the query selects, in document order (empty when nothing); null when it could not be evaluated. */
  values: unknown[] | null;
  /** Why it could not be evaluated; null when it was. */
  error: string | null;
}

/**
 * `output` as an RFC 9535 JSONPath query (jsonpath-rfc9535: it passes the whole JSONPath Compliance Test
 * Suite, and parses the query rather than evaluating script, unlike the eval-based jsonpath-plus) over the
 * answer's body, when the expression starts with `$` and the body is whole JSON.
 */
export function evaluateOutput(expression: string, body: string, bodyTruncated: boolean): OutputEvaluation {
  const failed = (error: string): OutputEvaluation => ({ expression, values: null, error });
  if (!expression.startsWith('$')) return failed('output is not a JSONPath query (it does not start with $)');
  if (bodyTruncated) return failed('the answer was cut short before its end: it cannot be read as JSON');
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    return failed('the answer is not JSON');
  }
  try {
    return { expression, values: query(document as Parameters<typeof query>[0], expression), error: null };
  } catch (error) {
    return failed(`output is not a valid JSONPath query (RFC 9535): ${(error as Error).message}`);
  }
}
