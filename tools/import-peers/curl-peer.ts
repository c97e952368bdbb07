import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { authFromHeader } from './postman-wire';
import { slotted, WireAuth, WireBody, wireBody, wireHeaders, wireMediaType, WireRequest, wireUrl } from './wire-request';

/** curlconverter's JSON reading of a command (`toJsonObjectWarn`): the fields compared. */
export interface CurlconverterRequest {
  method: string;
  raw_url: string;
  headers?: Record<string, string>;
  data?: unknown;
  files?: Record<string, string>;
  auth?: { user: string; password: string };
}

export type CurlconverterReading = { json: CurlconverterRequest } | { error: string };

/**
 * curlconverter's reading of each command, in a child process: it is an ES module, and this project (and jest) is
 * CommonJS. curlconverter reads the first command of a text: each command is given alone.
 */
export function curlconverterReadings(commands: string[]): CurlconverterReading[] {
  const script = [
    "import { toJsonObjectWarn } from 'curlconverter';",
    "let input = ''; for await (const chunk of process.stdin) input += chunk;",
    'const readings = JSON.parse(input).map((command) => { try { return { json: toJsonObjectWarn(command)[0] }; } catch (error) { return { error: String(error?.message ?? error) }; } });',
    'process.stdout.write(JSON.stringify(readings));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    input: JSON.stringify(commands),
    cwd: join(__dirname, '../..'),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out) as CurlconverterReading[];
}

/** A shell variable (`$TOKEN`, `${TOKEN}`) is a slot, as our importer's credential variables are. */
function shellSlots(text: string): string {
  return slotted(text).replace(/\$\{?[A-Za-z_][A-Za-z0-9_]*\}?/g, '{{}}');
}

type ApiKeyPlace = { in: 'header' | 'query'; name: string };

/** What curl sends for curlconverter's reading: its URL, headers, the Content-Type curl adds for -d (urlencoded) or -F (multipart). */
export function curlWire(request: CurlconverterRequest, apiKey?: ApiKeyPlace): WireRequest {
  const headers = Object.entries(request.headers ?? {}).map(([name, value]) => ({ name, value: shellSlots(value ?? '') }));
  const url = shellSlots(request.raw_url);
  const auth = authOf(request, headers, url, apiKey);
  const keyIn = auth.type === 'apikey' ? auth : undefined;
  const mediaType = mediaTypeOf(request, headers.find(({ name }) => /^content-type$/i.test(name))?.value);
  return {
    method: request.method.toUpperCase(),
    url: wireUrl(url, keyIn?.in === 'query' ? keyIn.name : undefined),
    headers: wireHeaders(headers, keyIn?.in === 'header' ? keyIn.name : undefined),
    mediaType,
    body: bodyOf(request, mediaType),
    auth,
  };
}

/** The Content-Type sent: the command's own, else the one curl adds for -F (multipart) or -d (urlencoded); none without a body. */
function mediaTypeOf(request: CurlconverterRequest, declared: string | undefined): string | null {
  if (request.data === undefined && request.files === undefined) return null;
  // curlconverter gives -F fields as a parsed `data` (and `files`) with no Content-Type; -d's comes with its header.
  const multipart = request.files !== undefined || (declared === undefined && typeof request.data === 'object' && request.data !== null);
  return wireMediaType(declared ?? (multipart ? 'multipart/form-data' : 'application/x-www-form-urlencoded'));
}

/** `-u`, an Authorization header, or the header or query parameter our importer took as the API key (the same bytes on the wire). */
function authOf(request: CurlconverterRequest, headers: Array<{ name: string; value: string }>, url: string, apiKey: ApiKeyPlace | undefined): WireAuth {
  if (request.auth) return { type: 'basic', user: shellSlots(request.auth.user), password: shellSlots(request.auth.password) };
  const auth = authFromHeader(headers.find(({ name }) => /^authorization$/i.test(name))?.value);
  if (auth.type !== 'none' || !apiKey) return auth;
  if (apiKey.in === 'header') {
    const header = headers.find(({ name }) => name.toLowerCase() === apiKey.name.toLowerCase());
    return header ? { type: 'apikey', in: 'header', name: apiKey.name.toLowerCase(), value: header.value } : auth;
  }
  const query = wireUrl(url).query.find(([name]) => name === apiKey.name);
  return query ? { type: 'apikey', in: 'query', name: apiKey.name, value: query[1] } : auth;
}

function bodyOf(request: CurlconverterRequest, mediaType: string | null): WireBody {
  if (request.files !== undefined || (request.data !== undefined && mediaType?.startsWith('multipart/'))) {
    const fields = [
      ...Object.entries(typeof request.data === 'object' && request.data !== null ? (request.data as Record<string, unknown>) : {}),
      ...Object.entries(request.files ?? {}).map(([name, file]) => [name, `@${file}`] as const),
    ].flatMap(([name, value]) =>
      Array.isArray(value) ? value.map((item) => [name, String(item)] as [string, string]) : [[name, shellSlots(String(value))] as [string, string]],
    );
    return { kind: 'multipart', fields };
  }
  if (request.data === undefined) return { kind: 'none' };
  if (typeof request.data === 'string') return wireBody(shellSlots(request.data), mediaType);
  // curlconverter gives a JSON or form body parsed.
  if (mediaType?.includes('json')) return { kind: 'json', value: request.data };
  const fields = Object.entries(request.data as Record<string, unknown>).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((item): [string, string] => [name, shellSlots(String(item))]),
  );
  return { kind: 'form', fields };
}
