/**
 * What a query scoped by a path (organization → environment → bot, joined into the statement so a hot read is
 * one round trip) answered. It means the same for every query:
 * - `found(value)`: what the statement read at that path (an empty list too, where the statement knows that the
 *   path holds);
 * - `NOTHING_AT_PATH`: the statement read nothing at that path, and a missing link of the path looks to it like
 *   a missing thing or an empty list. ScopeService.inPath tells which, with one more query, only then.
 */
export type Lookup<T> = Found<T> | NothingAtPath;

export interface Found<T> {
  readonly found: true;
  readonly value: T;
}

export interface NothingAtPath {
  readonly found: false;
}

export const found = <T>(value: T): Found<T> => ({ found: true, value });

export const NOTHING_AT_PATH: NothingAtPath = Object.freeze({ found: false });

/** The ids of a path, as far as it goes. */
export interface ScopeIds {
  orgUUID: string;
  envUUID?: string;
  botUUID?: string;
}
