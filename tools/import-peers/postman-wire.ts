import { Item, PropertyList, RequestAuth, Url } from 'postman-collection';
import { shapeOf, SLOT, slotted, WireAuth, WireBody, wireBody, wireHeaders, wireMediaType, WireRequest, wireUrl } from './wire-request';

/** Methods whose body Postman leaves out unless the request sets `protocolProfileBehavior.disableBodyPruning` (postman-runtime). */
const PRUNED_BODY_METHODS = new Set(['GET', 'HEAD', 'COPY', 'PURGE', 'UNLOCK']);

/** The Content-Type Postman sets for a raw body of each language when the request has none. */
const RAW_LANGUAGES: Record<string, string> = {
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  javascript: 'application/javascript',
  text: 'text/plain',
};

export interface PostmanWireOptions {
  /** Collection variables whose values are the request's (openapi-to-postmanv2's `baseUrl`): filled in before comparing. */
  values?: ReadonlyMap<string, string>;
  /** openapi-to-postmanv2's `<string>`, `<long>`…, values made up from a schema: slots. */
  schemaPlaceholders?: boolean;
}

type Text = (value: unknown) => string;

/** What Postman sends for a request item, read by postman-collection: its URL, enabled headers, body by mode, resolved auth. */
export function postmanWire(item: Item, options: PostmanWireOptions = {}): WireRequest {
  const request = item.request;
  const text: Text = (value) =>
    placeholders(fillValues(value === undefined || value === null ? '' : String(value), options.values), options.schemaPlaceholders);
  const method = (request.method ?? 'GET').toUpperCase();
  const headers = request.headers
    .all()
    .filter((header) => !header.disabled)
    .map((header) => ({ name: header.key ?? '', value: text(header.value) }));
  const auth = authOf(item.getAuth(), text) ?? authFromHeader(headers.find(({ name }) => /^authorization$/i.test(name))?.value);
  const pruned = PRUNED_BODY_METHODS.has(method) && !item.protocolProfileBehavior?.disableBodyPruning;
  const declared = headers.find(({ name }) => /^content-type$/i.test(name))?.value;
  const body = pruned ? NO_BODY : bodyOf(request.body as PostmanBody | undefined, text, options.schemaPlaceholders === true, declared);
  const apiKey = auth.type === 'apikey' ? auth : undefined;
  return {
    method,
    url: wireUrl(urlOf(request.url, text), apiKey?.in === 'query' ? apiKey.name : undefined),
    headers: wireHeaders(headers, apiKey?.in === 'header' ? apiKey.name : undefined),
    mediaType: wireMediaType(body.body.kind === 'none' ? declared : (declared ?? body.mediaType)),
    body: body.body,
    auth,
  };
}

/** The URL as written, its path variables (`:name`) slots, its disabled query parameters left out. */
function urlOf(url: Url, text: Text): string {
  const query = url.query
    .all()
    .filter((parameter) => !parameter.disabled)
    .map((parameter) => (parameter.value === null || parameter.value === undefined ? text(parameter.key) : `${text(parameter.key)}=${text(parameter.value)}`));
  const path = (url.path ?? []).map((segment) => (segment.startsWith(':') ? SLOT : text(segment))).join('/');
  const host = text(url.getHost());
  const origin = /^[a-z][a-z0-9+.-]*:\/\//i.test(host) || host.startsWith(SLOT) ? host : `${url.protocol ?? 'http'}://${host}${url.port ? `:${url.port}` : ''}`;
  return `${origin}${path ? `/${path}` : ''}${query.length ? `?${query.join('&')}` : ''}`;
}

function fillValues(text: string, values: ReadonlyMap<string, string> | undefined): string {
  if (!values) return text;
  // A value may name another variable (openapi-to-postmanv2's baseUrl holds the server's variables): a few rounds.
  let filled = text;
  for (let round = 0; round < 3; round += 1) filled = filled.replace(/\{\{([^{}]*)\}\}/g, (whole, name: string) => values.get(name) ?? whole);
  return filled;
}

function placeholders(text: string, schema: boolean | undefined): string {
  const withSlots = slotted(text);
  return schema ? withSlots.replace(/<[a-z][\w-]*>/gi, SLOT) : withSlots;
}

interface PostmanBody {
  mode?: string;
  raw?: string;
  urlencoded?: PropertyList<{ key: string; value: string; disabled?: boolean }>;
  formdata?: PropertyList<{ key: string; value: string; src?: unknown; type?: string; disabled?: boolean }>;
  graphql?: { query?: string; variables?: string };
  options?: { raw?: { language?: string } };
}

/** A body and the Content-Type its mode implies (the request's own Content-Type header, when it has one, is sent instead). */
interface ModeBody {
  mediaType: string | null;
  body: WireBody;
}

const NO_BODY: ModeBody = { mediaType: null, body: { kind: 'none' } };

function fieldsBody(fields: Array<[string, string]>, kind: 'form' | 'multipart', mediaType: string): ModeBody {
  return fields.length ? { mediaType, body: { kind, fields } } : NO_BODY;
}

const BODY_MODES: Record<string, (body: PostmanBody, text: Text, schema: boolean, declared: string | undefined) => ModeBody> = {
  urlencoded: (body, text) =>
    fieldsBody(
      (body.urlencoded?.all() ?? []).filter((field) => !field.disabled).map((field): [string, string] => [text(field.key), text(field.value)]),
      'form',
      'application/x-www-form-urlencoded',
    ),
  formdata: (body, text) =>
    fieldsBody(
      (body.formdata?.all() ?? [])
        .filter((field) => !field.disabled)
        .map((field): [string, string] => [
          text(field.key),
          field.type === 'file' ? `@${text(Array.isArray(field.src) ? field.src.join(',') : field.src)}` : text(field.value),
        ]),
      'multipart',
      'multipart/form-data',
    ),
  graphql: (body, text) => ({
    mediaType: 'application/json',
    body: { kind: 'json', value: { query: text(body.graphql?.query), variables: parsedOr(text(body.graphql?.variables)) } },
  }),
  raw: (body, text, schema, declared) => {
    const content = text(body.raw);
    if (content === '') return NO_BODY;
    const mediaType = RAW_LANGUAGES[body.options?.raw?.language ?? 'text'] ?? 'text/plain';
    const read = wireBody(content, wireMediaType(declared ?? mediaType));
    // openapi-to-postmanv2 fills a body it makes up from a schema with `"<string>"`, `"<long>"`…: only its structure is the document's.
    if (schema && read.kind === 'json' && /"<[a-z][\w-]*>"/i.test(body.raw ?? ''))
      return { mediaType, body: { kind: 'json-shape', shape: shapeOf(read.value) } };
    return { mediaType, body: read };
  },
};

function bodyOf(body: PostmanBody | undefined, text: Text, schema: boolean, declared: string | undefined): ModeBody {
  if (!body?.mode) return NO_BODY;
  const read = BODY_MODES[body.mode];
  // A file body (Postman's `file` mode) names a file on the sender's disk (its media type is the file's): its mode stands for it.
  return read ? read(body, text, schema, declared) : { mediaType: null, body: { kind: 'text', text: `@(${body.mode} body)` } };
}

function parsedOr(text: string): unknown {
  try {
    return text.trim() === '' ? {} : (JSON.parse(text) as unknown);
  } catch {
    return text;
  }
}

function authOf(auth: RequestAuth | undefined, text: (value: unknown) => string): WireAuth | undefined {
  if (!auth || auth.type === 'noauth') return undefined;
  const parameters = auth.parameters();
  const get = (name: string) => text(parameters?.get(name));
  switch (auth.type) {
    case 'basic':
      return { type: 'basic', user: get('username'), password: get('password') };
    case 'bearer':
      return { type: 'bearer', token: get('token') };
    case 'apikey': {
      const where = get('in') === 'query' ? 'query' : 'header';
      const name = get('key');
      return { type: 'apikey', in: where, name: where === 'header' ? name.toLowerCase() : name, value: get('value') };
    }
    case 'oauth2':
      return { type: 'oauth2', grant: oauthGrant(get('grant_type')), tokenUrl: get('accessTokenUrl') };
    default:
      return { type: 'other', name: auth.type };
  }
}

/** Postman's grant names as the connector's GrantType values. */
function oauthGrant(grant: string): string {
  return { client_credentials: 'CLIENT_CREDENTIALS', password_credentials: 'PASSWORD', password: 'PASSWORD' }[grant] ?? (grant || 'AUTHORIZATION_CODE');
}

/** An Authorization header as auth: Basic (decoded), Bearer, else another scheme. */
export function authFromHeader(value: string | undefined): WireAuth {
  if (value === undefined) return { type: 'none' };
  const [, scheme, credentials] = /^\s*(\S+)\s*(.*)$/.exec(value) ?? [];
  if (/^basic$/i.test(scheme ?? '')) {
    const pair = credentials === SLOT ? `${SLOT}:${SLOT}` : Buffer.from(credentials, 'base64').toString('utf8');
    const colon = pair.indexOf(':');
    return { type: 'basic', user: pair.slice(0, colon), password: pair.slice(colon + 1) };
  }
  if (/^bearer$/i.test(scheme ?? '')) return { type: 'bearer', token: credentials.trim() };
  return { type: 'other', name: `Authorization ${scheme}` };
}
