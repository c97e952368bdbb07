import { jetstreamManager, JetStreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import { randomUUID } from 'node:crypto';
import pino from 'pino';

/** A connector change event as docs/asyncapi/connector-events.yaml describes it: an update of a bearer connector. */
export function aConnectorEvent(overrides: { org?: string; env?: string; bot?: string; connector?: string; version?: number } = {}) {
  const { org = randomUUID(), env = randomUUID(), bot = randomUUID(), connector = randomUUID(), version = 3 } = overrides;
  const time = '2026-11-21T09:30:00.000Z';
  return {
    specversion: '1.0',
    id: randomUUID(),
    source: `/org/${org}/env/${env}/bot/${bot}/rest-connectors`,
    type: 'connector.updated.v1',
    subject: connector,
    time,
    datacontenttype: 'application/json',
    data: {
      version,
      etag: `"v${version}"`,
      operation: 'UPDATED',
      changedFields: ['url'],
      updatedBy: 'alice',
      reason: 'The vendor moved the forecast API',
      revertedTo: null,
      promotionId: null,
      snapshot: {
        uuid: connector,
        name: 'Weather forecast',
        description: null,
        requestType: 'GET',
        url: 'https://api.weather.example.com/v1/forecast?city={{city}}',
        headers: [{ header: 'Accept', value: 'application/json' }],
        contentType: 'NONE',
        authType: 'AUTH_BEARER',
        grantType: null,
        basicToken: null,
        bearerToken: '<BEARER_TOKEN>',
        clientId: null,
        clientSecret: null,
        oauthUrl: null,
        authUsername: null,
        authPassword: null,
        apiKeyName: null,
        apiKeyIn: null,
        apiKey: null,
        body: '',
        output: '$.forecast',
        tags: [{ name: 'weather' }],
        updatedAt: time,
        updatedBy: 'alice',
      },
    },
  };
}

/** A real pino logger whose lines the test reads. */
export function collectingLogger(): { logger: pino.Logger; lines: Array<{ level: number; msg: string; [field: string]: unknown }> } {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** Polls `check` every 20 ms; throws, naming what it waited for, after `timeoutMs`. */
export async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** A connection of the test's own, to look at streams the way an operator would. */
export async function jetStreamAdmin(url: string): Promise<{ jsm: JetStreamManager; close(): Promise<void> }> {
  const nc = await connect({ servers: url, maxReconnectAttempts: 0, timeout: 3_000 });
  const jsm = await jetstreamManager(nc, { timeout: 5_000 });
  return { jsm, close: () => nc.close() };
}

/** The version the NATS server at `url` gives in its INFO. */
export async function serverVersion(url: string): Promise<string> {
  const nc = await connect({ servers: url, maxReconnectAttempts: 0, timeout: 3_000 });
  try {
    if (!nc.info?.version) throw new Error(`the NATS server at ${url} gave no version`);
    return nc.info.version;
  } finally {
    await nc.close();
  }
}

/** Every message a (small) stream holds, oldest first. */
export async function storedMessages(jsm: JetStreamManager, stream: string) {
  const { state } = await jsm.streams.info(stream);
  const messages = [];
  for (let seq = state.first_seq; state.messages > 0 && seq <= state.last_seq; seq++) {
    const message = await jsm.streams.getMessage(stream, { seq });
    if (!message) continue;
    messages.push({
      seq,
      subject: message.subject,
      msgId: message.header.get('Nats-Msg-Id'),
      contentType: message.header.get('content-type'),
      json: message.json<unknown>(),
    });
  }
  return messages;
}
