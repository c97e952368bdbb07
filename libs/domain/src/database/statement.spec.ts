import { Column, Entity, PrimaryColumn } from 'typeorm';
import { LargeJsonColumn } from './columns';
import { listed, placeholderList, statement, statementsBy, writeStatement } from './statement';
import { entityRows } from './table-rows';

@Entity('statement_samples')
class Row {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'varchar', length: 10 })
  label: string;

  @LargeJsonColumn()
  doc: { a: number };
}

const ROWS = entityRows(Row);
const SCOPE = 'b.uuid = :botUUID AND e.organization_uuid = :orgUUID';

describe('Statement', () => {
  it('compiles named placeholders into the text both drivers take and the order of the names, a name used twice bound twice', () => {
    const sut = statement('SELECT 1 FROM t WHERE a = :serviceUUID ', `UNION ALL SELECT 2 FROM u WHERE ${SCOPE} AND c = :serviceUUID`);
    expect(sut.text).toBe('SELECT 1 FROM t WHERE a = ? UNION ALL SELECT 2 FROM u WHERE b.uuid = ? AND e.organization_uuid = ? AND c = ?');
    expect(sut.names).toEqual(['serviceUUID', 'botUUID', 'orgUUID', 'serviceUUID']);
    expect(sut.bind({ serviceUUID: 's', botUUID: 'b', orgUUID: 'o' }, false)).toEqual(['s', 'b', 'o', 's']);
  });

  it('leaves quoted text alone', () => {
    expect(statement("SELECT ':not' AS a, '[]' AS b FROM t WHERE x LIKE :term ESCAPE '!'").text).toBe(
      "SELECT ':not' AS a, '[]' AS b FROM t WHERE x LIKE ? ESCAPE '!'",
    );
  });

  it('binds Dates, booleans and undefined as each engine stores them', () => {
    const at = new Date('2026-11-23T08:09:10.123Z');
    const sut = statement('UPDATE t SET at = :at, on = :on, n = :n WHERE id = :id');
    expect(sut.bind({ at, on: true, n: undefined, id: 'x' }, true)).toEqual(['2026-11-23 08:09:10.123', 1, null, 'x']);
    expect(sut.bind({ at, on: false, n: 0, id: 'x' }, false)).toEqual([at, 0, 0, 'x']);
  });

  it("stores a rows property's value as the rows store it", () => {
    const sut = writeStatement(ROWS, `UPDATE statement_samples SET ${ROWS.assignments} WHERE id = :id AND version = :from`);
    expect(sut.text).toBe('UPDATE statement_samples SET id = ?, label = ?, doc = ? WHERE id = ? AND version = ?');
    expect(sut.bind({ id: 'x', label: 'L', doc: { a: 1 }, from: 2 }, false)).toEqual(['x', 'L', '{"a":1}', 'x', 2]);
  });

  it('refuses a name it was not given, and positional placeholders', () => {
    const sut = statement(`SELECT 1 FROM t WHERE ${placeholderList('uuid', 2)}`);
    expect(() => sut.bind({ ...listed('uuid', ['a']) }, false)).toThrow('No value for :uuid1');
    expect(() => statement('SELECT 1 FROM t WHERE a = ?')).toThrow('named placeholders only');
  });

  it('compiles a statement of a family once per key', () => {
    const build = jest.fn((count: number) => statement(`SELECT 1 FROM t WHERE id IN (${placeholderList('id', count)})`));
    const sut = statementsBy(build);
    expect(sut(2).text).toBe('SELECT 1 FROM t WHERE id IN (?, ?)');
    expect(sut(2)).toBe(sut(2));
    expect(sut(2).bind(listed('id', ['a', 'b']), false)).toEqual(['a', 'b']);
    expect(build).toHaveBeenCalledTimes(1);
  });

  it('types its parameters from its text: the compiler refuses a call without one of its names', () => {
    const sut = statement('SELECT 1 FROM c WHERE c.uuid = :serviceUUID AND ', SCOPE);
    // @ts-expect-error orgUUID is missing
    const missing: Parameters<typeof sut.bind>[0] = { serviceUUID: 's', botUUID: 'b' };
    const path = { orgUUID: 'o', envUUID: 'e', botUUID: 'b', serviceUUID: 's' };
    expect(sut.bind(path, false)).toEqual(['s', 'b', 'o']);
    expect(() => sut.bind(missing, false)).toThrow('No value for :orgUUID');
    // @ts-expect-error a text built at run time hides its placeholders: refused
    expect(() => statement(['SELECT :a'].join(''))).not.toThrow();
  });
});
