import { ConnectorVariableDto, ConnectorVariablesWrittenDto, MovedConnectorSecretsDto, StoredVariableRow } from '@app/domain';
import { recordedOf } from './variable-set-plan';

/** The ETag of a set's version (`"v0"` before its first write). */
export const variablesEtagOf = (version: number) => `"v${version}"`;

/** What a write of a set answers from: whether it wrote, the version after it, the rows, and what a confirmed move cleared. */
export interface WrittenSet {
  written: boolean;
  version: number;
  rows: ReadonlyArray<Omit<StoredVariableRow, 'uuid'>>;
  clearedSecrets: MovedConnectorSecretsDto[];
  clearedVariables: string[];
}

/** The answer of a write: the set as a read shows it, and what it cleared. */
export function answerOf(result: WrittenSet): ConnectorVariablesWrittenDto {
  return {
    message: result.written ? 'Connector variables updated' : 'Connector variables unchanged',
    version: result.version,
    variables: result.rows.map(variableDtoOf),
    clearedSecrets: result.clearedSecrets,
    clearedVariables: result.clearedVariables,
  };
}

/** A stored variable as a read shows it. */
export function variableDtoOf(row: Omit<StoredVariableRow, 'uuid'>): ConnectorVariableDto {
  return { ...recordedOf(row), updatedAt: row.updatedAt.toISOString(), updatedBy: row.updatedBy };
}
