import type { Request } from 'express';
import { isSourceBody } from './import-body';

const request = (contentType: string | undefined, query: Record<string, string> = {}) =>
  ({ headers: contentType === undefined ? {} : { 'content-type': contentType }, query }) as unknown as Request;

describe(isSourceBody.name, () => {
  it('reads application/json as the import request unless the query string holds an import option', () => {
    expect(isSourceBody(request('application/json'))).toBe(false);
    expect(isSourceBody(request('application/json; charset=utf-8'))).toBe(false);
    for (const option of ['format', 'dryRun', 'select', 'onConflict', 'credentials', 'postmanEnvironment']) {
      expect(isSourceBody(request('application/json', { [option]: 'x' }))).toBe(true);
    }
  });

  it('reads every other media type, or none, itself (and refuses there those it does not take)', () => {
    for (const type of [
      'text/plain',
      'application/yaml',
      'application/x-yaml',
      'multipart/form-data; boundary=x',
      'text/csv',
      'application/merge-patch+json',
    ]) {
      expect(isSourceBody(request(type))).toBe(true);
    }
    expect(isSourceBody(request(undefined))).toBe(true);
  });
});
