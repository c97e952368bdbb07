import { connectorRecord } from '@app/domain';
import { aStoredConnector } from '../../testing/connector-factories';
import { ExportedConnector, exportedOf } from '../connector-draft';

/** A connector as the exporters take it: a GET without auth, headers or body, unless `overrides` says otherwise. */
export function anExportedConnector(overrides: Partial<ExportedConnector> = {}): ExportedConnector {
  const stored = aStoredConnector({ name: 'Connector', url: 'https://api.example.com/', output: '' });
  return { ...exportedOf(connectorRecord(stored, [], [])), ...overrides };
}
