/**
 * FROZEN: never change this file. It is what ConnectorReadCopies1796600000000 used when it was written: the read copy
 * of a connector's tags and flows as libs/domain/src/rest-connectors/connector-read-copy.ts makes it (the tags in the
 * writer's order, their name keys joined by a line break, the flows by lower-cased name by code point, then uuid). A
 * migration carries its own copy so that the copies it writes never follow a later change of the live rule; change
 * the live code, never this.
 */

export interface StoredTag {
  name: string;
  nameKey: string;
  position: number;
}
export interface LinkedFlow {
  uuid: string;
  name: string;
}

/** tags_json and tag_keys of a connector's tags. */
export function tagCopy(tags: readonly StoredTag[]): { tagsJson: string; tagKeys: string } {
  const placed = [...tags].sort((a, b) => a.position - b.position);
  return { tagsJson: JSON.stringify(placed.map(({ name }) => ({ name }))), tagKeys: placed.map(({ nameKey }) => nameKey).join('\n') };
}

/** flows_json of the flows of a connector's bot that link to it. */
export function flowCopy(flows: readonly LinkedFlow[]): string {
  const keyed = flows.map((flow) => ({ flow, key: flow.name.toLowerCase() }));
  keyed.sort((a, b) => codePointOrder(a.key, b.key) || codePointOrder(a.flow.uuid, b.flow.uuid));
  return JSON.stringify(keyed.map(({ flow }) => ({ uuid: flow.uuid, name: flow.name })));
}

/** By code point, a prefix first. */
function codePointOrder(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  for (let i = 0; i < shorter; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return rank(x) - rank(y);
  }
  return a.length - b.length;
}

/** A UTF-16 code unit ranked so that comparing ranks compares code points (surrogates above U+E000-U+FFFF). */
function rank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit >= 0xe000 ? unit - 0x800 : unit + 0x2000;
}
