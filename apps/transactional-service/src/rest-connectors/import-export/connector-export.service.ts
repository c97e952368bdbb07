import { ConsistencyScope, ImportFormat, RestConnectorPath } from '@app/domain';
import { Injectable } from '@nestjs/common';
import { RestConnectorsService } from '../rest-connectors.service';
import { exportedOf } from './connector-draft';
import { EXPORTERS } from './formats';

export interface ExportedFile {
  content: string;
  mediaType: string;
  fileName: string;
}

/**
 * `GET …/rest-connectors/{serviceUUID}/export`: the connector as a get reads it (secrets only as placeholders, so
 * no exporter ever holds one), written in the format asked for.
 */
@Injectable()
export class ConnectorExportService {
  constructor(private readonly connectors: RestConnectorsService) {}

  async export(path: RestConnectorPath, format: ImportFormat, consistency?: ConsistencyScope): Promise<ExportedFile> {
    const { body } = await this.connectors.get(path, consistency);
    const connector = exportedOf(body);
    const { write, mediaType, extension } = EXPORTERS[format];
    return { content: write(connector), mediaType, fileName: `${fileNameOf(body.name)}.${extension}` };
  }
}

/** A name safe in a Content-Disposition filename: letters, digits, `-` and `_`, at most 60. */
function fileNameOf(name: string): string {
  const safe = name
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return safe === '' ? 'connector' : safe;
}
