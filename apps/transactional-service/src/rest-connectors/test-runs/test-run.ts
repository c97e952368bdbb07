import { AuthType, ContentType, GrantType, RequestType, SecretField, SECRETS } from '@app/domain';
import { Dispatcher } from 'undici';
import { AuthFailedError, OAuthTokens } from './oauth-tokens';
import { callOnce, OutboundResult, Outcome } from './outbound-call';
import { evaluateOutput, OutputEvaluation } from './output-expression';
import { scrubSecrets, SecretValue } from './secret-scrubber';
import { fillTemplate, Header, Variables } from './variables';

/** What stands for the OAuth access token in an answer. */
export const ACCESS_TOKEN_PLACEHOLDER = '<ACCESS_TOKEN>';

const MEDIA_TYPES: Record<Exclude<ContentType, ContentType.NONE>, string> = {
  [ContentType.APPLICATION_JSON]: 'application/json',
  [ContentType.APPLICATION_XML]: 'application/xml',
  [ContentType.APPLICATION_FORM_URLENCODED]: 'application/x-www-form-urlencoded',
  [ContentType.MULTIPART_FORM_DATA]: 'multipart/form-data',
  [ContentType.TEXT_PLAIN]: 'text/plain',
};

/** A connector as a test run needs it: its settings, and its secrets in clear for this run only. */
export interface RunnableConnector {
  /** A saved connector's uuid: its OAuth token may be kept between runs. */
  uuid?: string;
  requestType: RequestType;
  url: string;
  headers: readonly Header[];
  contentType: ContentType;
  authType: AuthType;
  grantType: GrantType | null;
  clientId: string | null;
  oauthUrl: string | null;
  authUsername: string | null;
  secrets: Partial<Record<SecretField, string>>;
  body: string;
  output: string;
}

export interface TestRunAnswer {
  outcome: Outcome;
  message: string | null;
  durationMs: number;
  request: { method: string; url: string; headers: Header[]; body: string };
  response: { status: number; headers: Header[]; body: string; bodyTruncated: boolean } | null;
  output: OutputEvaluation | null;
}

/**
 * One test run of a connector's outbound call (docs/api-contract.md, "Connector test runs"): variables filled,
 * the request built as the connector describes it, the token got for OAuth 2.0 (a 401 to a kept token is tried
 * once more with a fresh one), the call made through the outbound guard, and the answer reported with every
 * secret and the access token replaced by their placeholders.
 */
export class TestRunner {
  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly tokens: OAuthTokens,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws the 400 of fillTemplate before anything is sent; reports every other failure as an outcome. */
  async run(connector: RunnableConnector, variables: Variables): Promise<TestRunAnswer> {
    const started = this.now();
    const filled = fillTemplate(connector, variables);
    const sendsBody = connector.contentType !== ContentType.NONE && connector.requestType !== RequestType.GET && connector.requestType !== RequestType.HEAD;
    const headers = filled.headers.filter(({ header }) => !/^(authorization|content-type)$/i.test(header) || !this.overrides(connector, header, sendsBody));
    if (sendsBody) headers.push({ header: 'Content-Type', value: MEDIA_TYPES[connector.contentType as Exclude<ContentType, ContentType.NONE>] });
    const secrets: SecretValue[] = Object.entries(connector.secrets).map(([field, value]) => ({ value: value!, placeholder: SECRETS[field as SecretField].placeholder }));
    const echo = (authorization: string | null) => ({
      method: connector.requestType,
      url: filled.url,
      headers: authorization === null ? headers : [...headers, { header: 'Authorization', value: authorization }],
      body: sendsBody ? filled.body : '',
    });

    let result: OutboundResult;
    let echoed = echo(this.placeholderAuthorization(connector));
    if (connector.authType === AuthType.AUTH_OAUTH2) {
      const settings = {
        oauthUrl: connector.oauthUrl ?? '',
        grantType: connector.grantType ?? GrantType.CLIENT_CREDENTIALS,
        clientId: connector.clientId,
        clientSecret: connector.secrets.clientSecret ?? null,
        username: connector.authUsername,
        password: connector.secrets.authPassword ?? null,
      };
      const call = async () => {
        const { accessToken, kept } = await this.tokens.tokenFor(settings, connector.uuid);
        secrets.push({ value: accessToken, placeholder: ACCESS_TOKEN_PLACEHOLDER });
        const sent = await callOnce(this.dispatcher, this.outbound(connector, filled, headers, sendsBody, `Bearer ${accessToken}`), this.timeoutMs, this.now);
        return { sent, kept };
      };
      try {
        let { sent, kept } = await call();
        if (sent.answer?.status === 401 && kept && connector.uuid !== undefined) {
          this.tokens.drop(connector.uuid);
          ({ sent, kept } = await call());
        }
        result = sent;
      } catch (error) {
        result = this.tokenFailure(error, started);
        echoed = echo(`Bearer ${ACCESS_TOKEN_PLACEHOLDER}`);
      }
    } else {
      result = await callOnce(this.dispatcher, this.outbound(connector, filled, headers, sendsBody, this.authorization(connector)), this.timeoutMs, this.now);
    }

    const scrub = (text: string) => scrubSecrets(text, secrets);
    const answer = result.answer;
    return {
      outcome: result.outcome,
      message: result.message === null ? null : scrub(result.message),
      durationMs: this.now() - started,
      request: echoed,
      response: answer && {
        status: answer.status,
        headers: answer.headers.map(({ header, value }) => ({ header, value: scrub(value) })),
        body: scrub(answer.body),
        bodyTruncated: answer.bodyTruncated,
      },
      output: answer && evaluateOutput(connector.output, scrub(answer.fullBody), answer.fullBodyTruncated),
    };
  }

  /** Whether the connector's own header gives way: the auth type sets Authorization, a sent body its Content-Type. */
  private overrides(connector: RunnableConnector, header: string, sendsBody: boolean): boolean {
    return /^authorization$/i.test(header) ? connector.authType !== AuthType.AUTH_NONE : sendsBody;
  }

  private outbound(connector: RunnableConnector, filled: { url: string; body: string }, headers: Header[], sendsBody: boolean, authorization: string | null) {
    return {
      method: connector.requestType,
      url: filled.url,
      headers: authorization === null ? headers : [...headers, { header: 'Authorization', value: authorization }],
      body: sendsBody ? filled.body : null,
    };
  }

  private authorization(connector: RunnableConnector): string | null {
    if (connector.authType === AuthType.AUTH_BASIC) return `Basic ${connector.secrets.basicToken ?? ''}`;
    if (connector.authType === AuthType.AUTH_BEARER) return `Bearer ${connector.secrets.bearerToken ?? ''}`;
    return null;
  }

  private placeholderAuthorization(connector: RunnableConnector): string | null {
    if (connector.authType === AuthType.AUTH_BASIC) return `Basic ${SECRETS.basicToken.placeholder}`;
    if (connector.authType === AuthType.AUTH_BEARER) return `Bearer ${SECRETS.bearerToken.placeholder}`;
    if (connector.authType === AuthType.AUTH_OAUTH2) return `Bearer ${ACCESS_TOKEN_PLACEHOLDER}`;
    return null;
  }

  /** The token request failed: refused by the guard (BLOCKED_DESTINATION) or by the endpoint (AUTH_FAILED). */
  private tokenFailure(error: unknown, started: number): OutboundResult {
    const code = (error as { code?: unknown })?.code;
    if (code === 'BLOCKED_DESTINATION') return { outcome: 'BLOCKED_DESTINATION', message: `Token endpoint: ${(error as Error).message}`, answer: null, durationMs: this.now() - started };
    const message = error instanceof AuthFailedError ? error.message : `The token endpoint could not be reached: ${typeof code === 'string' ? code : 'the connection failed'}`;
    return { outcome: 'AUTH_FAILED', message, answer: null, durationMs: this.now() - started };
  }
}
