import { Difference } from './compare';
import { KNOWN_DIFFERENCES, KnownDifference, knownAs } from './known-differences';
import { Format, FormatComparison } from './peer-comparison';
import { NORMALIZATION_RULES } from './wire-request';

/** The share of compared operations whose connector may send something other than the peer's request, per format. */
export const TARGETS: Record<Format, number> = { openapi: 0.005, postman: 0.005, curl: 0.03 };

export interface FormatFigures {
  format: Format;
  compared: number;
  /** Operations with any difference. */
  differing: number;
  /** Operations with a difference that is neither decided nor owned by another point. */
  unexplained: number;
  /** Operations with a difference owned by another point of issue 41 (none unexplained). */
  owned: number;
  /** unexplained / compared. */
  rate: number;
  /** Each difference no known entry matches. */
  unexplainedDifferences: Array<{ document: string; where: string; difference: Difference }>;
  /** How many differences (and operations) each known entry matched. */
  byKnown: Map<string, { differences: number; operations: number }>;
}

export function figuresOf(comparison: FormatComparison): FormatFigures {
  const figures: FormatFigures = {
    format: comparison.format,
    compared: comparison.compared.length,
    differing: 0,
    unexplained: 0,
    owned: 0,
    rate: 0,
    unexplainedDifferences: [],
    byKnown: new Map(),
  };
  for (const operation of comparison.compared) {
    if (operation.differences.length) figures.differing += 1;
    const knowns = operation.differences.map((difference) => knownAs(difference, operation.document, comparison.format));
    operation.differences.forEach((difference, index) => {
      if (!knowns[index]) figures.unexplainedDifferences.push({ document: operation.document, where: operation.where, difference });
    });
    if (knowns.some((known) => known === undefined)) figures.unexplained += 1;
    else if (knowns.some((known) => known?.status === 'owned by another point')) figures.owned += 1;
    for (const known of new Set(knowns.filter((found): found is KnownDifference => found !== undefined))) {
      const seen = figures.byKnown.get(known.id) ?? { differences: 0, operations: 0 };
      seen.operations += 1;
      seen.differences += knowns.filter((found) => found === known).length;
      figures.byKnown.set(known.id, seen);
    }
  }
  figures.rate = figures.compared ? figures.unexplained / figures.compared : 0;
  return figures;
}

const percent = (share: number) => `${(share * 100).toFixed(2)}%`;
const cell = (text: string, length = 160) => (text.length > length ? `${text.slice(0, length)}…` : text).replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** docs/import-peers.md: the figures, the rules, every known difference and every unexplained one. */
export function reportOf(comparisons: FormatComparison[], versions: Record<string, string>): string {
  const figures = comparisons.map(figuresOf);
  const lines = [
    '# Imports compared with peer readers',
    '',
    'Written by `npm run compare:peers` (tools/import-peers); `tools/import-peers/import-peers.spec.ts` holds the same',
    'comparison to the targets. Each document of the corpus (test/fixtures/import/*, origins and licences in each',
    "folder's README) is imported by our importer and read by a maintained peer, and each operation's request is compared",
    'part by part: method, URL, headers, media type, body and auth. Nothing is sent anywhere: both sides are read from',
    'what each reader makes of the text.',
    '',
    `Peers: ${Object.entries(versions)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}.`,
    '',
    '## Figures',
    '',
    '| format | peer | documents | compared operations | differing in any part | owned by another point | unexplained | unexplained rate | target |',
    '|---|---|---|---|---|---|---|---|---|',
    ...figures.map((figure, index) => {
      const comparison = comparisons[index];
      return `| ${figure.format} | ${comparison.peer} | ${comparison.documents.length} | ${figure.compared} | ${figure.differing} (${percent(figure.compared ? figure.differing / figure.compared : 0)}) | ${figure.owned} | ${figure.unexplained} | ${percent(figure.rate)} | < ${percent(TARGETS[figure.format])} |`;
    }),
    '',
    '"Differing" counts every operation with any difference. "Owned by another point" counts operations whose only',
    'unresolved differences are ones another point of issue 41 removes (listed below with the point). "Unexplained" counts',
    'operations with a difference that is neither decided nor owned: it is the rate held to the target. An operation our',
    'importer leaves out while the peer reads it is compared, and differs ("not imported").',
    '',
    '## Normalization rules',
    '',
    ...NORMALIZATION_RULES.map((rule) => `- ${rule}`),
    "- openapi-to-postmanv2 runs with `parametersResolution: Example`, `enableOptionalParameters: false` (ours leaves optional query and header parameters out), `preferredRequestBodyType: first-listed`; it is given the document with each response's content cut to its media types (the requests and the Accept it derives are unchanged; making up response examples is most of its time). A body neither side has an example of (the document gives none) is compared by structure.",
    "- curlconverter (`toJsonObjectWarn`) reads the first command of a text: each of our drafts is compared with its reading of the text from the draft's line on. A command with several URLs is compared on its first.",
    '',
    '## Known differences',
    '',
    '| id | formats | status | operations (differences) | why | fixed by |',
    '|---|---|---|---|---|---|',
    ...KNOWN_DIFFERENCES.map((known) => {
      const counts = figures
        .map((figure) =>
          figure.byKnown.has(known.id)
            ? `${figure.format} ${figure.byKnown.get(known.id)!.operations} (${figure.byKnown.get(known.id)!.differences})`
            : undefined,
        )
        .filter(Boolean)
        .join(', ');
      return `| ${known.id} | ${known.formats.join(', ')} | ${known.status} | ${counts || '0'} | ${cell(known.reason, 600)} | ${known.owner ?? ''} |`;
    }),
    '',
    '## Unexplained differences',
    '',
    ...(figures.every((figure) => figure.unexplainedDifferences.length === 0)
      ? ['None.']
      : [
          '| format | document | operation | kind | ours | peer |',
          '|---|---|---|---|---|---|',
          ...figures.flatMap((figure) =>
            figure.unexplainedDifferences.map(
              ({ document, where, difference }) =>
                `| ${figure.format} | ${document} | ${cell(where, 80)} | ${cell(difference.kind, 80)} | ${cell(difference.ours)} | ${cell(difference.peer)} |`,
            ),
          ),
        ]),
    '',
    '## Documents read with their environment',
    '',
    ...(comparisons.some((comparison) => comparison.notes.length)
      ? comparisons.flatMap((comparison) => comparison.notes.map((note) => `- ${note}`))
      : ['None.']),
    '',
    '## Not compared',
    '',
    'Operations the peer does not read (or reads as another operation), with the reason.',
    '',
    '| format | document | where | reason |',
    '|---|---|---|---|',
    ...comparisons.flatMap((comparison) =>
      comparison.notCompared.map(({ document, where, reason }) => `| ${comparison.format} | ${document} | ${cell(where, 80)} | ${cell(reason, 200)} |`),
    ),
    '',
  ];
  return lines.join('\n');
}
