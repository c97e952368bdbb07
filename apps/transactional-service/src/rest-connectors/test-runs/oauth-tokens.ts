import { GrantType } from '@app/domain';
import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { undici } from './undici';
import { readUpTo, textUpTo } from './outbound-call';

/** A connector's OAuth 2.0 settings, secrets in clear (decrypted for this run only). */
export interface OAuthSettings {
  oauthUrl: string;
  grantType: GrantType;
  clientId: string | null;
  clientSecret: string | null;
  username: string | null;
  password: string | null;
}

/** The token endpoint refused or failed: the test run's outcome is AUTH_FAILED. */
export class AuthFailedError extends Error {
  readonly code = 'AUTH_FAILED';

  constructor(
    readonly status: number | null,
    /** RFC 6749 section 5.2 `error`, when the endpoint said one. */
    readonly error: string | null,
    readonly errorDescription: string | null,
  ) {
    super(
      `The token endpoint ${status === null ? 'gave no usable answer' : `answered ${status}`}` +
        (error ? `: ${error}${errorDescription ? ` (${errorDescription})` : ''}` : ''),
    );
  }
}

/** A token is dropped this long before the endpoint said it expires. */
export const TOKEN_MARGIN_MS = 30_000;
/** At most this many connectors' tokens are kept; beyond, the one kept longest ago is forgotten. */
export const MAX_KEPT_TOKENS = 10_000;
/** A token answer is read up to this size. */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

interface Kept {
  settings: string;
  accessToken: string;
  until: number;
}

/** RFC 6749 appendix B: the client id and secret are form-urlencoded before they are joined for HTTP Basic. */
const formEncoded = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);

/**
 * Access tokens of connectors' OAuth 2.0 settings (RFC 6749, client credentials and password grants). The
 * client authenticates with HTTP Basic when it has a secret (section 2.3.1), else sends `client_id` in the form.
 * A token is kept per connector until `expires_in` minus 30 s (not kept without `expires_in`), for exactly the
 * settings that got it: any change of them asks anew. The request goes through the given dispatcher, so the
 * outbound guard checks the token endpoint too.
 */
export class OAuthTokens {
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly timeoutMs: number,
    private readonly now: () => number = Date.now,
    private readonly maxKept = MAX_KEPT_TOKENS,
  ) {}

  /**
   * A token for the connector (`keepAs`: its uuid; undefined for an unsaved one, whose token is never kept);
   * `kept` when it is one kept from before (a 401 to it is worth one more try with a fresh one).
   */
  async tokenFor(settings: OAuthSettings, keepAs?: string): Promise<{ accessToken: string; kept: boolean }> {
    const fingerprint = createHash('sha256').update(JSON.stringify(settings)).digest('hex');
    const kept = keepAs === undefined ? undefined : this.kept.get(keepAs);
    if (kept && kept.settings === fingerprint && kept.until > this.now()) return { accessToken: kept.accessToken, kept: true };
    if (keepAs !== undefined) this.kept.delete(keepAs);
    const { accessToken, expiresInS } = await this.requestToken(settings);
    if (keepAs !== undefined && expiresInS !== null) {
      // A Map iterates in insertion order: its first key is the token kept longest ago.
      if (this.kept.size >= this.maxKept) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(keepAs, { settings: fingerprint, accessToken, until: this.now() + expiresInS * 1000 - TOKEN_MARGIN_MS });
    }
    return { accessToken, kept: false };
  }

  /** Forgets the connector's token: the far side answered 401 to it. */
  drop(keepAs: string): void {
    this.kept.delete(keepAs);
  }

  private async requestToken(settings: OAuthSettings): Promise<{ accessToken: string; expiresInS: number | null }> {
    const form = new URLSearchParams({ grant_type: settings.grantType === GrantType.PASSWORD ? 'password' : 'client_credentials' });
    if (settings.grantType === GrantType.PASSWORD) {
      form.set('username', settings.username ?? '');
      form.set('password', settings.password ?? '');
    }
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' };
    if (settings.clientSecret !== null) {
      const credentials = `${formEncoded(settings.clientId ?? '')}:${formEncoded(settings.clientSecret)}`;
      headers.authorization = `Basic ${Buffer.from(credentials, 'utf8').toString('base64')}`;
    } else if (settings.clientId !== null) {
      form.set('client_id', settings.clientId);
    }
    const answer = await undici().request(settings.oauthUrl, {
      method: 'POST',
      headers,
      body: form.toString(),
      dispatcher: this.dispatcher,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
    });
    const text = textUpTo((await readUpTo(answer.body, MAX_TOKEN_ANSWER_BYTES)).bytes, MAX_TOKEN_ANSWER_BYTES).text;
    let body: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    } catch {
      // Not JSON: AuthFailedError below says what came back.
    }
    const error = typeof body.error === 'string' ? body.error : null;
    const description = typeof body.error_description === 'string' ? body.error_description : null;
    if (answer.statusCode < 200 || answer.statusCode > 299 || typeof body.access_token !== 'string' || body.access_token === '') {
      throw new AuthFailedError(answer.statusCode, error ?? (answer.statusCode < 300 ? 'no access_token in the answer' : null), description);
    }
    const expiresIn = Number(body.expires_in);
    return { accessToken: body.access_token, expiresInS: body.expires_in !== undefined && Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : null };
  }
}
