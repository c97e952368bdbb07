/**
 * The oldest NATS server the change events are published to (docs/operations.md, "On NATS JetStream"; docs/decisions.md).
 * The publisher needs JetStream's API error codes (2.3.0: "stream not found" and "name already in use"); a consumer
 * that reads the stream with the consumer API of the current clients needs 2.9.4 (@nats-io/jetstream refuses older servers), and
 * one that filters on several subjects (`filter_subjects`) 2.10.0.
 */
export const MIN_NATS_SERVER_VERSION = '2.9.4';

interface Version {
  numbers: [number, number, number];
  prerelease: boolean;
}

/** `2.10.0`, `v2.11.0-RC.1`, `2.9.10+build`: the three numbers, and whether it is a pre-release (semver). */
function parseVersion(text: string): Version | undefined {
  const match = /^v?(\d{1,9})\.(\d{1,9})\.(\d{1,9})(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(text.trim());
  if (!match) return undefined;
  return { numbers: [Number(match[1]), Number(match[2]), Number(match[3])], prerelease: match[4] !== undefined };
}

/**
 * Why a server of version `found` (its INFO's `version`) cannot be used, or undefined when it can: older than
 * `minimum`, or no version one can read. A pre-release counts as older than its release (2.10.0-RC.1 < 2.10.0).
 */
export function serverVersionProblem(found: string | undefined, minimum: string): string | undefined {
  const required = parseVersion(minimum);
  if (!required || required.prerelease)
    throw new RangeError(`connector events: the minimum NATS server version must be a release such as 2.9.4, got ${minimum}`);
  const version = found === undefined ? undefined : parseVersion(found);
  if (!version) return `the NATS server gave no version this service can read (${JSON.stringify(found ?? null)}); it needs ${minimum} or later`;
  const order = version.numbers.map((n, i) => n - required.numbers[i]).find((difference) => difference !== 0) ?? 0;
  if (order < 0 || (order === 0 && version.prerelease)) return `the NATS server is version ${found}; this service needs ${minimum} or later`;
  return undefined;
}
