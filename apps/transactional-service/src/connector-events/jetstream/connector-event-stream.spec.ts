import { JetStreamApiError, StreamConfig } from '@nats-io/jetstream';
import { connectorEventStreamConfig, ensureConnectorEventStream, streamChanges } from './connector-event-stream';

const DAY_NS = 86_400 * 1e9;

describe(connectorEventStreamConfig.name, () => {
  it('is a file stream with limits retention over connectors.events.>, discarding the oldest', () => {
    expect(connectorEventStreamConfig({ maxAgeDays: 7 })).toEqual({
      name: 'CONNECTOR_EVENTS',
      subjects: ['connectors.events.>'],
      retention: 'limits',
      storage: 'file',
      max_age: 7 * DAY_NS,
      duplicate_window: 120 * 1e9,
      discard: 'old',
    });
  });

  it('takes a name, a prefix and a duplicate window', () => {
    expect(connectorEventStreamConfig({ stream: 'T1', subjectPrefix: 'test.t1', maxAgeDays: 0.5, duplicateWindowS: 30 })).toMatchObject({
      name: 'T1',
      subjects: ['test.t1.>'],
      max_age: DAY_NS / 2,
      duplicate_window: 30 * 1e9,
    });
  });

  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('refuses maxAgeDays %p', (maxAgeDays) => {
    expect(() => connectorEventStreamConfig({ maxAgeDays })).toThrow(`connector events: maxAgeDays must be a positive number, got ${maxAgeDays}`);
  });

  it('refuses a duplicate window longer than the stream keeps events, as JetStream would', () => {
    expect(() => connectorEventStreamConfig({ maxAgeDays: 0.001, duplicateWindowS: 120 })).toThrow(
      'connector events: the duplicate window (120 s) is longer than maxAgeDays (0.001)',
    );
  });
});

describe(streamChanges.name, () => {
  const wanted = connectorEventStreamConfig({ maxAgeDays: 7 });

  it('finds nothing in a stream as wanted, whatever else it sets, and whatever the order of subjects', () => {
    expect(streamChanges({ ...wanted, num_replicas: 3, max_msgs: 1000 } as StreamConfig, wanted)).toEqual([]);
  });

  it('lists each field that differs, in seconds for durations, and which of them JetStream cannot change in place', () => {
    const current = {
      ...wanted,
      subjects: ['connectors.events.*'],
      storage: 'memory',
      retention: 'interest',
      max_age: 0,
      duplicate_window: 60e9,
      discard: 'new',
    };
    expect(streamChanges(current as StreamConfig, wanted)).toEqual([
      { field: 'subjects', from: '["connectors.events.*"]', to: '["connectors.events.>"]', inPlace: true },
      { field: 'retention', from: 'interest', to: 'limits', inPlace: false },
      { field: 'storage', from: 'memory', to: 'file', inPlace: false },
      { field: 'max_age', from: '0s', to: '604800s', inPlace: true },
      { field: 'duplicate_window', from: '60s', to: '120s', inPlace: true },
      { field: 'discard', from: 'new', to: 'old', inPlace: true },
    ]);
  });
});

describe(ensureConnectorEventStream.name, () => {
  const wanted = connectorEventStreamConfig({ maxAgeDays: 7 });
  const logger = () => ({ info: jest.fn(), error: jest.fn() });
  const notFound = new JetStreamApiError({ err_code: 10059, code: 404, description: 'stream not found' });
  const nameInUse = new JetStreamApiError({ err_code: 10058, code: 400, description: 'stream name already in use with a different configuration' });

  it('creates the stream JetStream does not know, and says so', async () => {
    const streams = { info: jest.fn().mockRejectedValue(notFound), add: jest.fn().mockResolvedValue({}), update: jest.fn() };
    const log = logger();
    await expect(ensureConnectorEventStream({ streams } as never, wanted, log)).resolves.toBe('created');
    expect(streams.add).toHaveBeenCalledWith(wanted);
    expect(log.info).toHaveBeenCalledWith({ stream: 'CONNECTOR_EVENTS', config: wanted }, 'connector events: stream CONNECTOR_EVENTS created');
  });

  it('checks again the stream another pod created between its look and its create', async () => {
    const streams = {
      info: jest.fn().mockRejectedValueOnce(notFound).mockResolvedValueOnce({ config: wanted }),
      add: jest.fn().mockRejectedValue(nameInUse),
      update: jest.fn(),
    };
    await expect(ensureConnectorEventStream({ streams } as never, wanted, logger())).resolves.toBe('unchanged');
    expect(streams.update).not.toHaveBeenCalled();
  });

  it('passes on any other failure', async () => {
    const streams = { info: jest.fn().mockRejectedValue(new Error('timeout')), add: jest.fn(), update: jest.fn() };
    await expect(ensureConnectorEventStream({ streams } as never, wanted, logger())).rejects.toThrow('timeout');
    expect(streams.add).not.toHaveBeenCalled();
  });

  it('updates only what JetStream can change in place, logs it, and logs as an error what it cannot change', async () => {
    const current = { ...wanted, storage: 'memory', max_age: DAY_NS };
    const streams = { info: jest.fn().mockResolvedValue({ config: current }), add: jest.fn(), update: jest.fn().mockResolvedValue({}) };
    const log = logger();
    await expect(ensureConnectorEventStream({ streams } as never, wanted, log)).resolves.toBe('updated');
    expect(streams.update).toHaveBeenCalledWith('CONNECTOR_EVENTS', { max_age: 7 * DAY_NS });
    expect(log.info).toHaveBeenCalledWith(
      expect.objectContaining({ stream: 'CONNECTOR_EVENTS' }),
      'connector events: stream CONNECTOR_EVENTS updated: max_age 86400s → 604800s',
    );
    expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ stream: 'CONNECTOR_EVENTS' }), expect.stringContaining('storage memory → file'));
  });
});
