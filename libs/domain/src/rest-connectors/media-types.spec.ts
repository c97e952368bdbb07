import { contentTypeHeaderProblems, contentTypeOfMediaType, declaredTypeFits, keptContentType } from './media-types';
import { ContentType } from './rest-connector.enums';

describe('media types', () => {
  it.each([
    [ContentType.APPLICATION_JSON, 'application/json-patch+json', true],
    [ContentType.APPLICATION_JSON, 'application/merge-patch+json; charset=utf-8', true],
    [ContentType.APPLICATION_JSON, 'application/problem+json', true],
    [ContentType.APPLICATION_JSON, 'text/plain', false],
    [ContentType.APPLICATION_JSON, 'application/jsonx', false],
    [ContentType.APPLICATION_FORM_URLENCODED, 'application/x-www-form-urlencoded; charset=UTF-8', true],
    [ContentType.APPLICATION_FORM_URLENCODED, 'application/json', false],
    [ContentType.TEXT_PLAIN, 'text/html; charset=utf-8', true],
    [ContentType.TEXT_PLAIN, 'text/csv', true],
    [ContentType.TEXT_PLAIN, 'application/xml', true],
    [ContentType.TEXT_PLAIN, 'application/json', false],
    [ContentType.APPLICATION_XML, 'application/soap+xml', true],
    [ContentType.APPLICATION_XML, 'text/csv', true],
    [ContentType.APPLICATION_XML, 'multipart/form-data; boundary=x', false],
    [ContentType.APPLICATION_XML, 'application/vnd.api+json', false],
    [ContentType.MULTIPART_FORM_DATA, 'multipart/form-data', true],
    [ContentType.MULTIPART_FORM_DATA, 'multipart/mixed', false],
    [ContentType.MULTIPART_FORM_DATA, 'application/json', false],
    [ContentType.NONE, 'application/json', false],
    [ContentType.NONE, 'text/plain', false],
    [ContentType.TEXT_PLAIN, 'not a media type', false],
  ])('for %s, the header %j fits: %s', (contentType, value, fits) => {
    expect(declaredTypeFits(contentType, value)).toBe(fits);
  });

  it.each([
    ['application/merge-patch+json', ContentType.APPLICATION_JSON],
    ['application/vnd.api+json', ContentType.APPLICATION_JSON],
    ['Application/X-WWW-Form-Urlencoded', ContentType.APPLICATION_FORM_URLENCODED],
    ['multipart/form-data; boundary=abc', ContentType.MULTIPART_FORM_DATA],
    ['text/xml; charset=utf-8', ContentType.APPLICATION_XML],
    ['application/atom+xml', ContentType.APPLICATION_XML],
    ['text/csv', ContentType.TEXT_PLAIN],
    ['application/octet-stream', ContentType.TEXT_PLAIN],
    ['multipart/mixed', null],
    ['json', null],
  ])('sends %j as %s', (value, contentType) => {
    expect(contentTypeOfMediaType(value)).toBe(contentType);
  });

  it("keeps a declared type as written unless it is the content type's own or multipart", () => {
    expect(keptContentType(ContentType.APPLICATION_JSON, 'application/json')).toBeUndefined();
    expect(keptContentType(ContentType.APPLICATION_JSON, ' Application/JSON ')).toBeUndefined();
    expect(keptContentType(ContentType.APPLICATION_JSON, 'application/json; charset=utf-8')).toBe('application/json; charset=utf-8');
    expect(keptContentType(ContentType.TEXT_PLAIN, 'text/csv')).toBe('text/csv');
    expect(keptContentType(ContentType.MULTIPART_FORM_DATA, 'multipart/form-data; boundary=x')).toBeUndefined();
  });

  it('says which types fit a header that does not, and refuses a second Content-Type', () => {
    expect(
      contentTypeHeaderProblems(ContentType.APPLICATION_JSON, [
        { header: 'Accept', value: 'text/csv' },
        { header: 'content-type', value: 'text/csv' },
      ]),
    ).toEqual([
      'headers.1 Content-Type "text/csv" does not fit contentType APPLICATION_JSON; the Content-Type that fits it: application/json and every +json type ' +
        '(application/json-patch+json, application/merge-patch+json, application/vnd.api+json)',
    ]);
    expect(contentTypeHeaderProblems(ContentType.NONE, [{ header: 'Content-Type', value: 'application/json' }])[0]).toContain(
      'the Content-Type that fits it: none: NONE sends no body',
    );
    expect(
      contentTypeHeaderProblems(ContentType.TEXT_PLAIN, [
        { header: 'Content-Type', value: 'text/csv' },
        { header: 'Content-Type', value: 'text/csv' },
      ]),
    ).toEqual(['headers.1 is a second Content-Type header: a connector declares one']);
  });
});
