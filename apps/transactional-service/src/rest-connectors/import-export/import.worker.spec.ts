import { IMPORT_LIMITS, ImportFormat } from '@app/domain';
import { ImportTaskResult, readSource } from './import.worker';

/** The worker's function itself, on this thread: what a worker answers for a source. */
function read(format: ImportFormat, source: string, select?: string[]): Promise<ImportTaskResult> {
  return readSource({ format, source, select });
}

/** An OpenAPI document of `operations` operations that all use one request body, whose example is `exampleBytes` long. */
function sharedExampleDocument(operations: number, exampleBytes: number): string {
  const operation = { requestBody: { $ref: '#/components/requestBodies/Note' }, responses: { default: { description: 'ok' } } };
  return JSON.stringify({
    openapi: '3.1.0',
    info: { title: 'Notes', version: '1' },
    servers: [{ url: 'https://api.example.com' }],
    paths: Object.fromEntries(Array.from({ length: operations }, (_, index) => [`/notes/${index}`, { post: { ...operation, operationId: `note${index}` } }])),
    components: { requestBodies: { Note: { content: { 'text/plain': { example: 'n'.repeat(exampleBytes) } } } } },
  });
}

describe('the import worker', () => {
  it('refuses a small document that one shared example makes over 4 MiB of connectors, saying how to fix it', async () => {
    const source = sharedExampleDocument(400, 12 * 1024);
    expect(source.length).toBeLessThan(128 * 1024);

    const answer = await read(ImportFormat.OPENAPI, source);

    expect(answer).toEqual({
      problems: [
        'source as a whole: its 400 connectors hold 4.8 MiB of text together (URLs, headers, bodies), over the 4 MiB one import may create ' +
          '(a part the source uses many times, such as a shared example, is copied into each): import fewer with select (the first 340 fit), ' +
          'or shorten what they share; the largest: connectors.100 (operation POST /notes/100) 13 KiB, connectors.101 (operation POST /notes/101) 13 KiB, ' +
          'connectors.102 (operation POST /notes/102) 13 KiB',
      ],
    });
  });

  it('imports as many of them as fit, chosen with select', async () => {
    const source = sharedExampleDocument(400, 12 * 1024);

    const answer = await read(
      ImportFormat.OPENAPI,
      source,
      Array.from({ length: 340 }, (_, index) => `note${index}`),
    );

    expect('draft' in answer && answer.draft.connectors).toHaveLength(340);
  });

  it('counts a cURL body sent to many URLs once per URL', async () => {
    const urls = Array.from({ length: 400 }, (_, index) => `https://api.example.com/${index}`).join(' ');
    const answer = await read(ImportFormat.CURL, `curl --data-raw '${'d'.repeat(12 * 1024)}' ${urls}`);

    expect(answer).toEqual({ problems: [expect.stringMatching(/^source as a whole: its 400 connectors hold 4\.8 MiB of text together/)] });
  });

  it('counts every text a connector stores: headers and credentials too', async () => {
    const value = 'h'.repeat(8 * 1024);
    const headers = Array.from({ length: 10 }, (_, index) => `-H 'X-${index}: ${value}'`).join(' ');
    const urls = Array.from({ length: 60 }, (_, index) => `https://api.example.com/${index}`).join(' ');

    const answer = await read(ImportFormat.CURL, `curl ${headers} -H 'Authorization: Bearer ${value}' ${urls}`);

    // 60 × 11 values of 8 KiB: 5.2 MiB.
    expect(60 * 11 * value.length).toBeGreaterThan(IMPORT_LIMITS.connectorBytes);
    expect(answer).toEqual({ problems: [expect.stringMatching(/^source as a whole: its 60 connectors hold 5\.2 MiB/)] });
  });
});
