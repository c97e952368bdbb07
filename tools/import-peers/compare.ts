import { sameText, shapeOf, SLOT, WireBody, WireRequest } from './wire-request';

/** One way our connector's request differs from the peer's: the part of the request, a stable kind, and what each side has. */
export interface Difference {
  part: 'method' | 'url' | 'headers' | 'mediaType' | 'body' | 'auth';
  /** Stable words naming the difference, without the operation's own values: `header only in peer: accept`. */
  kind: string;
  ours: string;
  peer: string;
}

const show = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'));

/** Every difference between what our connector sends and what the peer sends, part by part. */
export function differencesOf(ours: WireRequest, peer: WireRequest): Difference[] {
  const found: Difference[] = [];
  if (ours.method !== peer.method) found.push({ part: 'method', kind: 'method', ours: ours.method, peer: peer.method });
  found.push(...urlDifferences(ours, peer), ...headerDifferences(ours, peer));
  // A connector sends no body with GET or HEAD; Postman does when the request turns body pruning off: one difference.
  const getBody = (ours.method === 'GET' || ours.method === 'HEAD') && ours.body.kind === 'none' && peer.body.kind !== 'none';
  if (getBody) found.push({ part: 'body', kind: 'body with GET or HEAD only in peer', ours: '', peer: show(peer.body) });
  if (!getBody && !sameOptional(ours.mediaType, peer.mediaType))
    found.push({
      part: 'mediaType',
      kind: `${mediaTypeKind(ours.mediaType, peer.mediaType)}${ours.body.kind === 'none' && peer.body.kind === 'none' ? ', without a body' : ''}`,
      ours: show(ours.mediaType),
      peer: show(peer.mediaType),
    });
  const body = getBody ? undefined : bodyKind(ours.body, peer.body);
  if (body) found.push({ part: 'body', kind: body, ours: show(ours.body), peer: show(peer.body) });
  const auth = authKind(ours, peer);
  if (auth) found.push({ part: 'auth', kind: auth, ours: show(ours.auth), peer: show(peer.auth) });
  return found;
}

function sameOptional(left: string | null, right: string | null): boolean {
  return left === right || (left !== null && right !== null && sameText(left, right));
}

function urlDifferences(ours: WireRequest, peer: WireRequest): Difference[] {
  const found: Difference[] = [];
  if (!sameText(ours.url.origin, peer.url.origin)) found.push({ part: 'url', kind: 'url origin', ours: ours.url.origin, peer: peer.url.origin });
  if (!sameText(ours.url.path, peer.url.path)) found.push({ part: 'url', kind: 'url path', ours: ours.url.path, peer: peer.url.path });
  const names = (query: Array<[string, string]>) => query.map(([name]) => name);
  const oursNames = names(ours.url.query);
  const peerNames = names(peer.url.query);
  const missing = peerNames.filter((name) => !oursNames.includes(name));
  const extra = oursNames.filter((name) => !peerNames.includes(name));
  if (missing.length) found.push({ part: 'url', kind: 'query parameter only in peer', ours: show(ours.url.query), peer: show(peer.url.query) });
  if (extra.length) found.push({ part: 'url', kind: 'query parameter only in ours', ours: show(ours.url.query), peer: show(peer.url.query) });
  if (!missing.length && !extra.length) {
    const values =
      ours.url.query.length === peer.url.query.length &&
      ours.url.query.every(([name, value], index) => name === peer.url.query[index][0] && sameText(value, peer.url.query[index][1]));
    if (!values) found.push({ part: 'url', kind: 'query value or order', ours: show(ours.url.query), peer: show(peer.url.query) });
  }
  return found;
}

function headerDifferences(ours: WireRequest, peer: WireRequest): Difference[] {
  const found: Difference[] = [];
  const byName = (headers: Array<[string, string]>) => {
    const map = new Map<string, string[]>();
    for (const [name, value] of headers) map.set(name, [...(map.get(name) ?? []), value]);
    return map;
  };
  const oursByName = byName(ours.headers);
  const peerByName = byName(peer.headers);
  for (const [name, values] of peerByName) {
    const mine = oursByName.get(name);
    if (!mine) found.push({ part: 'headers', kind: `header only in peer: ${name}`, ours: '', peer: values.join(', ') });
    else if (mine.length !== values.length || !mine.every((value, index) => sameText(value, values[index])))
      found.push({ part: 'headers', kind: `header value: ${name}`, ours: mine.join(', '), peer: values.join(', ') });
  }
  for (const [name, values] of oursByName) {
    if (!peerByName.has(name)) found.push({ part: 'headers', kind: `header only in ours: ${name}`, ours: values.join(', '), peer: '' });
  }
  return found;
}

function mediaTypeKind(ours: string | null, peer: string | null): string {
  if (ours === null) return 'media type only in peer';
  if (peer === null) return 'media type only in ours';
  return 'media type differs';
}

function bodyKind(ours: WireBody, peer: WireBody): string | undefined {
  if (ours.kind === 'none' || peer.kind === 'none') {
    if (ours.kind === peer.kind) return undefined;
    return ours.kind === 'none' ? `body only in peer (${peer.kind})` : `body only in ours (${ours.kind})`;
  }
  if (ours.kind === 'json-shape' || peer.kind === 'json-shape') return sameShape(shapeIn(ours), shapeIn(peer)) ? undefined : 'body structure';
  if (ours.kind !== peer.kind) return `body read as ${ours.kind} (ours) and ${peer.kind} (peer)`;
  return sameBody(ours, peer) ? undefined : ours.kind === 'json' ? 'body value' : ours.kind === 'text' ? 'body text' : `${ours.kind} fields`;
}

function shapeIn(body: WireBody): unknown {
  return body.kind === 'json-shape' ? body.shape : body.kind === 'json' ? shapeOf(body.value) : body;
}

/** Two bodies of the same kind alike: JSON values, fields in order, texts; a slot matching anything. */
function sameBody(ours: WireBody, peer: WireBody): boolean {
  if (ours.kind === 'json' && peer.kind === 'json') return sameJson(ours.value, peer.value);
  if (ours.kind === 'text' && peer.kind === 'text') return sameText(ours.text, peer.text);
  if ((ours.kind === 'form' || ours.kind === 'multipart') && (peer.kind === 'form' || peer.kind === 'multipart')) {
    return (
      ours.fields.length === peer.fields.length &&
      ours.fields.every(([name, value], index) => name === peer.fields[index][0] && sameText(value, peer.fields[index][1]))
    );
  }
  return true;
}

/**
 * Two structures alike: the same keys, each alike; an object of made-up keys (openapi-to-postmanv2's `key_0`… for a
 * schema's additionalProperties) alike with any object, an empty one (ours for the same) with anything but a list.
 */
function sameShape(left: unknown, right: unknown): boolean {
  const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
  const freeForm = (value: Record<string, unknown>) => Object.keys(value).every((key) => /^key_\d+$/.test(key));
  if (Array.isArray(left) && Array.isArray(right)) return left.length === 0 || right.length === 0 || sameShape(left[0], right[0]);
  // An object the schema gives no properties (ours `{}`) is whatever the caller puts there: the peer's `null` too.
  if (
    (isObject(left) && Object.keys(left).length === 0 && !Array.isArray(right)) ||
    (isObject(right) && Object.keys(right).length === 0 && !Array.isArray(left))
  )
    return true;
  if (isObject(left) && isObject(right)) {
    if (freeForm(left) || freeForm(right)) return true;
    const keys = [...new Set([...Object.keys(left), ...Object.keys(right)])];
    return keys.every((key) => key in left && key in right && sameShape(left[key], right[key]));
  }
  return JSON.stringify(left) === JSON.stringify(right);
}

/** JSON values equal, a slot string on either side matching any value (the caller fills it). */
export function sameJson(left: unknown, right: unknown): boolean {
  if (left === SLOT || right === SLOT) return true;
  if (typeof left === 'string' && typeof right === 'string') return sameText(left, right);
  if (Array.isArray(left) || Array.isArray(right)) {
    return Array.isArray(left) && Array.isArray(right) && left.length === right.length && left.every((item, index) => sameJson(item, right[index]));
  }
  if (typeof left === 'object' && left !== null && typeof right === 'object' && right !== null) {
    const leftKeys = Object.keys(left).sort();
    const rightKeys = Object.keys(right).sort();
    return (
      JSON.stringify(leftKeys) === JSON.stringify(rightKeys) &&
      leftKeys.every((key) => sameJson((left as Record<string, unknown>)[key], (right as Record<string, unknown>)[key]))
    );
  }
  return left === right;
}

function authKind(ours: WireRequest, peer: WireRequest): string | undefined {
  const [a, b] = [ours.auth, peer.auth];
  if (a.type !== b.type) return `auth ${a.type} (ours) and ${b.type} (peer)`;
  const fields = Object.keys(a).filter((key) => key !== 'type') as Array<keyof typeof a>;
  const differing = fields.filter((key) => !sameText(String(a[key]), String((b as typeof a)[key])));
  return differing.length ? `auth ${a.type} ${differing.join(' and ')}` : undefined;
}
