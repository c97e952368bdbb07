/**
 * `npx ts-node --transpile-only -r tsconfig-paths/register bench/statement-binding.ts`: what binding a repository
 * statement costs per call (docs/decisions.md, "Data access"). The get's statement (findActiveWithRelations: a
 * UNION ALL of three parts, eight parameters) is bound from the path three ways: the positional array the repository
 * built by hand before issue 29, Statement.bind (compiled once, bound by name), and named-placeholders' compile per
 * call (mysql2's `namedPlaceholders` path: a cached parse, then the values). Each result goes through the same
 * engine conversion. Prints nanoseconds per call, the median of 15 rounds of 200,000 calls.
 */
import { bindable, Database, RestConnectorRepository, Statement } from '@app/domain';
import createCompiler from 'named-placeholders';

const ROUNDS = 15;
const CALLS = 200_000;

/** A Database that keeps the Statement it is sent instead of running it. */
class CapturingDatabase extends Database {
  sent: Statement<unknown, unknown> | undefined;

  constructor() {
    super(false);
  }

  override async rows<R>(sql: string | Statement<unknown, unknown>): Promise<R[]> {
    if (typeof sql !== 'string') this.sent = sql;
    return [];
  }

  protected read(): Promise<never> {
    throw new Error('rows keeps its statement');
  }

  protected execute(): Promise<never> {
    throw new Error('the bench only reads');
  }

  protected attempt(): Promise<never> {
    throw new Error('the bench only reads');
  }
}

/** The Statement findActiveWithRelations sends. */
async function getStatement(): Promise<Statement<unknown, unknown>> {
  const db = new CapturingDatabase();
  await new RestConnectorRepository(db).findActiveWithRelations({ orgUUID: 'o', envUUID: 'e', botUUID: 'b', serviceUUID: 's' });
  return db.sent!;
}

function nsPerCall(name: string, call: (i: number) => unknown[]): void {
  let sink = 0;
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < CALLS; i++) sink += call(i).length;
    rounds.push(Number(process.hrtime.bigint() - start) / CALLS);
  }
  rounds.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(44)} ${rounds[ROUNDS >> 1].toFixed(1).padStart(6)} ns/call (rounds ${rounds[0].toFixed(1)}-${rounds[ROUNDS - 1].toFixed(1)}; ${sink > 0 ? 'ok' : ''})`,
  );
}

async function main(): Promise<void> {
  const statement = await getStatement();
  const paths = Array.from({ length: 64 }, (_, i) => ({ orgUUID: `o${i}`, envUUID: `e${i}`, botUUID: `b${i}`, serviceUUID: `s${i}` }));
  const botInScope = (path: (typeof paths)[number]) => [path.botUUID, path.envUUID, path.orgUUID];
  const toUnnamed = createCompiler();
  for (let repeat = 0; repeat < 2; repeat++) {
    nsPerCall('positional array (before issue 29)', (i) => {
      const path = paths[i & 63];
      return bindable([path.serviceUUID, path.botUUID, ...botInScope(path), path.serviceUUID, path.serviceUUID, path.botUUID], false);
    });
    nsPerCall('Statement.bind (compiled once)', (i) => statement.bind(paths[i & 63], false));
    nsPerCall('named-placeholders compile per call', (i) => bindable(toUnnamed(statement.source, paths[i & 63])[1], false));
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
