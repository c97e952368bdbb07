import { MULTIPART_LIMITS, multipartBody, multipartPartsOf, readMultipartParts } from './multipart-parts';

const problemsOf = (body: string) => {
  const reading = readMultipartParts(body);
  return 'problems' in reading ? reading.problems : [];
};

describe(readMultipartParts.name, () => {
  it('reads an empty body as no parts', () => {
    expect(readMultipartParts('')).toEqual({ parts: [] });
    expect(readMultipartParts('  \n')).toEqual({ parts: [] });
  });

  it('reads text parts, inline-text files and Base64 files', () => {
    const parts = [
      { name: 'to', value: '{{email}}' },
      { name: 'notes', value: 'a\nb', filename: 'notes.txt', contentType: 'text/plain; charset=utf-8' },
      { name: 'photo', base64: 'iVBORw0KGgo=', filename: 'p.png', contentType: 'image/png' },
    ];
    expect(readMultipartParts(JSON.stringify(parts))).toEqual({ parts });
  });

  it('says a body that is not a JSON array is not one, and what it must be', () => {
    expect(problemsOf('a=b&c=d')[0]).toMatch(/^body is not JSON \(.*\): a MULTIPART_FORM_DATA body is a JSON array of parts/);
    expect(problemsOf('{"name":"a"}')).toEqual([expect.stringMatching(/^body is not a JSON array: a MULTIPART_FORM_DATA body is a JSON array/)]);
  });

  it('names the part index and field of each problem', () => {
    expect(
      problemsOf(
        JSON.stringify([
          'x',
          { value: 'v' },
          { name: 'a', value: 'v', base64: 'AA==' },
          { name: 'b' },
          { name: 'c', base64: 'not base64!' },
          { name: 'd\r\n', value: 'v', filename: 'x\ny', contentType: 'not a type' },
          { name: 'e', value: 1, size: 3 },
        ]),
      ),
    ).toEqual([
      'body[0] is not an object: write {"name": "…", "value": "…"} or {"name": "…", "base64": "…"}',
      'body[1].name is missing: every part has a non-empty name',
      "body[2] must have exactly one of value (text, {{variable}} placeholders allowed) and base64 (a file's bytes)",
      "body[3] must have exactly one of value (text, {{variable}} placeholders allowed) and base64 (a file's bytes)",
      "body[4].base64 is not Base64: write the file's bytes in standard padded Base64 (A-Z a-z 0-9 + /, = at the end), without spaces or line breaks",
      "body[5].name must not contain CR, LF or NUL characters: it is one line of the part's header",
      "body[5].filename must not contain CR, LF or NUL characters: it is one line of the part's header",
      'body[5].contentType is not a media type: write type/subtype with optional parameters, such as image/png or text/plain; charset=utf-8',
      'body[6].size is not a part field: a part has name, value, base64, filename, contentType',
      'body[6].value must be a string',
    ]);
  });

  it(`holds at most ${MULTIPART_LIMITS.parts} parts, names and filenames of at most ${MULTIPART_LIMITS.name} characters`, () => {
    const many = Array.from({ length: MULTIPART_LIMITS.parts + 1 }, (_, index) => ({ name: `p${index}`, value: '' }));
    expect(problemsOf(JSON.stringify(many))).toEqual([
      `body has ${MULTIPART_LIMITS.parts + 1} parts: a multipart body holds at most ${MULTIPART_LIMITS.parts}`,
    ]);
    expect(problemsOf(JSON.stringify(many.slice(1)))).toEqual([]);
    expect(problemsOf(JSON.stringify([{ name: 'n'.repeat(257), value: '' }]))).toEqual([`body[0].name is longer than ${MULTIPART_LIMITS.name} characters`]);
  });
});

describe(multipartBody.name, () => {
  it('writes parts as compact JSON in the documented field order, and no parts as the empty body', () => {
    expect(multipartBody([{ contentType: 'text/plain', value: 'v', name: 'n' }])).toBe('[{"name":"n","value":"v","contentType":"text/plain"}]');
    expect(multipartBody([])).toBe('');
  });

  it('reads back as the same parts', () => {
    const parts = [
      { name: 'a', value: 'x' },
      { name: 'b', base64: 'AAE=', filename: 'b.bin' },
    ];
    expect(multipartPartsOf(multipartBody(parts))).toEqual(parts);
  });
});
