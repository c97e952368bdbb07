import { DomainError, MovedConnectorSecretsDto } from '@app/domain';
import { MovedVariable } from './variable-set-plan';

export class ConnectorVariablesChangedException extends DomainError {
  constructor(envUuid: string, currentEtag: string) {
    super(
      'CONNECTOR_VARIABLES_CHANGED',
      `The connector variables of environment ${envUuid} have changed since the ETag given in If-Match: the current ETag is ${currentEtag}; read them again, then send If-Match: ${currentEtag}`,
    );
  }
}

/** Writes kept losing the race to other writers' (each retried from the newest set): the caller may retry. */
export class ConnectorVariablesBusyException extends DomainError {
  constructor(envUuid: string) {
    super('CONNECTOR_VARIABLES_BUSY', `The connector variables of environment ${envUuid} are being changed by others; retry`);
  }
}

/**
 * 409 DESTINATIONS_MOVED: the new values move where stored connector secrets, or secret variables, would be sent. The
 * body names each connector (its secrets, from where to where) and each variable, and says how to go on.
 */
export class DestinationsMovedException extends DomainError {
  constructor(connectors: MovedConnectorSecretsDto[], variables: MovedVariable[]) {
    const parts = [
      ...(connectors.length > 0
        ? [
            `${connectors.length} connector${connectors.length === 1 ? '' : 's'} would send stored secrets elsewhere (${connectors
              .slice(0, 5)
              .map((c) => `"${c.name}" ${c.secrets.join(', ')}: ${c.from ?? 'nowhere'} → ${c.to ?? 'an unknown destination'}`)
              .join('; ')}${connectors.length > 5 ? '; …' : ''})`,
          ]
        : []),
      ...(variables.length > 0
        ? [
            `secret variable${variables.length === 1 ? '' : 's'} ${variables
              .slice(0, 5)
              .map((v) => `${v.name} (bound to ${v.destinations.join(', ')}) would go to ${v.to.map((to) => to ?? 'an unknown destination').join(', ')}`)
              .join('; ')}${variables.length > 5 ? '; …' : ''}`,
          ]
        : []),
    ];
    super(
      'DESTINATIONS_MOVED',
      `The new connector variables move where secrets go: ${parts.join('; ')}. Send confirmDestinationMoves: true to go on: ` +
        'those connector secrets and secret variable values are then cleared, and must be sent again ' +
        `(PUT …/rest-connectors/{serviceUUID} for a connector, this PUT for a variable, with its new destinations)`,
      { code: 'DESTINATIONS_MOVED', connectors, variables },
    );
  }
}
