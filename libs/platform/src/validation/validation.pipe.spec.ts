import { BadRequestException } from '@nestjs/common';
import { ArrayMaxSize, IsArray, IsInt, IsString, Matches, Min } from 'class-validator';
import { Transform } from 'class-transformer';
import { cacheValidationMetadata } from '../performance/validation-metadata-cache';
import { createValidationPipe } from '../performance/performance-overrides';
import { MAX_REMEMBERED_PER_CLASS } from '../performance/remembering-validation.pipe';

// What the apps install at start-up (installPerformanceOverrides), before any pipe is built.
cacheValidationMetadata();

class PathDto {
  @Matches(/^[a-z]+$/)
  id: string;
}

class TermsQueryDto {
  @IsArray()
  @ArrayMaxSize(3)
  @IsString({ each: true })
  @Matches(/^[a-z]+$/, { each: true })
  terms: string[] = [];
}

class QueryDto {
  @Transform(({ value }) => (typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value))
  @Min(1)
  @IsInt()
  page: number = 1;
}

describe('the platform ValidationPipe', () => {
  const pipe = createValidationPipe();
  const param = { type: 'param' as const, metatype: PathDto };
  const query = { type: 'query' as const, metatype: QueryDto };

  it('hands out the same frozen object for the same valid path or query text', async () => {
    const first = await pipe.transform({ id: 'abc' }, param);
    expect(first).toBeInstanceOf(PathDto);
    expect(Object.isFrozen(first)).toBe(true);
    expect(await pipe.transform({ id: 'abc' }, param)).toBe(first);
    expect(await pipe.transform({ id: 'abd' }, param)).toEqual({ id: 'abd' });

    const page = await pipe.transform({ page: '2' }, query);
    expect(page).toEqual({ page: 2 });
    expect(await pipe.transform({}, query)).toEqual({ page: 1 });
    expect(await pipe.transform({ page: '2' }, query)).toBe(page);
  });

  it('never remembers invalid input: it fails every time', async () => {
    for (let i = 0; i < 2; i++) {
      await expect(pipe.transform({ id: 'ABC' }, param)).rejects.toBeInstanceOf(BadRequestException);
      await expect(pipe.transform({ page: '0' }, query)).rejects.toBeInstanceOf(BadRequestException);
      await expect(pipe.transform({ id: 'abc', extra: 'x' }, param)).rejects.toBeInstanceOf(BadRequestException);
    }
  });

  it('validates bodies afresh every time, as new objects', async () => {
    const body = { type: 'body' as const, metatype: PathDto };
    const a = await pipe.transform({ id: 'abc' }, body);
    const b = await pipe.transform({ id: 'abc' }, body);
    expect(a).toEqual(b);
    expect(a).not.toBe(b);
    expect(Object.isFrozen(a)).toBe(false);
  });

  it('remembers at most MAX_REMEMBERED_PER_CLASS objects per class, forgetting the oldest', async () => {
    const fresh = createValidationPipe();
    const first = await fresh.transform({ page: '1' }, query);
    for (let i = 2; i <= MAX_REMEMBERED_PER_CLASS + 1; i++) await fresh.transform({ page: String(i) }, query);
    const again = await fresh.transform({ page: '1' }, query);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });

  it('freezes a remembered object all the way down: an array inside is never shared mutable', async () => {
    const terms = { type: 'query' as const, metatype: TermsQueryDto };
    const first = (await pipe.transform({ terms: ['a', 'b'] }, terms)) as TermsQueryDto;

    expect(Object.isFrozen(first.terms)).toBe(true);
    expect(() => first.terms.push('injected')).toThrow(TypeError);
    const second = (await pipe.transform({ terms: ['a', 'b'] }, terms)) as TermsQueryDto;
    expect(second.terms).toEqual(['a', 'b']);
  });

  /** The messages of the 400 the pipe throws for `value`. */
  async function messagesFor(value: unknown, metatype: Function, type: 'body' | 'query' = 'body'): Promise<string[]> {
    try {
      await pipe.transform(value, { type, metatype: metatype as never });
    } catch (error) {
      return ((error as BadRequestException).getResponse() as { message: string[] }).message;
    }
    throw new Error('expected a 400');
  }

  it('refuses an array over its limit with one message, before looking at any element', async () => {
    const messages = await messagesFor({ terms: Array.from({ length: 1_000 }, () => 'NOT VALID') }, TermsQueryDto, 'query');

    expect(messages).toEqual(['terms must contain no more than 3 elements']);
  });

  it('names at most 20 failing fields, then says how many more', async () => {
    const body = Object.fromEntries(Array.from({ length: 25 }, (_, i) => [`extra${i}`, i]));

    const messages = await messagesFor({ id: 'abc', ...body }, PathDto);

    expect(messages).toHaveLength(21);
    expect(messages[20]).toBe('… and 5 more');
  });

  it('on the stock path, keeps the platform rules without remembering anything', async () => {
    const stock = createValidationPipe(false);

    const first = await stock.transform({ page: '2' }, query);
    expect(await stock.transform({ page: '2' }, query)).not.toBe(first);
    expect(Object.isFrozen(first)).toBe(false);
    await expect(stock.transform({ terms: Array.from({ length: 4 }, () => 'NOT VALID') }, { type: 'query', metatype: TermsQueryDto })).rejects.toMatchObject({
      response: { message: ['terms must contain no more than 3 elements'] },
    });
  });
});
