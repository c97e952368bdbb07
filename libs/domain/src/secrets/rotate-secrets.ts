import { DataSource } from 'typeorm';
import { openDatabase } from '../database/open-database';
import { SECRET_FIELDS } from '../rest-connectors/connector-fields';
import { REST_CONNECTOR_ROWS } from '../rest-connectors/rest-connector.entity';
import { CONNECTOR_VARIABLE_ROWS } from '../connector-variables/connector-variable.entity';
import { secretContext, SecretCipher, secretHeaderContext, variableSecretContext } from './secret-cipher';

const BATCH = 500;
const SECRET_ROWS = REST_CONNECTOR_ROWS.pick('uuid', 'version', 'headers', ...SECRET_FIELDS);
const HEADERS = REST_CONNECTOR_ROWS.pick('headers');

export interface RotationSummary {
  connectors: number;
  /** The connectors' secrets (fields and secret headers) re-encrypted. */
  secrets: number;
  /** The secret connector variables re-encrypted. */
  variables: number;
}

const VARIABLE_SECRET_ROWS = CONNECTOR_VARIABLE_ROWS.pick('uuid', 'environmentUuid', 'name', 'sealedValue');

/**
 * Re-encrypts with the current key every stored secret that another key encrypted, soft-deleted
 * connectors included. Each value is replaced only if it is still the one read (compare-and-set), so a
 * write that lands meanwhile is never overwritten; `version` (the ETag) is left alone: the secret is
 * the same. Secret headers live in the headers' JSON: it is rewritten only while the row's `version` is still the one
 * read (every write bumps it), and left at that version. Safe to run again: a second run finds nothing stale.
 */
export async function rotateSecrets(dataSource: DataSource, cipher: SecretCipher): Promise<RotationSummary> {
  const db = openDatabase(dataSource);
  const summary: RotationSummary = { connectors: 0, secrets: 0, variables: 0 };
  let after = '';
  for (;;) {
    const rows = (
      await db.rows(`SELECT ${SECRET_ROWS.select('c')} FROM rest_connectors c WHERE c.uuid > ? ORDER BY c.uuid ASC LIMIT ?`, [after, BATCH], 'primary')
    ).map((row) => SECRET_ROWS.from(row));
    if (rows.length === 0) break;
    after = rows[rows.length - 1].uuid;
    for (const row of rows) {
      let rotated = 0;
      for (const field of SECRET_FIELDS) {
        const stored = row[field];
        if (stored === null || !cipher.isStale(stored)) continue;
        const context = secretContext(row.uuid, field);
        const fresh = cipher.encrypt(cipher.decrypt(stored, context), context);
        // `version` (the ETag) stays: the secret is the same.
        const column = REST_CONNECTOR_ROWS.column(field);
        rotated += await db.run(`UPDATE rest_connectors SET ${column} = ? WHERE uuid = ? AND ${column} = ?`, [fresh, row.uuid, stored]);
      }
      const headers = row.headers.map((header) =>
        header.secret === true && cipher.isStale(header.value)
          ? {
              ...header,
              value: cipher.encrypt(cipher.decrypt(header.value, secretHeaderContext(row.uuid, header.header)), secretHeaderContext(row.uuid, header.header)),
            }
          : header,
      );
      const staleHeaders = headers.filter((header, index) => header !== row.headers[index]).length;
      if (staleHeaders > 0) {
        const column = REST_CONNECTOR_ROWS.column('headers');
        const written = await db.run(`UPDATE rest_connectors SET ${column} = ? WHERE uuid = ? AND version = ?`, [
          ...HEADERS.values({ headers }),
          row.uuid,
          row.version,
        ]);
        rotated += written * staleHeaders;
      }
      if (rotated > 0) summary.connectors += 1;
      summary.secrets += rotated;
    }
  }
  summary.variables = await rotateVariableSecrets(db, cipher);
  return summary;
}

/**
 * The sealed values of secret connector variables (variableSecretContext) that another key encrypted, re-encrypted
 * with the current one, each only while it is still the value read (compare-and-set): the set's version stays (the
 * value is the same). Answers how many were re-encrypted.
 */
async function rotateVariableSecrets(db: ReturnType<typeof openDatabase>, cipher: SecretCipher): Promise<number> {
  let rotated = 0;
  let after = '';
  for (;;) {
    const rows = (
      await db.rows(
        `SELECT ${VARIABLE_SECRET_ROWS.select('v')} FROM connector_variables v WHERE v.uuid > ? AND v.sealed_value IS NOT NULL ORDER BY v.uuid ASC LIMIT ?`,
        [after, BATCH],
        'primary',
      )
    ).map((row) => VARIABLE_SECRET_ROWS.from(row));
    if (rows.length === 0) return rotated;
    after = rows[rows.length - 1].uuid;
    for (const { uuid, environmentUuid, name, sealedValue } of rows) {
      if (sealedValue === null || !cipher.isStale(sealedValue)) continue;
      const context = variableSecretContext(environmentUuid, name);
      const fresh = cipher.encrypt(cipher.decrypt(sealedValue, context), context);
      rotated += await db.run('UPDATE connector_variables SET sealed_value = ? WHERE uuid = ? AND sealed_value = ?', [fresh, uuid, sealedValue]);
    }
  }
}
