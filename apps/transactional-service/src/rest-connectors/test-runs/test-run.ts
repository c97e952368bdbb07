import { AuthType, ContentType, GrantType, RequestType, SecretField, SECRETS } from '@app/domain';
import type { Dispatcher } from 'undici';
import { AuthFailedError, OAuthTokens } from './oauth-tokens';
import { callOnce, OutboundRequest, OutboundResult, Outcome } from './outbound-call';
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
    // The connector's own header gives way where the auth type sets Authorization or a sent body its Content-Type.
    const givesWay = (header: string) => (/^authorization$/i.test(header) ? connector.authType !== AuthType.AUTH_NONE : sendsBody && /^content-type$/i.test(header));
    const headers = filled.headers.filter(({ header }) => !givesWay(header));
    if (sendsBody) headers.push({ header: 'Content-Type', value: MEDIA_TYPES[connector.contentType as Exclude<ContentType, ContentType.NONE>] });
    const requestWith = (authorization: string | null): OutboundRequest => ({
      method: connector.requestType,
      url: filled.url,
      headers: authorization === null ? headers : [...headers, { header: 'Authorization', value: authorization }],
      body: sendsBody ? filled.body : null,
    });
    const secrets: SecretValue[] = Object.entries(connector.secrets).map(([field, value]) => ({ value: value!, placeholder: SECRETS[field as SecretField].placeholder }));

    const result =
      connector.authType === AuthType.AUTH_OAUTH2
        ? await this.callWithToken(connector, requestWith, secrets, started)
        : await callOnce(this.dispatcher, requestWith(this.authorization(connector, false)), this.timeoutMs, this.now);

    const scrub = (text: string) => scrubSecrets(text, secrets);
    const shown = requestWith(this.authorization(connector, true));
    const answer = result.answer;
    return {
      outcome: result.outcome,
      message: result.message === null ? null : scrub(result.message),
      durationMs: this.now() - started,
      request: { ...shown, headers: [...shown.headers], body: shown.body ?? '' },
      response: answer && {
        status: answer.status,
        headers: answer.headers.map(({ header, value }) => ({ header, value: scrub(value) })),
        body: scrub(answer.body),
        bodyTruncated: answer.bodyTruncated,
      },
      output: answer && evaluateOutput(connector.output, scrub(answer.fullBody), answer.fullBodyTruncated),
    };
  }

  /**
   * AUTH_OAUTH2: the call with the access token (added to `secrets`, to be scrubbed); a 401 to a kept token drops
   * it and tries once more with a fresh one. A failing token request is the outcome.
   */
  private async callWithToken(
    connector: RunnableConnector,
    requestWith: (authorization: string) => OutboundRequest,
    secrets: SecretValue[],
    started: number,
  ): Promise<OutboundResult> {
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
      return { sent: await callOnce(this.dispatcher, requestWith(`Bearer ${accessToken}`), this.timeoutMs, this.now), kept };
    };
    try {
      const first = await call();
      if (first.sent.answer?.status !== 401 || !first.kept || connector.uuid === undefined) return first.sent;
      this.tokens.drop(connector.uuid);
      return (await call()).sent;
    } catch (error) {
      return this.tokenFailure(error, started);
    }
  }

  /** The Authorization the auth type sends (`shown`: as the answer shows it, secrets as placeholders). OAuth 2.0's is sent per call. */
  private authorization(connector: RunnableConnector, shown: boolean): string | null {
    switch (connector.authType) {
      case AuthType.AUTH_BASIC:
        return `Basic ${shown ? SECRETS.basicToken.placeholder : (connector.secrets.basicToken ?? '')}`;
      case AuthType.AUTH_BEARER:
        return `Bearer ${shown ? SECRETS.bearerToken.placeholder : (connector.secrets.bearerToken ?? '')}`;
      case AuthType.AUTH_OAUTH2:
        return shown ? `Bearer ${ACCESS_TOKEN_PLACEHOLDER}` : null;
      default:
        return null;
    }
  }

  /** The token request failed: refused by the guard (BLOCKED_DESTINATION) or by the endpoint (AUTH_FAILED). */
  private tokenFailure(error: unknown, started: number): OutboundResult {
    const code = (error as { code?: unknown })?.code;
    if (code === 'BLOCKED_DESTINATION') return { outcome: 'BLOCKED_DESTINATION', message: `Token endpoint: ${(error as Error).message}`, answer: null, durationMs: this.now() - started };
    const message = error instanceof AuthFailedError ? error.message : `The token endpoint could not be reached: ${typeof code === 'string' ? code : 'the connection failed'}`;
    return { outcome: 'AUTH_FAILED', message, answer: null, durationMs: this.now() - started };
  }
}
