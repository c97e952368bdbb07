import 'reflect-metadata';
import * as classValidator from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { BotPath, PaginationQueryDto, QuicksearchQueryDto, RestConnectorPath, RestConnectorWriteDto } from '@app/domain';
import { createValidationPipe } from './performance-overrides';
import { cacheValidationMetadata } from './validation-metadata-cache';
import { ValidityCheck } from './validity-check';

// What the apps install at start-up (installPerformanceOverrides), before any check is built.
cacheValidationMetadata();

/** The pipe's options (createValidationPipe, with Nest's default forbidUnknownValues: false). */
const OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: false,
  stopAtFirstError: false,
  validationError: { target: false, value: false },
};

/** A small seeded generator: every run checks the same cases, and a failure names its seed. */
function random(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => (state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0) / 2 ** 32;
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)],
  };
}

const VALID_BODIES: Array<Record<string, unknown>> = [
  {
    name: 'Weather',
    requestType: 'GET',
    url: 'https://api.example.com/w?city={{city}}',
    contentType: 'APPLICATION_JSON',
    authType: 'AUTH_NONE',
    body: '',
    output: '$.data',
  },
  {
    name: ' Spaced ',
    description: 'd',
    requestType: 'POST',
    url: 'http://10.0.0.1:8080/x',
    headers: [
      { header: 'Accept', value: 'application/json' },
      { header: 'X-Id', value: '' },
    ],
    contentType: 'APPLICATION_JSON',
    authType: 'AUTH_BASIC',
    basicToken: 'dXNlcjpwYXNz',
    body: '{"a": 1}',
    output: '',
    tags: [{ name: 'one' }, { name: ' two ' }],
  },
  {
    name: 'B',
    requestType: 'DELETE',
    url: 'https://b.example.com',
    contentType: 'APPLICATION_JSON',
    authType: 'AUTH_BEARER',
    bearerToken: 't',
    body: '',
    output: '',
    tags: [],
  },
  {
    name: 'O',
    requestType: 'PUT',
    url: 'https://o.example.com/{{id}}',
    contentType: 'APPLICATION_JSON',
    authType: 'AUTH_OAUTH2',
    grantType: 'CLIENT_CREDENTIALS',
    clientId: 'c',
    clientSecret: 's',
    oauthUrl: 'https://id.example.com/token',
    body: '',
    output: '',
  },
  {
    name: 'P',
    requestType: 'PATCH',
    url: 'https://p.example.com',
    contentType: 'APPLICATION_JSON',
    authType: 'AUTH_OAUTH2',
    grantType: 'PASSWORD',
    clientId: 'c',
    oauthUrl: 'https://id.example.com/token',
    authUsername: 'u',
    authPassword: 'p',
    body: '',
    output: '',
    uuid: 'ignored',
    flows: [1],
    user: null,
  },
];

/** Values that break one rule or another, or none: strings of every edge, wrong types, nesting. */
const VALUES: unknown[] = [
  undefined,
  null,
  '',
  ' ',
  'x',
  'AUTH_NONE',
  'AUTH_OAUTH2',
  'PASSWORD',
  'CLIENT_CREDENTIALS',
  'GET',
  'APPLICATION_JSON',
  '<BASIC_TOKEN>',
  'https://ok.example.com',
  'ftp://x',
  'https://{{host}}/x',
  'not a url',
  'a'.repeat(51),
  'a'.repeat(101),
  'é'.repeat(40_000),
  0,
  1,
  -1,
  1.5,
  true,
  false,
  [],
  [1],
  ['a'],
  [null],
  [undefined],
  [{}],
  [[]],
  {},
  { header: 'A' },
  { header: 'A', value: 'v' },
  { header: 'Bad Header', value: 'v' },
  { name: 't' },
  { name: '' },
  { name: 'a'.repeat(51) },
  [{ header: 'A', value: 'v' }],
  [{ header: 'A', value: 'v', extra: 1 }],
  [{ header: 'A', value: 1 }],
  [{ name: 't' }],
  [{ name: 't' }, { name: ' ' }],
  [{ name: 't', other: 1 }],
  Array.from({ length: 21 }, (_, i) => ({ name: `t${i}` })),
  Array.from({ length: 51 }, () => ({ header: 'A', value: 'v' })),
  [[{ header: 'A', value: 'v' }]],
  [[{ name: 't' }]],
  [{ name: 't' }, []],
  'a\r\nb',
  'a\nb',
  [{ header: 'A', value: 'v\r\nX: 1' }],
  [{ name: 'a\nb' }],
  [{ header: 'X'.repeat(256), value: 'v' }],
  [{ header: 'X'.repeat(257), value: 'v' }],
];
const FIELDS = [
  'name',
  'description',
  'requestType',
  'url',
  'headers',
  'contentType',
  'authType',
  'grantType',
  'basicToken',
  'bearerToken',
  'clientId',
  'clientSecret',
  'oauthUrl',
  'authUsername',
  'authPassword',
  'body',
  'output',
  'tags',
  'uuid',
  'unknownField',
  'constructor',
];

function mutate(body: Record<string, unknown>, rng: ReturnType<typeof random>): Record<string, unknown> {
  const copy: Record<string, unknown> = structuredClone(body);
  for (let n = 1 + rng.int(3); n > 0; n--) {
    const field = rng.pick(FIELDS);
    if (rng.next() < 0.2) delete copy[field];
    else copy[field] = structuredClone(rng.pick(VALUES));
  }
  return copy;
}

async function classValidatorFindsNoError(object: object): Promise<boolean> {
  return (await classValidator.validate(object, OPTIONS)).length === 0;
}

// class-validator exports no constructor for a rule's metadata; its decorators use this one, from its CommonJS build.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a file of the package its types do not describe as a module
const { ValidationMetadata } = require('class-validator/cjs/metadata/ValidationMetadata') as typeof import('class-validator/types/metadata/ValidationMetadata');

describe('ValidityCheck', () => {
  it('refuses to be built on a storage without the metadata cache, which it needs to build a check once per class', () => {
    expect(() => new ValidityCheck(new classValidator.MetadataStorage())).toThrow(/cacheValidationMetadata/);
  });

  it('calls valid exactly what class-validator finds valid, over thousands of bodies near the rules', async () => {
    const check = new ValidityCheck();
    const rng = random(20261121);
    let valid = 0;
    for (let i = 0; i < 4_000; i++) {
      const plain = i < VALID_BODIES.length ? VALID_BODIES[i] : mutate(rng.pick(VALID_BODIES), rng);
      const dto = plainToInstance(RestConnectorWriteDto, structuredClone(plain));
      const expected = await classValidatorFindsNoError(dto);
      if (check.isValid(dto) !== expected) throw new Error(`disagrees with class-validator (${expected}) on ${JSON.stringify(plain)}`);
      if (expected) valid++;
    }
    // Both answers occur often: the cases sit on either side of the rules.
    expect(valid).toBeGreaterThan(400);
    expect(valid).toBeLessThan(3_600);
  });

  it('agrees on path ids and query strings too', async () => {
    const check = new ValidityCheck();
    const uuid = '0f0e0d0c-0b0a-4908-8706-050403020100';
    const cases: Array<[Function, Record<string, unknown>]> = [
      [BotPath, { orgUUID: uuid, envUUID: uuid, botUUID: uuid }],
      [BotPath, { orgUUID: uuid, envUUID: 'nope', botUUID: uuid }],
      [BotPath, { orgUUID: uuid, envUUID: uuid }],
      [RestConnectorPath, { orgUUID: uuid, envUUID: uuid, botUUID: uuid, serviceUUID: uuid.toUpperCase() }],
      [RestConnectorPath, { orgUUID: uuid, envUUID: uuid, botUUID: uuid, serviceUUID: uuid, extra: '1' }],
      [PaginationQueryDto, {}],
      [PaginationQueryDto, { page: '2', linesPerPage: '100', orderBy: 'name', direction: 'asc', searchTerms: ['a', 'b'] }],
      [PaginationQueryDto, { page: '0' }],
      [PaginationQueryDto, { linesPerPage: '101' }],
      [PaginationQueryDto, { searchTerms: Array.from({ length: 11 }, (_, i) => `t${i}`) }],
      [PaginationQueryDto, { searchTerms: ['a'.repeat(101)] }],
      [PaginationQueryDto, { orderBy: 'uuid' }],
      [PaginationQueryDto, { linesperpage: '5' }],
      [QuicksearchQueryDto, { searchTerm: 'we' }],
      [QuicksearchQueryDto, { searchTerm: 'a'.repeat(101) }],
      [QuicksearchQueryDto, { searchTerm: ['a', 'b'] }],
    ];
    for (const [target, plain] of cases) {
      const object = plainToInstance(target as new () => object, plain);
      expect(check.isValid(object)).toBe(await classValidatorFindsNoError(object));
    }
  });

  it("agrees on what the platform's DTOs do not use: a rule's own validateIf, each over sets and maps", async () => {
    class Rules {
      @classValidator.IsString()
      kind: unknown;

      @classValidator.MinLength(3, { validateIf: (o: Rules) => o.kind === 'long' })
      code: unknown;

      @classValidator.IsInt({ each: true })
      numbers: unknown;
    }
    const check = new ValidityCheck();
    const cases = [
      { kind: 'long', code: 'abc', numbers: new Set([1, 2]) },
      { kind: 'long', code: 'ab', numbers: [1] },
      { kind: 'short', code: 'ab', numbers: new Map([['a', 1]]) },
      { kind: 'short', code: 'ab', numbers: new Map([['a', 'x']]) },
      { kind: 'short', code: 'ab', numbers: new Set([1, 'x']) },
    ];
    const answers = [];
    for (const plain of cases) {
      const object = Object.assign(new Rules(), plain);
      const expected = await classValidatorFindsNoError(object);
      expect(check.isValid(object)).toBe(expected);
      answers.push(expected);
    }
    expect(answers).toEqual([true, false, true, false, false]);
  });

  it('never calls valid an object of a class without rules, a plain object or one without a prototype', () => {
    const check = new ValidityCheck();
    class Bare {}

    expect(check.isValid(new Bare())).toBe(false);
    expect(check.isValid({ name: 'x' })).toBe(false);
    expect(check.isValid(Object.assign(Object.create(null), { name: 'x' }))).toBe(false);
  });

  it('lets class-validator decide what it cannot model: a promise for a value', async () => {
    const check = new ValidityCheck();
    const dto = plainToInstance(RestConnectorWriteDto, structuredClone(VALID_BODIES[0]));
    (dto as unknown as Record<string, unknown>).description = Promise.resolve('d');

    expect(check.isValid(dto)).toBe(false);
  });

  it('lets class-validator decide a class with a kind of rule the check does not know', () => {
    class Future {
      @classValidator.IsString()
      a: unknown;
    }
    // A rule of a kind a later class-validator might add, registered as its decorators register theirs.
    classValidator
      .getMetadataStorage()
      .addValidationMetadata(new ValidationMetadata({ type: 'someFutureKind', target: Future, propertyName: 'a', constraints: [], validationOptions: {} }));

    expect(new ValidityCheck().isValid(Object.assign(new Future(), { a: 'x' }))).toBe(false);
  });

  it('sees a rule added to a class after its check was built', async () => {
    class Grows {
      @classValidator.IsString()
      a: unknown;
    }
    const check = new ValidityCheck();
    const object = Object.assign(new Grows(), { a: 'x', b: 'not a number' });
    expect(check.isValid(object)).toBe(false);
    delete (object as { b?: unknown }).b;
    expect(check.isValid(object)).toBe(true);

    classValidator.IsInt()(Grows.prototype, 'a');

    expect(check.isValid(object)).toBe(await classValidatorFindsNoError(object));
    expect(check.isValid(object)).toBe(false);
  });

  it('models only the options it checks: groups and the skip options go to class-validator alone', () => {
    expect(ValidityCheck.models(OPTIONS)).toBe(true);
    for (const other of [
      { groups: ['admin'] },
      { strictGroups: true },
      { always: true },
      { whitelist: false },
      { forbidNonWhitelisted: false },
      { skipMissingProperties: true },
    ]) {
      expect(ValidityCheck.models({ ...OPTIONS, ...other })).toBe(false);
    }
    expect(ValidityCheck.models(undefined)).toBe(false);
  });

  describe('in the pipe', () => {
    let validate: jest.SpyInstance;
    beforeEach(() => (validate = jest.spyOn(classValidator, 'validate')));
    afterEach(() => validate.mockRestore());

    it('is asked first: a valid body never reaches class-validator, an invalid one gets its messages', async () => {
      const pipe = createValidationPipe();
      const metadata = { type: 'body' as const, metatype: RestConnectorWriteDto, data: undefined };

      await expect(pipe.transform(structuredClone(VALID_BODIES[1]), metadata)).resolves.toBeInstanceOf(RestConnectorWriteDto);
      expect(validate).not.toHaveBeenCalled();

      await expect(pipe.transform({ ...VALID_BODIES[0], name: '' }, metadata)).rejects.toMatchObject({
        response: { message: ['name must not be empty'] },
      });
      expect(validate).toHaveBeenCalledTimes(1);
    });
  });
});
