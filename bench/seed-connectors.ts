import { PlatformDataSource } from '@app/domain';
import { randomUUID } from 'node:crypto';

export interface SeededData {
  organization: string;
  environment: string;
  bots: string[];
  connectorsOf(bot: string): string[];
}

/**
 * Fills a migrated database with one organization, one environment, `bots` bots and `connectors`
 * connectors spread evenly over them, each with two tags, every tenth used by a flow, every fifth
 * with imported content. Multi-row
 * INSERTs in batches: a million connectors load in minutes, not hours.
 */
export async function seedConnectors(
  dataSource: PlatformDataSource,
  { connectors, bots: botCount }: { connectors: number; bots: number },
): Promise<SeededData> {
  const organization = randomUUID();
  const environment = randomUUID();
  const bots: string[] = Array.from({ length: botCount }, () => randomUUID());
  const byBot = new Map<string, string[]>(bots.map((bot) => [bot, []]));
  await dataSource.query('INSERT INTO organizations (uuid, name) VALUES (?, ?)', [organization, 'Bench organization']);
  await dataSource.query(
    "INSERT INTO environments (uuid, organization_uuid, name, removed, applications, permissions) VALUES (?, ?, 'Bench', 0, '[]', '[]')",
    [environment, organization],
  );
  for (const bot of bots) {
    await dataSource.query('INSERT INTO bots (uuid, environment_uuid, name) VALUES (?, ?, ?)', [bot, environment, `Bot ${bot.slice(0, 8)}`]);
  }
  const flowOf = new Map(bots.map((bot) => [bot, randomUUID()]));
  for (const [bot, flow] of flowOf) {
    await dataSource.query('INSERT INTO flows (uuid, bot_uuid, name) VALUES (?, ?, ?)', [flow, bot, 'Main flow']);
  }

  const batch = 1000;
  const start = Date.now() - connectors * 1000;
  for (let first = 0; first < connectors; first += batch) {
    const rows: unknown[][] = [];
    const tags: unknown[][] = [];
    const uses: unknown[][] = [];
    const content: unknown[][] = [];
    for (let i = first; i < Math.min(first + batch, connectors); i++) {
      const bot = bots[i % botCount];
      const uuid = randomUUID();
      byBot.get(bot)!.push(uuid);
      const name = `Connector ${i}`;
      const at = new Date(start + i * 1000);
      rows.push([uuid, bot, name, name.toLowerCase(), name.toLowerCase(), 'GET', `https://api.example.com/items/${i}`, '[]', 'NONE', 'AUTH_NONE', '', '$.data', at, 'bench', at, `user-${i % 50}`, 1]);
      tags.push([uuid, `tag-${'abcdefghij'[i % 10]}`, `tag-${'abcdefghij'[i % 10]}`, 0], [uuid, `group-${i % 100}`, `group-${i % 100}`, 1]);
      if (i % 10 === 0) uses.push([flowOf.get(bot), uuid]);
      if (i % 5 === 0) content.push([uuid, JSON.stringify([{ id: `opt-${i}`, option: 'Yes', urlRedirect: false }])]);
    }
    await dataSource.query(
      'INSERT INTO rest_connectors (uuid, bot_uuid, name, name_key, active_name_key, request_type, url, headers, content_type, auth_type, body, output, created_at, created_by, updated_at, updated_by, version) VALUES ' +
        rows.map(() => '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', '),
      rows.flat(),
    );
    await dataSource.query(
      'INSERT INTO rest_connector_tags (connector_uuid, name, name_key, position) VALUES ' + tags.map(() => '(?, ?, ?, ?)').join(', '),
      tags.flat(),
    );
    if (uses.length > 0) {
      await dataSource.query('INSERT INTO flow_connectors (flow_uuid, connector_uuid) VALUES ' + uses.map(() => '(?, ?)').join(', '), uses.flat());
    }
    if (content.length > 0) {
      await dataSource.query('INSERT INTO connector_content (connector_uuid, content) VALUES ' + content.map(() => '(?, ?)').join(', '), content.flat());
    }
  }
  return { organization, environment, bots, connectorsOf: (bot) => byBot.get(bot) ?? [] };
}
