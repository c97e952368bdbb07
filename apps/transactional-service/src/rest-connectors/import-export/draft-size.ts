import { IMPORT_LIMITS } from '@app/domain';
import { ConnectorDraft } from './connector-draft';

const KiB = 1024;
const MiB = 1024 * KiB;
/** How many of the largest connectors the problem names. */
const LARGEST_NAMED = 3;

/**
 * The bytes of the text a connector of the draft stores, every field (headers and credential values included), as the
 * answer and the version's snapshot write it: UTF-8 in JSON, so a control character counts the six bytes of its
 * `\u0001` (its one byte of UTF-8 let 2 MiB of text make a 12 MB answer).
 */
export function connectorBytes(connector: ConnectorDraft): number {
  const texts = [
    connector.name,
    connector.description ?? '',
    connector.url,
    connector.body,
    connector.output,
    connector.oauthUrl ?? '',
    connector.apiKeyName ?? '',
    ...connector.headers.flatMap(({ header, value }) => [header, value]),
    ...connector.credentials.map(({ value }) => value ?? ''),
  ];
  return texts.reduce((total, text) => total + Buffer.byteLength(JSON.stringify(text)) - 2, 0);
}

/**
 * Why the connectors of one draft are too large to import together (over IMPORT_LIMITS.connectorBytes), or undefined.
 * A source can name one large part many times (a 60 KiB example or fifty 8 KiB header values shared by 200 OpenAPI
 * operations, one `-d` for many URLs of a cURL command): each connector holds its own copy, in the answer and in the
 * database (the connector, its version and its change event), so 120 KiB of source made a 12 MB answer. The import
 * worker checks the draft before it leaves the worker; the problem says how much, which connectors weigh most, and
 * how many of the first ones fit.
 */
export function draftSizeProblem(connectors: ConnectorDraft[]): string | undefined {
  const sizes = connectors.map(connectorBytes);
  const total = sizes.reduce((sum, size) => sum + size, 0);
  const limit = IMPORT_LIMITS.connectorBytes;
  if (total <= limit) return oneTooLarge(connectors, sizes);
  let fit = 0;
  for (let used = 0; fit < sizes.length && used + sizes[fit] <= limit; fit++) used += sizes[fit];
  const largest = sizes
    .map((size, index) => ({ size, index }))
    .sort((a, b) => b.size - a.size || a.index - b.index)
    .slice(0, LARGEST_NAMED)
    .map(({ size, index }) => `connectors.${index} (${connectors[index].where}) ${shown(size)}`);
  return (
    `source as a whole: its ${connectors.length} connectors hold ${shown(total)} of text together (URLs, headers, bodies), over the ` +
    `${shown(limit)} one import may create (a part the source uses many times, such as a shared example, is copied into each): ` +
    `import fewer with select (the first ${fit} fit), or shorten what they share; the largest: ${largest.join(', ')}`
  );
}

/**
 * Why a connector of the draft holds more text than a create could write (IMPORT_LIMITS.oneConnectorBytes), or
 * undefined: its change event would otherwise exceed what a broker takes in one message (NATS's max_payload).
 */
function oneTooLarge(connectors: ConnectorDraft[], sizes: number[]): string | undefined {
  const limit = IMPORT_LIMITS.oneConnectorBytes;
  const over = sizes.flatMap((size, index) => (size > limit ? [`connectors.${index} (${connectors[index].where}) ${shown(size)}`] : []));
  if (over.length === 0) return undefined;
  return (
    `${over.slice(0, LARGEST_NAMED).join(', ')}${over.length > LARGEST_NAMED ? ` and ${over.length - LARGEST_NAMED} more` : ''}: ` +
    `a connector holds at most ${shown(limit)} of text (URLs, headers, bodies, counted as JSON writes them), what a create can write: ` +
    'shorten it, or leave it out with select'
  );
}

/** Rounded up, so that a size over a bound never reads as the bound. */
function shown(bytes: number): string {
  return bytes >= MiB ? `${(Math.ceil((bytes / MiB) * 10) / 10).toString()} MiB` : `${Math.ceil(bytes / KiB)} KiB`;
}
