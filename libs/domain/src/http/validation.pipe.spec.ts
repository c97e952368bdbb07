import { BadRequestException } from '@nestjs/common';
import { IsInt, Matches, Min } from 'class-validator';
import { Transform } from 'class-transformer';
import { createValidationPipe, MAX_REMEMBERED_PER_CLASS } from './validation.pipe';

class PathDto {
  @Matches(/^[a-z]+$/)
  id: string;
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
});
