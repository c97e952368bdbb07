import { LIMITS } from '@app/domain';
import { connectorTags } from './draft-tags';

describe(connectorTags.name, () => {
  it('trims, makes whitespace runs one space, drops empty names and non-strings, and de-duplicates case-insensitively (first spelling kept)', () => {
    expect(connectorTags(['  Pets ', 'pet\n  store', '', '   ', 42, 'PETS', 'Store'])).toEqual({
      tags: [{ name: 'Pets' }, { name: 'pet store' }, { name: 'Store' }],
      warnings: [],
    });
  });

  it(`cuts a name over ${LIMITS.tagName} characters there, never inside a surrogate pair, and says so`, () => {
    const long = `${'a'.repeat(LIMITS.tagName - 1)}😀tail`;

    const { tags, warnings } = connectorTags([long, `${'b'.repeat(60)}`]);

    expect(tags).toEqual([{ name: 'a'.repeat(LIMITS.tagName - 1) }, { name: 'b'.repeat(LIMITS.tagName) }]);
    expect(warnings).toEqual([
      { code: 'TAG_SHORTENED', message: `the tag ${JSON.stringify(long)} is longer than 50 characters: shortened to "${'a'.repeat(49)}"` },
      { code: 'TAG_SHORTENED', message: `the tag "${'b'.repeat(60)}" is longer than 50 characters: shortened to "${'b'.repeat(50)}"` },
    ]);
  });

  it('de-duplicates names that are equal once shortened', () => {
    expect(connectorTags([`${'c'.repeat(50)}1`, `${'C'.repeat(50)}2`]).tags).toEqual([{ name: 'c'.repeat(50) }]);
  });

  it('leaves out a name a tag cannot hold (NUL, a lone surrogate), saying why', () => {
    expect(connectorTags(['a\u0000b', 'x\ud800', 'ok'])).toEqual({
      tags: [{ name: 'ok' }],
      warnings: [
        { code: 'TAG_LEFT_OUT', message: 'the tag "a\\u0000b" is left out: a tag must not contain CR, LF or NUL characters' },
        { code: 'TAG_LEFT_OUT', message: 'the tag "x\\ud800" is left out: a tag must not contain a lone UTF-16 surrogate' },
      ],
    });
  });

  it(`keeps the first ${LIMITS.tags} distinct tags and names the others`, () => {
    const names = Array.from({ length: 27 }, (_, index) => `t${index + 1}`);

    const { tags, warnings } = connectorTags([...names, 'T1']);

    expect(tags.map(({ name }) => name)).toEqual(names.slice(0, 20));
    expect(warnings).toEqual([
      { code: 'TAGS_CUT', message: 'a connector holds 20 tags: the first 20 are kept, "t21", "t22", "t23", "t24", "t25" and 2 more left out' },
    ]);
  });
});
