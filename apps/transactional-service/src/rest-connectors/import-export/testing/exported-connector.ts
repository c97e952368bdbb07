import { connectorRecord, multipartBody } from '@app/domain';
import { aStoredConnector } from '../../testing/connector-factories';
import { ExportedConnector, exportedOf } from '../connector-draft';

/**
 * A multipart body of every kind of part, for the round trips: a text field with a variable, a typed text part, a
 * text file, Base64 files with and without a filename (`repeated`: the last one named as the one before, as a form sends several files).
 */
export function aMultipartBody(repeated = false): string {
  return multipartBody([
    { name: 'to', value: '{{to}}' },
    { name: 'meta', value: '{"k":1}', contentType: 'application/json' },
    { name: 'notes', value: 'line 1\nline 2', filename: 'notes.txt', contentType: 'text/plain' },
    { name: 'photo', base64: 'iVBORw0KGgo=', filename: 'photo.png', contentType: 'image/png' },
    { name: repeated ? 'photo' : 'blob', base64: 'AP8=' },
  ]);
}

/** A connector as the exporters take it: a GET without auth, headers or body, unless `overrides` says otherwise. */
export function anExportedConnector(overrides: Partial<ExportedConnector> = {}): ExportedConnector {
  const stored = aStoredConnector({ name: 'Connector', url: 'https://api.example.com/', output: '' });
  return { ...exportedOf(connectorRecord(stored, [], [])), ...overrides };
}
