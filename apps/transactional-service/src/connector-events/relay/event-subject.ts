/** The JetStream subject of a connector's events: consumers filter per organization, environment, bot or connector. */
export function connectorEventSubject(orgUuid: string, envUuid: string, botUuid: string, connectorUuid: string): string {
  return `connectors.events.${orgUuid}.${envUuid}.${botUuid}.${connectorUuid}`;
}
