import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { offline } from './offline';
import { compareAll } from './peer-comparison';
import { peerVersions } from './peer-versions';
import { figuresOf, reportOf, TARGETS } from './peer-report';

/** `npm run compare:peers`: compares every corpus document with its peer reader and writes docs/import-peers.md. */
async function main(): Promise<void> {
  const online = offline();
  const comparisons = await compareAll();
  const attempts = online();
  if (attempts.length) throw new Error(`the comparison tried ${attempts.join(', ')}`);
  const path = join(__dirname, '../../docs/import-peers.md');
  writeFileSync(path, reportOf(comparisons, peerVersions()));
  for (const figures of comparisons.map(figuresOf)) {
    const over = figures.rate >= TARGETS[figures.format] ? ' (over the target)' : '';
    console.log(
      `${figures.format}: ${figures.compared} compared, ${figures.differing} differing, ${figures.unexplained} unexplained (${(figures.rate * 100).toFixed(2)}%)${over}`,
    );
  }
  console.log(`wrote ${path}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
