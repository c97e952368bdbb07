import { AuthType } from '@app/domain';
import { toPage, toRecord } from './connector-views';
import { aStoredConnector } from './testing/connector-factories';

describe(toPage.name, () => {
  it('follows Spring Data: number 0-based, totals, first and last', () => {
    const page = toPage([], 12, 2, 5);

    expect(page).toMatchObject({
      number: 1,
      size: 5,
      totalElements: 12,
      totalPages: 3,
      first: false,
      last: false,
      empty: true,
      numberOfElements: 0,
      pageable: { pageNumber: 1, pageSize: 5, offset: 5, paged: true, unpaged: false },
      sort: { sorted: true, unsorted: false, empty: false },
    });
  });

  it('answers a page past the end empty, with the true totals', () => {
    expect(toPage([], 12, 9, 5)).toMatchObject({ number: 8, totalPages: 3, totalElements: 12, last: true, empty: true });
  });

  it('calls the only page of an empty bot both first and last', () => {
    expect(toPage([], 0, 1, 5)).toMatchObject({ totalPages: 0, first: true, last: true });
  });
});

describe(toRecord.name, () => {
  it('shows a set secret as its placeholder only, and an unset one as null', () => {
    const record = toRecord(aStoredConnector({ authType: AuthType.AUTH_BASIC, basicToken: 'sealed:basic' }), [], []);

    expect(record).toMatchObject({ basicToken: '<BASIC_TOKEN>', bearerToken: null, clientSecret: null, authPassword: null });
    expect(JSON.stringify(record)).not.toContain('sealed');
  });

  it('writes updatedAt in ISO 8601 UTC with milliseconds', () => {
    expect(toRecord(aStoredConnector(), [], []).updatedAt).toBe('2026-11-21T09:00:00.000Z');
  });
});
