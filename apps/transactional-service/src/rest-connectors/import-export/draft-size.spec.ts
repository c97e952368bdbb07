import { ContentType, IMPORT_LIMITS, RequestType } from '@app/domain';
import { ConnectorDraft } from './connector-draft';
import { draftSizeProblem } from './draft-size';
import { aDraft as aPlainDraft } from './postman/testing/collections';

/** Connector `index` of a source: a POST of `body`, its other texts short or empty. */
const aDraft = (body: string, index: number): ConnectorDraft =>
  aPlainDraft({
    name: `n${index}`,
    requestType: RequestType.POST,
    url: 'https://x.test',
    contentType: ContentType.TEXT_PLAIN,
    body,
    where: `line ${index + 1}`,
  });

describe(draftSizeProblem.name, () => {
  it('never says a draft over the bound holds as much as the bound: sizes are rounded up', () => {
    const half = 'b'.repeat(IMPORT_LIMITS.connectorBytes / 2);

    const problem = draftSizeProblem([aDraft(half, 0), aDraft(half, 1)]);

    expect(problem).toMatch(/^source as a whole: its 2 connectors hold 4\.1 MiB of text together \(URLs, headers, bodies\), over the 4 MiB one import/);
    expect(problem).toMatch(
      /the first 1 fit\), or shorten what they share; the largest: connectors\.0 \(line 1\) 2\.1 MiB, connectors\.1 \(line 2\) 2\.1 MiB$/,
    );
  });

  it('counts a text as the answer and the snapshots write it in JSON: a control character is the six bytes of its escape', () => {
    // 30 connectors of a 64 KiB body of U+0001 hold 1.9 MiB of UTF-8, and made an 11.8 MB answer.
    const body = '\u0001'.repeat(64 * 1024);

    const problem = draftSizeProblem(Array.from({ length: 30 }, (_, index) => aDraft(body, index)));

    expect(problem).toMatch(/^source as a whole: its 30 connectors hold 11\.3 MiB of text together .*the first 10 fit\)/);
  });

  it('refuses one connector that holds more text than a create can write, naming it, though the import as a whole fits', () => {
    const within = 'a'.repeat(IMPORT_LIMITS.oneConnectorBytes - 2_000);
    const escaped = '\u0001'.repeat(IMPORT_LIMITS.oneConnectorBytes / 6 + 1);

    expect(draftSizeProblem([aDraft(within, 0)])).toBeUndefined();
    expect(draftSizeProblem([aDraft(within, 0), aDraft(escaped, 1)])).toBe(
      'connectors.1 (line 2) 257 KiB: a connector holds at most 256 KiB of text (URLs, headers, bodies, counted as JSON writes them), ' +
        'what a create can write: shorten it, or leave it out with select',
    );
  });
});
