import { DataSource, MoreThan } from 'typeorm';
import { SECRET_FIELDS } from '../rest-connectors/connector-secrets';
import { RestConnector } from '../rest-connectors/rest-connector.entity';
import { secretContext, SecretCipher } from './secret-cipher';

const BATCH = 500;

export interface RotationSummary {
  connectors: number;
  secrets: number;
}

/**
 * Re-encrypts with the current key every stored secret that another key encrypted, soft-deleted
 * connectors included. Each value is replaced only if it is still the one read (compare-and-set), so a
 * write that lands meanwhile is never overwritten; `version` (the ETag) is left alone: the secret is
 * the same. Safe to run again: a second run finds nothing stale.
 */
export async function rotateSecrets(dataSource: DataSource, cipher: SecretCipher): Promise<RotationSummary> {
  const repository = dataSource.getRepository(RestConnector);
  const summary: RotationSummary = { connectors: 0, secrets: 0 };
  let after = '';
  for (;;) {
    const rows = await repository.find({
      select: ['uuid', ...SECRET_FIELDS],
      where: { uuid: MoreThan(after) },
      order: { uuid: 'ASC' },
      take: BATCH,
    });
    if (rows.length === 0) return summary;
    after = rows[rows.length - 1].uuid;
    for (const row of rows) {
      let rotated = 0;
      for (const field of SECRET_FIELDS) {
        const stored = row[field];
        if (stored === null || !cipher.isStale(stored)) continue;
        const context = secretContext(row.uuid, field);
        const fresh = cipher.encrypt(cipher.decrypt(stored, context), context);
        // `version` is set to itself: TypeORM would otherwise bump it, changing the ETag of an unchanged connector.
        const result = await repository.update({ uuid: row.uuid, [field]: stored }, { [field]: fresh, version: () => 'version' });
        rotated += result.affected ?? 0;
      }
      if (rotated > 0) summary.connectors += 1;
      summary.secrets += rotated;
    }
  }
}
