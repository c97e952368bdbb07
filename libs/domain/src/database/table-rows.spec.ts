import { Column, Entity, ManyToOne, PrimaryColumn } from 'typeorm';
import { LargeJsonColumn, TimestampColumn } from './columns';
import { entityRows } from './table-rows';

@Entity('samples')
class Sample {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @TimestampColumn({ name: 'at_time', nullable: true })
  at: Date | null;

  @Column({ type: 'boolean', name: 'is_on' })
  on: boolean;

  @Column({ type: 'int' })
  n: number;

  @LargeJsonColumn({ nullable: true })
  doc: { a: number[] } | null;

  /** A relation: no column of its own, and optional, so not a property of the rows. */
  @ManyToOne(() => Sample)
  parent?: Sample;
}

const ROWS = entityRows(Sample);

describe('TableRows', () => {
  it('reads the table, the columns and their kinds from the entity, named as the snake naming strategy names them', () => {
    expect(ROWS.table).toBe('samples');
    expect(ROWS.layout).toEqual([
      { property: 'id', column: 'id', kind: 'text' },
      { property: 'at', column: 'at_time', kind: 'date' },
      { property: 'on', column: 'is_on', kind: 'bool' },
      { property: 'n', column: 'n', kind: 'int' },
      { property: 'doc', column: 'doc', kind: 'json' },
    ]);
  });

  it('writes the column lists of its SQL', () => {
    expect(ROWS.names).toBe('id, at_time, is_on, n, doc');
    expect(ROWS.placeholders).toBe('?, ?, ?, ?, ?');
    expect(ROWS.pick('id', 'n').insertSql(2)).toBe('INSERT INTO samples (id, n) VALUES (?, ?), (?, ?)');
    expect(ROWS.pick('n', 'doc').assignments).toBe('n = :n, doc = :doc');
    expect(ROWS.pick('id', 'at').parameters).toBe(':id, :at');
    expect(ROWS.select('s')).toBe('s.id AS id, s.at_time AS at_time, s.is_on AS is_on, s.n AS n, s.doc AS doc');
  });

  it('stores JSON as text and leaves the rest to the engine binding', () => {
    const at = new Date('2026-11-23T08:09:10.123Z');
    expect(ROWS.values({ id: 'x', at, on: true, n: 3, doc: { a: [1] } })).toEqual(['x', at, true, 3, '{"a":[1]}']);
    expect(ROWS.values({ id: 'x', at: null, on: false, n: 0, doc: null })).toEqual(['x', null, false, 0, null]);
  });

  it.each([
    ['2026-11-23 08:09:10.123', '2026-11-23T08:09:10.123Z'],
    ['2026-11-23 08:09:10', '2026-11-23T08:09:10.000Z'],
    ['2026-11-23T08:09:10.123Z', '2026-11-23T08:09:10.123Z'],
    ['2026-11-23T10:09:10.123+02:00', '2026-11-23T08:09:10.123Z'],
  ])('reads the SQLite date text %s as %s, as TypeORM does', (stored, iso) => {
    expect(ROWS.from({ id: 'x', at_time: stored, is_on: 1, n: '7', doc: '{"a":[2]}' })).toEqual({
      id: 'x',
      at: new Date(iso),
      on: true,
      n: 7,
      doc: { a: [2] },
    });
  });

  it('reads MySQL Dates, 0/1 and NULLs', () => {
    const at = new Date('2026-11-23T08:09:10.123Z');
    expect(ROWS.from({ id: 'x', at_time: at, is_on: 0, n: 1, doc: null })).toEqual({ id: 'x', at, on: false, n: 1, doc: null });
    expect(ROWS.from({ id: 'x', at_time: null, is_on: null, n: null, doc: null })).toEqual({ id: 'x', at: null, on: null, n: null, doc: null });
  });
});
