import { ImportFormat, InvalidInputError } from '@app/domain';
import { ServiceUnavailableException } from '@nestjs/common';
import { ImportReader } from './import-reader';

/** The reader's worker threads, from the sources (ts-node in the worker): slow to start, so these tests wait long. */
describe(ImportReader.name, () => {
  // 1 MiB of shallow YAML flow collections: seconds of the yaml parser, which no structural limit stops.
  const line = `k: ${'['.repeat(150)}1${']'.repeat(150)}\n`;
  const slowSource = line.repeat(Math.floor((1024 * 1024) / line.length));
  let reader: ImportReader | undefined;
  afterEach(() => reader?.onApplicationShutdown());

  it("reads a source in its worker and answers the importer's draft, or its problems as a 400", async () => {
    reader = new ImportReader();
    const draft = await reader.read(ImportFormat.CURL, 'curl https://api.example.com/ping', undefined);
    expect(draft.connectors.map(({ url }) => url)).toEqual(['https://api.example.com/ping']);
    await expect(reader.read(ImportFormat.CURL, 'curl ^"https://api.example.com/x^"', undefined)).rejects.toBeInstanceOf(InvalidInputError);
  }, 60_000);

  it('stops a source that takes longer than its budget once its worker started on it, with a 400 that says so', async () => {
    reader = new ImportReader({ budgetMs: 200, queueMs: 60_000 });
    await expect(reader.read(ImportFormat.OPENAPI, slowSource, undefined)).rejects.toMatchObject({
      problems: ['source took longer than 0.2 s to read and was not imported: import a smaller source, or fewer parts of it (select)'],
    });
  }, 60_000);

  it('answers 503 to an import that waits too long for the worker another import holds', async () => {
    reader = new ImportReader({ budgetMs: 60_000, queueMs: 300 });
    // The worker's start (ts-node, from the sources) takes longer than the queue's 300 ms: tried until it is up.
    for (;;) {
      const warm = await reader.read(ImportFormat.CURL, 'curl https://api.example.com/warm', undefined).catch((error: unknown) => error);
      if (!(warm instanceof ServiceUnavailableException)) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const first = reader.read(ImportFormat.OPENAPI, slowSource, undefined).catch(() => undefined);
    await expect(reader.read(ImportFormat.CURL, 'curl https://api.example.com/second', undefined)).rejects.toBeInstanceOf(ServiceUnavailableException);
    await first;
  }, 60_000);
});
