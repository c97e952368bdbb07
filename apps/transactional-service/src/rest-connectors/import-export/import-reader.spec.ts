import { IMPORT_LIMITS, ImportFormat, InvalidInputError } from '@app/domain';
import { TooManyRequestsException } from '@app/platform';
import { ServiceUnavailableException } from '@nestjs/common';
import { IMPORT_BUDGET_MS, IMPORT_QUEUE_MS, ImportReader, MAX_HELD_SOURCE_BYTES } from './import-reader';

/** The reader's worker thread, from the sources (workers/worker-script.ts): it loads the domain library, seconds on a busy machine, so these tests wait long. */
describe(ImportReader.name, () => {
  // 1 MiB of shallow YAML flow collections: seconds of the yaml parser, which no structural limit stops.
  const line = `k: ${'['.repeat(150)}1${']'.repeat(150)}\n`;
  const slowSource = line.repeat(Math.floor((1024 * 1024) / line.length));
  let reader: ImportReader | undefined;
  afterEach(() => reader?.onApplicationShutdown());

  /** Reads a quick source until the worker is up: its start may outlast a short queue. */
  async function warmUp(sut: ImportReader): Promise<void> {
    for (;;) {
      const warm = await sut.read('warm-up', ImportFormat.CURL, 'curl https://api.example.com/warm', undefined).catch((error: unknown) => error);
      if (!(warm instanceof ServiceUnavailableException)) return;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  it("reads a source in its worker and answers the importer's draft, or its problems as a 400", async () => {
    reader = new ImportReader();
    const draft = await reader.read('ana', ImportFormat.CURL, 'curl https://api.example.com/ping', undefined);
    expect(draft.connectors.map(({ url }) => url)).toEqual(['https://api.example.com/ping']);
    await expect(reader.read('ana', ImportFormat.CURL, 'curl ^"https://api.example.com/x^"', undefined)).rejects.toBeInstanceOf(InvalidInputError);
  }, 60_000);

  it('stops a source that takes longer than its budget once its worker started on it, with a 400 that says so', async () => {
    reader = new ImportReader({ budgetMs: 200, queueMs: 60_000 });
    await expect(reader.read('ana', ImportFormat.OPENAPI, slowSource, undefined)).rejects.toMatchObject({
      problems: ['source took longer than 0.2 s to read and was not imported: import a smaller source, or fewer parts of it (select)'],
    });
  }, 60_000);

  it('stops the reading of a caller that left, frees the worker at once, and refuses the import (nobody reads its answer)', async () => {
    reader = new ImportReader({ budgetMs: 60_000, queueMs: 60_000 });
    await warmUp(reader);
    const gone = new AbortController();
    const slow = reader.read('ana', ImportFormat.OPENAPI, slowSource, undefined, { callerGone: gone.signal }).catch((error: unknown) => error);
    const next = reader.read('bob', ImportFormat.CURL, 'curl https://api.example.com/next', undefined);
    await new Promise((resolve) => setTimeout(resolve, 200));

    gone.abort();

    expect(await slow).toBeInstanceOf(ServiceUnavailableException);
    // Read by the worker the slow source held: within the test's time only if that source was stopped (its budget is a minute).
    await expect(next).resolves.toMatchObject({ connectors: [expect.anything()] });
  }, 30_000);

  it('answers 503 to an import that waits too long for the worker another caller holds', async () => {
    reader = new ImportReader({ budgetMs: 60_000, queueMs: 300 });
    await warmUp(reader);
    const first = reader.read('ana', ImportFormat.OPENAPI, slowSource, undefined).catch(() => undefined);
    await expect(reader.read('bob', ImportFormat.CURL, 'curl https://api.example.com/second', undefined)).rejects.toBeInstanceOf(ServiceUnavailableException);
    await first;
  }, 60_000);

  it('answers the same 503 at once to an import of a ninth caller waiting for the worker', async () => {
    reader = new ImportReader({ budgetMs: 2_000, queueMs: 60_000 });
    const sut = reader;
    await warmUp(sut);
    const ping = (caller: string) => sut.read(caller, ImportFormat.CURL, 'curl https://api.example.com/ping', undefined).catch((error: unknown) => error);
    const slow = sut.read('ana', ImportFormat.OPENAPI, slowSource, undefined).catch((error: unknown) => error);
    const waiting = Array.from({ length: 8 }, (_, index) => ping(`caller-${index}`));

    const refused = await ping('one-too-many');

    expect(refused).toBeInstanceOf(ServiceUnavailableException);
    expect((refused as ServiceUnavailableException).message).toBe('This replica is busy reading other imports; retry in a few seconds');
    await expect(slow).resolves.toBeInstanceOf(InvalidInputError);
    for (const draft of await Promise.all(waiting)) expect(draft).toMatchObject({ connectors: [expect.anything()] });
  }, 60_000);

  it('answers 503 at once to an import whose source would take the heap past what the sources held here may take', async () => {
    reader = new ImportReader({ budgetMs: 60_000, queueMs: 60_000 });
    const sut = reader;
    // Two sources of the largest size, each counted at two bytes a character: all the held sources may take.
    const largest = `{${' '.repeat(IMPORT_LIMITS.sourceBytes - 1)}`;
    expect(2 * 2 * largest.length).toBe(MAX_HELD_SOURCE_BYTES);
    const ping = () => sut.read('carol', ImportFormat.CURL, 'curl https://api.example.com/ping', undefined).catch((error: unknown) => error);
    const held = ['ana', 'bob'].map((caller) => sut.read(caller, ImportFormat.OPENAPI, largest, undefined).catch((error: unknown) => error));

    const refused = await ping();

    expect(refused).toBeInstanceOf(ServiceUnavailableException);
    expect((refused as ServiceUnavailableException).message).toBe('This replica is busy reading other imports; retry in a few seconds');
    // Not JSON: each a 400 once read; their bytes are then free again.
    for (const answer of await Promise.all(held)) expect(answer).toBeInstanceOf(InvalidInputError);
    await expect(ping()).resolves.toMatchObject({ connectors: [expect.anything()] });
  }, 60_000);

  it('reads 8 MiB of dense YAML within the worker heap (the `yaml` package alone took 280 MB of it)', async () => {
    reader = new ImportReader({ budgetMs: 100_000, queueMs: 100_000 });
    // 1,000 operations of 100 small properties each: every line a node.
    const lines = ['openapi: 3.1.0', 'info: {title: Dense, version: "1"}', 'servers: [{url: "https://api.example.com"}]', 'paths:'];
    for (let operation = 0; operation < 1000; operation++) {
      lines.push(`  /items/${operation}:`, '    post:', `      operationId: item${operation}`, '      responses: {"200": {description: ok}}');
      lines.push('      requestBody:', '        content:', '          application/json:', '            schema:', '              properties:');
      for (let field = 0; field < 100; field++)
        lines.push(`                field${field}:`, `                  description: Field ${field} of /items/${operation}`);
    }
    const source = lines.join('\n');
    expect(Buffer.byteLength(source)).toBeGreaterThan(7 * 1024 * 1024);
    expect(Buffer.byteLength(source)).toBeLessThanOrEqual(IMPORT_LIMITS.sourceBytes);

    const draft = await reader.read('ana', ImportFormat.OPENAPI, source, undefined);

    expect(draft.connectors).toHaveLength(1000);
  }, 200_000);

  it('lets an import wait for the whole budget of the one ahead of it, so that one other caller never makes it fail', () => {
    expect(IMPORT_QUEUE_MS).toBeGreaterThan(IMPORT_BUDGET_MS);
  });

  it("holds a caller's place until its answer has left: another import meanwhile is a 429; an answer unsent after its time is cut", async () => {
    reader = new ImportReader({ budgetMs: 60_000, queueMs: 60_000, sendMs: 300 });
    let sent!: () => void;
    const unread = { closed: new Promise<void>((resolve) => (sent = resolve)), cut: jest.fn(() => sent()) };
    const ping = (answer?: typeof unread) => reader!.read('ana', ImportFormat.CURL, 'curl https://api.example.com/ping', undefined, { answer });

    await ping(unread);
    // A draft up to 2 MiB of JSON in an answer its caller does not read: a loop of them ran the app out of its heap.
    await expect(ping()).rejects.toBeInstanceOf(TooManyRequestsException);
    await unread.closed;

    expect(unread.cut).toHaveBeenCalledTimes(1);
    await expect(ping()).resolves.toMatchObject({ connectors: [expect.anything()] });
  }, 60_000);

  it("serves callers in turn: a caller's loop holds one place in the queue, its other imports meanwhile are 429s", async () => {
    reader = new ImportReader({ budgetMs: 60_000, queueMs: 60_000 });
    const sut = reader;
    await warmUp(sut);
    // Some work for the yaml parser, then a 400 (it is no OpenAPI document): an answer like any other. The order below
    // does not depend on how long a read takes: a 429 is answered before the worker is asked, the queue is FIFO.
    const source = line.repeat(Math.floor((32 * 1024) / line.length));
    const answered: string[] = [];
    const read = (caller: string) =>
      sut.read(caller, ImportFormat.OPENAPI, source, undefined).then(
        () => answered.push(caller),
        (error: unknown) => answered.push(error instanceof TooManyRequestsException ? `${caller} 429 after ${error.retryAfterSeconds} s` : caller),
      );

    // Ana sends three at once, and one more as soon as her first has answered; Bob sends one after her three.
    const ana = [read('ana').then(() => read('ana')), read('ana'), read('ana')];
    const bob = read('bob');
    await Promise.all([...ana, bob]);

    // Without the per-caller limit all of Ana's would be queued before Bob's: ana, ana, ana, bob, ana.
    expect(answered).toEqual(['ana 429 after 5 s', 'ana 429 after 5 s', 'ana', 'bob', 'ana']);
  }, 120_000);
});
