import { deletionBy } from './connector-lifecycle';

describe('deletionBy', () => {
  it('records who deleted the connector and when, and frees its name', () => {
    const now = new Date('2026-11-23T10:00:00.000Z');
    expect(deletionBy({ username: 'ada' }, now)).toEqual({ deletedAt: now, deletedBy: 'ada', activeNameKey: null });
  });
});
