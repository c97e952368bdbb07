/**
 * What every query scoped by a path (organization → environment → bot, joined into the query so a hot read is
 * one round trip) answers when it found nothing in that scope. The query cannot tell whether a link of the
 * path is missing or only the thing it looked for: ScopeService.resolve asks which, and only then.
 */
export const NOT_IN_SCOPE: unique symbol = Symbol('not in scope');
export type NotInScope = typeof NOT_IN_SCOPE;

/** A scoped query's answer. */
export type Scoped<T> = T | NotInScope;

/** The ids of a path, as far as it goes. */
export interface ScopeIds {
  orgUUID: string;
  envUUID?: string;
  botUUID?: string;
}
