import { BadRequestException } from '@nestjs/common';
import { parseConsistencyToken } from './consistency-token';

describe(parseConsistencyToken.name, () => {
  it('reads the position a write answered', () => {
    expect(parseConsistencyToken('0-1-4711').toString()).toBe('0-1-4711');
    expect(parseConsistencyToken('0-1-4711,1-2-3').toString()).toBe('0-1-4711,1-2-3');
  });

  it('answers 400 saying what is expected for anything else: another shape, an empty value, the header twice, a long value', () => {
    for (const value of ['abc', '', '0-1-1,0-1-2', ['0-1-1', '0-1-2'], `0-1-1${' '.repeat(600)}`]) {
      expect(() => parseConsistencyToken(value)).toThrow(BadRequestException);
      expect(() => parseConsistencyToken(value)).toThrow(
        /Consistency-Token must be the value of a Consistency-Token header a write of this API answered \(such as 0-1-4711\), sent once; or leave the header out/,
      );
    }
  });
});
