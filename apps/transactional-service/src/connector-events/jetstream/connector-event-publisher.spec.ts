import { connectorEventSubject } from './connector-event-publisher';

const ORG = '0b6f4c2e-1d1a-4a8e-9a3e-5f1f6c9d2a01';
const ENV = '1c7a5d3f-2e2b-4b9f-8b4f-6a2a7dae3b02';
const BOT = '6bcfa28e-7d7a-4ae4-9a9e-bf7fc1fd8a07';
const CONNECTOR = '9e1f0c7a-3b2d-4c5e-8f6a-7b8c9d0e1f2a';

describe(connectorEventSubject.name, () => {
  it('carries org, env, bot and connector under connectors.events', () => {
    expect(connectorEventSubject(ORG, ENV, BOT, CONNECTOR)).toBe(`connectors.events.${ORG}.${ENV}.${BOT}.${CONNECTOR}`);
  });

  it('lower-cases the ids, as the API answers them, so that a filter written from an answer matches', () => {
    expect(connectorEventSubject(ORG.toUpperCase(), ENV, BOT, CONNECTOR.toUpperCase())).toBe(`connectors.events.${ORG}.${ENV}.${BOT}.${CONNECTOR}`);
  });

  it('takes another prefix', () => {
    expect(connectorEventSubject(ORG, ENV, BOT, CONNECTOR, 'test.x1')).toBe(`test.x1.${ORG}.${ENV}.${BOT}.${CONNECTOR}`);
  });

  it.each(['', '*', '>', 'a.b', `${ORG} `, `${ORG}.>`, 'not-a-uuid'])('refuses %j, which would change who receives the event', (id) => {
    expect(() => connectorEventSubject(ORG, ENV, id, CONNECTOR)).toThrow(`connector events: a subject is made of UUIDs, got ${JSON.stringify(id)}`);
  });
});
