import { AuthType, InvalidInputError, StoredVariableRow, VariableChange } from '@app/domain';
import { aStoredConnector } from '../rest-connectors/testing/connector-factories';
import { NextVariable, PlanInput, planVariableSet, VariableSeal, withMovedSecretsCleared } from './variable-set-plan';

const NOW = new Date('2026-12-01T10:00:00.000Z');
const BEFORE = new Date('2026-11-01T10:00:00.000Z');

/** A seal that says what it sealed, and that knows the plaintext only of what it sealed (as the cipher does). */
const seal: VariableSeal = {
  seal: (name, plaintext) => `sealed:${name}:${plaintext}`,
  sameAsStored: (name, sealed, plaintext) => sealed === `sealed:${name}:${plaintext}`,
};

const stored = (row: Partial<StoredVariableRow> & Pick<StoredVariableRow, 'name'>): StoredVariableRow => ({
  uuid: `uuid-${row.name}`,
  secret: false,
  value: null,
  sealedValue: null,
  destinations: [],
  updatedAt: BEFORE,
  updatedBy: 'bob',
  ...row,
});

let uuids = 0;
const plan = (input: Partial<PlanInput> & { next: NextVariable[] }) =>
  planVariableSet({
    stored: [],
    connectors: [],
    seal,
    compare: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    now: NOW,
    updatedBy: 'alice',
    newUuid: () => `new-${++uuids}`,
    confirmed: false,
    ...input,
  });

const problemsOf = (run: () => unknown): string[] => {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidInputError) return error.problems;
    throw error;
  }
  return [];
};

describe('planVariableSet', () => {
  it('seals a new secret, keeps an unchanged variable as it was stored, stamps what changed, and lists the changes by name', () => {
    const result = plan({
      stored: [stored({ name: 'HOST', value: 'a.example.com' }), stored({ name: 'OLD', value: 'x' })],
      next: [
        { name: 'KEY', value: 'k1', secret: true, destinations: ['https://API.example.com:443/'] },
        { name: 'HOST', value: 'a.example.com' },
      ],
    });
    expect(result.rows).toEqual([
      stored({ name: 'HOST', value: 'a.example.com' }),
      {
        uuid: expect.stringMatching(/^new-/),
        name: 'KEY',
        secret: true,
        value: null,
        sealedValue: 'sealed:KEY:k1',
        destinations: ['https://api.example.com'],
        updatedAt: NOW,
        updatedBy: 'alice',
      },
    ]);
    expect(result.changes).toEqual([
      { name: 'KEY', secret: true, change: VariableChange.ADDED },
      { name: 'OLD', secret: false, change: VariableChange.REMOVED },
    ]);
    expect(result.snapshot).toEqual([
      { name: 'HOST', secret: false, value: 'a.example.com', destinations: [] },
      { name: 'KEY', secret: true, value: '<SECRET>', destinations: ['https://api.example.com'] },
    ]);
  });

  it('keeps a stored secret for <SECRET> and for the same plaintext, and binds a new secret without destinations to the connectors that use it', () => {
    const key = stored({ name: 'KEY', secret: true, sealedValue: 'sealed:KEY:k1', destinations: ['https://api.example.com'] });
    expect(plan({ stored: [key], next: [{ name: 'KEY', value: '<SECRET>', secret: true }] }).changes).toEqual([]);
    expect(plan({ stored: [key], next: [{ name: 'KEY', value: 'k1', secret: true }] }).changes).toEqual([]);
    expect(plan({ stored: [key], next: [{ name: 'KEY', value: 'k2', secret: true }] }).rows[0].sealedValue).toBe('sealed:KEY:k2');

    const user = aStoredConnector({ url: '{{env.BASE}}/users', headers: [{ header: 'X-Key', value: '{{env.TOKEN}}' }] });
    const bound = plan({
      connectors: [user],
      next: [
        { name: 'BASE', value: 'https://users.example.com/v1' },
        { name: 'TOKEN', value: 't1', secret: true },
      ],
    });
    expect(bound.rows.find((row) => row.name === 'TOKEN')!.destinations).toEqual(['https://users.example.com']);
  });

  it('lists every rule a body breaks, each saying how to fix it', () => {
    const key = stored({ name: 'KEY', secret: true, sealedValue: 'sealed:KEY:k1', destinations: ['https://a.example.com'] });
    expect(
      problemsOf(() =>
        plan({
          stored: [key, stored({ name: 'PLAIN_SECRET', secret: true, sealedValue: 'sealed:x' })],
          next: [
            { name: 'A', value: '1' },
            { name: 'A', value: '2' },
            { name: 'B', value: '1', destinations: ['https://b.example.com'] },
            { name: 'C', value: 'c', secret: true, destinations: ['https://c.example.com/path', 'http://user@c.example.com'] },
            { name: 'D', value: 'd', secret: true },
            { name: 'E', value: '<SECRET>', secret: true, destinations: ['https://e.example.com'] },
            { name: 'KEY', value: '<SECRET>', secret: true, destinations: ['https://a.example.com', 'https://b.example.com'] },
            { name: 'PLAIN_SECRET', value: '<SECRET>' },
          ],
        }),
      ),
    ).toEqual([
      'variables: A is given more than once; each name once',
      'variables[B].destinations: only a secret variable has destinations; send secret: true, or leave destinations out',
      expect.stringMatching(/^variables\[C\]\.destinations: "https:\/\/c.example.com\/path" must be an http or https origin/),
      expect.stringMatching(/^variables\[C\]\.destinations: "http:\/\/user@c.example.com" must be an http or https origin/),
      expect.stringMatching(/^variables\[D\]\.destinations: no connector of this environment sends \{\{env.D\}\}/),
      'variables[E].value: <SECRET> keeps a stored secret value, and E has none: send its value',
      'variables[KEY]: its value is bound to https://a.example.com; to send it to https://b.example.com too, send its value again with the new destinations',
      expect.stringMatching(/^variables\[PLAIN_SECRET\]\.value: <SECRET> stands for a secret's stored value/),
    ]);
  });

  it("finds the stored connector secrets a new value moves (trashed connectors too) and the secret variables sent elsewhere; confirmed, clears those variables' values", () => {
    const base = stored({ name: 'BASE', value: 'https://a.example.com/v1' });
    const key = stored({ name: 'KEY', secret: true, sealedValue: 'sealed:KEY:k1', destinations: ['https://a.example.com'] });
    const bearer = aStoredConnector({ url: '{{env.BASE}}/x', authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:bearer' });
    const trashed = aStoredConnector({ uuid: 'trashed', url: '{{env.BASE}}/y', authType: AuthType.AUTH_BEARER, bearerToken: 'sealed:b2', deletedAt: BEFORE });
    const usesKey = aStoredConnector({ uuid: 'uses-key', url: '{{env.BASE}}/k', body: '{"key":"{{env.KEY}}"}' });
    const next: NextVariable[] = [
      { name: 'BASE', value: 'https://b.example.com/v1' },
      { name: 'KEY', value: '<SECRET>', secret: true },
    ];
    const samePlace = plan({ stored: [base, key], connectors: [bearer, trashed, usesKey], next: [{ ...next[0], value: 'https://a.example.com/v2' }, next[1]] });
    expect([samePlace.movedConnectors, samePlace.movedVariables]).toEqual([[], []]);

    const moved = plan({ stored: [base, key], connectors: [bearer, trashed, usesKey], next });
    expect(moved.movedConnectors.map(({ connector, secrets }) => [connector.uuid, secrets.map((s) => [s.secret, s.from, s.destination])])).toEqual([
      [bearer.uuid, [['bearerToken', 'https://a.example.com', 'https://b.example.com']]],
      ['trashed', [['bearerToken', 'https://a.example.com', 'https://b.example.com']]],
    ]);
    expect(moved.movedVariables).toEqual([{ name: 'KEY', destinations: ['https://a.example.com'], to: ['https://b.example.com'] }]);
    expect(moved.rows.find((row) => row.name === 'KEY')!.sealedValue).toBe('sealed:KEY:k1');

    const confirmed = plan({ stored: [base, key], connectors: [bearer, trashed, usesKey], next, confirmed: true });
    expect(confirmed.rows.find((row) => row.name === 'KEY')).toMatchObject({ sealedValue: null, updatedAt: NOW });
    expect(confirmed.changes).toEqual([
      { name: 'BASE', secret: false, change: VariableChange.CHANGED },
      { name: 'KEY', secret: true, change: VariableChange.CHANGED },
    ]);
  });

  it('clears the moved secret fields and drops the moved secret headers of a connector', () => {
    const connector = aStoredConnector({
      authType: AuthType.AUTH_BEARER,
      bearerToken: 'sealed:bearer',
      headers: [
        { header: 'X-Api-Key', value: 'sealed:key', secret: true },
        { header: 'Accept', value: 'application/json' },
      ],
    });
    const moved = [
      { secret: 'bearerToken', url: 'url' as const, destination: 'https://b.example.com', from: 'https://a.example.com' },
      { secret: 'headers.X-Api-Key', url: 'url' as const, destination: 'https://b.example.com', from: 'https://a.example.com' },
    ];
    expect(withMovedSecretsCleared(connector, moved)).toEqual({
      fields: { bearerToken: null },
      headers: [{ header: 'Accept', value: 'application/json' }],
      changedFields: ['bearerToken', 'headers'],
    });
  });
});
