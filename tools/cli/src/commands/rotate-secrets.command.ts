import { AppConfig, secretCipherFor } from '@app/platform';
import { rotateSecrets } from '@app/domain';
import { openDataSource } from '../open-data-source';

/**
 * `npm run secrets:rotate`: after deploying a new SECRETS_KEY with the old one as SECRETS_KEY_PREVIOUS,
 * re-encrypts every stored secret with the new key; then SECRETS_KEY_PREVIOUS can be removed.
 */
export async function rotateStoredSecrets(config: AppConfig): Promise<number> {
  const dataSource = await openDataSource(config.database);
  try {
    const summary = await rotateSecrets(dataSource, secretCipherFor(config));
    const variables = summary.variables > 0 ? ` and ${summary.variables} secret connector variables` : '';
    console.log(`Re-encrypted ${summary.secrets} secrets of ${summary.connectors} connectors${variables}`);
    return 0;
  } finally {
    await dataSource.destroy();
  }
}
