import { ApiKeyIn, AuthType, ContentType, declaredTypeFits, fillPlaceholders, MEDIA_TYPES } from '@app/domain';
import { ConnectorDraft, CredentialDraft } from '../../apps/transactional-service/src/rest-connectors/import-export/connector-draft';
import { shapeOf, SLOT, WireAuth, wireBody, WireBody, wireHeaders, wireMediaType, WireRequest, wireUrl } from './wire-request';

/** A connector's text as a test run fills it, each placeholder a slot (an escaped one is its literal text). */
function filled(text: string): string {
  return fillPlaceholders(text, () => SLOT);
}

/**
 * What a connector made of `draft` sends, by the test-run rules (test-run.ts `prepare`): no body for GET, HEAD or
 * contentType NONE; the connector's own Content-Type when it fits its contentType, else the contentType's; the auth
 * settings' header or query parameter in place of a header or parameter of the same name.
 * `generatedBody`: the importer made the body up from a schema (compared by its structure).
 */
export function draftWire(draft: ConnectorDraft, generatedBody = false): WireRequest {
  const sendsBody = draft.contentType !== ContentType.NONE && draft.requestType !== 'GET' && draft.requestType !== 'HEAD';
  const own = draft.headers.find(({ header }) => /^content-type$/i.test(header));
  // Without a body, the connector's own Content-Type header (if it has one) is sent as written.
  const mediaType = !sendsBody
    ? (own?.value ?? null)
    : own !== undefined && declaredTypeFits(draft.contentType, own.value)
      ? own.value
      : MEDIA_TYPES[draft.contentType as Exclude<ContentType, ContentType.NONE>];
  const apiKey = draft.authType === AuthType.AUTH_API_KEY ? (draft.apiKeyName ?? undefined) : undefined;
  const inQuery = draft.apiKeyIn === ApiKeyIn.QUERY;
  return {
    method: draft.requestType,
    url: wireUrl(filled(draft.url), inQuery ? apiKey : undefined),
    headers: wireHeaders(
      draft.headers.map(({ header, value }) => ({ name: header, value: filled(value) })),
      inQuery ? undefined : apiKey,
    ),
    mediaType: wireMediaType(mediaType),
    body: sendsBody ? bodyOf(draft, wireMediaType(mediaType), generatedBody) : { kind: 'none' },
    auth: authOf(draft),
  };
}

function bodyOf(draft: ConnectorDraft, mediaType: string | null, generated: boolean): WireBody {
  if (draft.contentType === ContentType.MULTIPART_FORM_DATA) return { kind: 'multipart', fields: multipartFields(filled(draft.body)) };
  const body = wireBody(filled(draft.body), mediaType);
  return generated && body.kind === 'json' ? { kind: 'json-shape', shape: shapeOf(body.value) } : body;
}

/** A credential as sent: its value, else a slot (a variable, or one the request's `credentials` gives). */
function credential(draft: ConnectorDraft, field: CredentialDraft['field']): string {
  return draft.credentials.find((found) => found.field === field)?.value ?? SLOT;
}

function authOf(draft: ConnectorDraft): WireAuth {
  switch (draft.authType) {
    case AuthType.AUTH_NONE:
      return { type: 'none' };
    case AuthType.AUTH_BASIC:
      return basicOf(draft);
    case AuthType.AUTH_BEARER:
      return { type: 'bearer', token: credential(draft, 'bearerToken') };
    case AuthType.AUTH_API_KEY:
      return {
        type: 'apikey',
        in: draft.apiKeyIn === ApiKeyIn.QUERY ? 'query' : 'header',
        name: draft.apiKeyIn === ApiKeyIn.QUERY ? (draft.apiKeyName ?? '') : (draft.apiKeyName ?? '').toLowerCase(),
        value: credential(draft, 'apiKey'),
      };
    case AuthType.AUTH_OAUTH2:
      return { type: 'oauth2', grant: String(draft.grantType ?? ''), tokenUrl: filled(draft.oauthUrl ?? '') };
    default:
      return { type: 'other', name: String(draft.authType) };
  }
}

/** Basic as user and password: from a basicToken (Base64 of `user:password`) or from authUsername and authPassword. */
function basicOf(draft: ConnectorDraft): WireAuth {
  const fields = draft.credentials.map(({ field }) => field as string);
  if (fields.includes('basicToken')) {
    const token = credential(draft, 'basicToken');
    if (token === SLOT) return { type: 'basic', user: SLOT, password: SLOT };
    const pair = Buffer.from(token, 'base64').toString('utf8');
    const colon = pair.indexOf(':');
    return { type: 'basic', user: pair.slice(0, colon), password: pair.slice(colon + 1) };
  }
  return { type: 'basic', user: credential(draft, 'authUsername'), password: credential(draft, 'authPassword') };
}

/** The parts of a multipart body: a JSON list of `{name, value}` parts, or (as stored before parts existed) form pairs. */
function multipartFields(body: string): Array<[string, string]> {
  try {
    const parts = JSON.parse(body) as unknown;
    if (Array.isArray(parts)) return parts.map((part: { name?: unknown; value?: unknown }) => [String(part?.name), String(part?.value ?? '')]);
  } catch {
    // Not JSON: the form pairs below.
  }
  const form = wireBody(body, 'application/x-www-form-urlencoded');
  return form.kind === 'form' ? form.fields : [];
}
