import { GrantType, SECRETS } from '@app/domain';
import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { callOnce, OutboundRequest, OutboundResult } from './outbound-call';
import { RunDeadline } from './run-deadline';
import { formEncoded } from './variables';

/** A connector's OAuth 2.0 settings, secrets in clear (decrypted for this run only). */
export interface OAuthSettings {
  oauthUrl: string;
  grantType: GrantType;
  clientId: string | null;
  clientSecret: string | null;
  username: string | null;
  password: string | null;
  /** Where the token is then sent (the call's scheme and authority): a kept token is not used elsewhere. */
  callDestination: string | null;
}

/** What stands for the client's HTTP Basic credentials (`clientId:clientSecret`, form-urlencoded) in an answer. */
export const CLIENT_CREDENTIALS_PLACEHOLDER = '<CLIENT_CREDENTIALS>';

/** A token, or the token request that failed and what came of it (its answer, when one came). */
export type TokenResult = { accessToken: string; kept: boolean } | { failed: OutboundResult; request: OutboundRequest };

/**
 * The longest access token taken (the length of a stored secret, LIMITS.secret): every answer of the run is
 * searched for the token in all its forms, so a token endpoint must not choose how long that search is.
 */
export const MAX_ACCESS_TOKEN_LENGTH = 8 * 1024;

/** A token endpoint's answer is read up to this size: it is parsed on the main thread. */
const MAX_TOKEN_ANSWER_BYTES = 64 * 1024;

/** A token is dropped this long before the endpoint said it expires. */
export const TOKEN_MARGIN_MS = 30_000;
/** At most this many connectors' tokens are kept; beyond, the one kept longest ago is forgotten. */
export const MAX_KEPT_TOKENS = 10_000;

interface Kept {
  settings: string;
  accessToken: string;
  until: number;
}

/**
 * The client's HTTP Basic credentials before Base64 (`id:secret`, each form-urlencoded: RFC 6749 appendix B); null
 * without a secret.
 */
export function clientCredentials(settings: OAuthSettings): string | null {
  return settings.clientSecret === null ? null : `${formEncoded(settings.clientId ?? '')}:${formEncoded(settings.clientSecret)}`;
}

/**
 * The token request of RFC 6749 (sections 4.3 and 4.4): a form POST, the client in HTTP Basic when it has a
 * secret. `shown`: as an answer shows it, the password and the client's credentials as their placeholders.
 */
export function tokenRequest(settings: OAuthSettings, shown = false): OutboundRequest {
  const form = new URLSearchParams({ grant_type: settings.grantType === GrantType.PASSWORD ? 'password' : 'client_credentials' });
  if (settings.grantType === GrantType.PASSWORD) {
    form.set('username', settings.username ?? '');
    form.set('password', shown ? SECRETS.authPassword.placeholder : (settings.password ?? ''));
  }
  const headers = [
    { header: 'Content-Type', value: 'application/x-www-form-urlencoded' },
    { header: 'Accept', value: 'application/json' },
  ];
  const credentials = clientCredentials(settings);
  if (credentials !== null) {
    headers.push({ header: 'Authorization', value: `Basic ${shown ? CLIENT_CREDENTIALS_PLACEHOLDER : Buffer.from(credentials, 'utf8').toString('base64')}` });
  } else if (settings.clientId !== null) form.set('client_id', settings.clientId);
  const body = form.toString();
  // The placeholder as written, not form-encoded (`%3CPASSWORD%3E`): it is there to be read.
  return {
    method: 'POST',
    url: settings.oauthUrl,
    headers,
    body: shown ? body.replace(formEncoded(SECRETS.authPassword.placeholder), SECRETS.authPassword.placeholder) : body,
  };
}

/**
 * Access tokens of connectors' OAuth 2.0 settings (RFC 6749, client credentials and password grants). The
 * client authenticates with HTTP Basic when it has a secret (section 2.3.1), else sends `client_id` in the form.
 * A token is kept per connector until `expires_in` minus 30 s (not kept without `expires_in`), for exactly the
 * settings that got it, the destination it is sent to included: any change of them asks anew. The request goes
 * through the given dispatcher, so the outbound guard checks the token endpoint too, and within the run's deadline.
 */
export class OAuthTokens {
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly dispatcher: Dispatcher,
    private readonly now: () => number = Date.now,
    private readonly maxKept = MAX_KEPT_TOKENS,
  ) {}

  /**
   * A token for the connector (`keepAs`: its uuid; undefined for an unsaved one, whose token is never kept);
   * `kept` when it is one kept from before (a 401 to it is worth one more try with a fresh one).
   */
  async tokenFor(settings: OAuthSettings, deadline: RunDeadline, keepAs?: string): Promise<TokenResult> {
    const fingerprint = createHash('sha256').update(JSON.stringify(settings)).digest('hex');
    const kept = keepAs === undefined ? undefined : this.kept.get(keepAs);
    if (kept && kept.settings === fingerprint && kept.until > this.now()) return { accessToken: kept.accessToken, kept: true };
    if (keepAs !== undefined) this.kept.delete(keepAs);
    const request = tokenRequest(settings);
    const sent = await callOnce(this.dispatcher, request, deadline, MAX_TOKEN_ANSWER_BYTES);
    const token = sent.answer && tokenIn(sent);
    if (!token || 'failed' in token) return { failed: token?.failed ?? sent, request };
    if (keepAs !== undefined && token.expiresInS !== null) {
      // A Map iterates in insertion order: its first key is the token kept longest ago.
      if (this.kept.size >= this.maxKept) this.kept.delete(this.kept.keys().next().value!);
      this.kept.set(keepAs, { settings: fingerprint, accessToken: token.accessToken, until: this.now() + token.expiresInS * 1000 - TOKEN_MARGIN_MS });
    }
    return { accessToken: token.accessToken, kept: false };
  }

  /** Forgets the connector's token: the far side answered 401 to it. */
  drop(keepAs: string): void {
    this.kept.delete(keepAs);
  }
}

/** The token of a token endpoint's answer, or AUTH_FAILED with its status and RFC 6749 section 5.2 error. */
function tokenIn(sent: OutboundResult): { accessToken: string; expiresInS: number | null } | { failed: OutboundResult } {
  const { status, bytes } = sent.answer!;
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(bytes.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
  } catch {
    // Not JSON: the failure below says what came back.
  }
  if (typeof body.access_token === 'string' && body.access_token.length > MAX_ACCESS_TOKEN_LENGTH) {
    // Its answer is not shown: it holds a token minted with the stored secret, which the run cannot scrub (it is
    // not among the run's secrets, and too long to be searched for).
    const message = `The token endpoint answered an access_token of ${body.access_token.length} characters: a test run takes at most ${MAX_ACCESS_TOKEN_LENGTH}`;
    return { failed: { ...sent, outcome: 'AUTH_FAILED', message, answer: null } };
  }
  if (status >= 200 && status <= 299 && typeof body.access_token === 'string' && body.access_token !== '') {
    const expiresIn = Number(body.expires_in);
    return { accessToken: body.access_token, expiresInS: body.expires_in !== undefined && Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : null };
  }
  const error = typeof body.error === 'string' ? body.error : status < 300 ? 'no access_token in the answer' : null;
  const description = typeof body.error_description === 'string' ? body.error_description : null;
  const said = error ? `: ${error}${description ? ` (${description})` : ''}` : '';
  return { failed: { ...sent, outcome: 'AUTH_FAILED', message: `The token endpoint answered ${status}${said}` } };
}
