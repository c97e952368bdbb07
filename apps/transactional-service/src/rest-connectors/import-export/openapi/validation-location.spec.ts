import { framedLine, pathAtLine, whereOf } from './validation-location';

describe('where a validator finding stands', () => {
  const doc = {
    openapi: '3.0.3',
    info: { title: 'x', version: '1' },
    paths: {
      '/a': { get: { operationId: 'a', responses: { 200: { description: 'ok' } } } },
      '/items/{id}': { parameters: [], post: { operationId: 'b', tags: ['t', 'u'] } },
    },
    skipped: undefined,
  };
  const lines = JSON.stringify(doc, null, 2).split('\n');

  it('finds the value starting on every line of JSON.stringify(value, null, 2), as the code frames number them', () => {
    for (const [index, text] of lines.entries()) {
      const path = pathAtLine(doc, index + 1);
      const key = /^\s*"([^"]+)":/.exec(text)?.[1];
      if (key !== undefined) expect(path?.[path.length - 1]).toBe(key);
    }
    expect(pathAtLine(doc, lines.indexOf('      "post": {') + 1)).toEqual(['paths', '/items/{id}', 'post']);
    expect(pathAtLine(doc, lines.indexOf('          "u"') + 1)).toEqual(['paths', '/items/{id}', 'post', 'tags', '1']);
    expect(pathAtLine(doc, lines.length + 5)).toBeNull();
  });

  it('reads the marked line of a frame and names an operation, a path or a pointer', () => {
    expect(framedLine('REQUIRED must have required property \'responses\'\n\n  19 |   x\n> 20 |       "post": {\n     |   ^ here')).toBe(20);
    expect(framedLine('no frame')).toBeNull();
    expect(whereOf(['paths', '/items/{id}', 'post', 'responses'])).toBe('operation POST /items/{id}');
    expect(whereOf(['paths', '/items/{id}', 'parameters', '0'])).toBe('path /items/{id}');
    expect(whereOf(['components', 'schemas', 'a/b'])).toBe('/components/schemas/a~1b');
    expect(whereOf([])).toBe('document');
  });
});
