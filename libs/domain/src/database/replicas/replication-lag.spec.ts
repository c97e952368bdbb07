import { GtidPosition } from './gtid-position';
import { ReplicationLag } from './replication-lag';

const position = (text: string) => GtidPosition.parse(text)!;

describe(ReplicationLag.name, () => {
  it('knows no lag before the primary was sampled', () => {
    expect(new ReplicationLag(60_000).of(position('0-1-1'), 1_000)).toBeNull();
  });

  it('is 0 for a replica that has the latest sampled position, however long the primary has been idle', () => {
    const sut = new ReplicationLag(60_000);
    sut.sample(position('0-1-5'), 1_000);
    sut.sample(position('0-1-5'), 50_000);

    expect(sut.of(position('0-1-5'), 100_000)).toBe(0);
  });

  it('counts from the last time the primary was seen without the oldest write the replica lacks: never less than the truth', () => {
    const sut = new ReplicationLag(60_000);
    sut.sample(position('0-1-5'), 1_000);
    sut.sample(position('0-1-6'), 2_000);
    sut.sample(position('0-1-6'), 2_500);
    sut.sample(position('0-1-9'), 3_000);

    // 0-1-6 committed after 1000 (the primary was at 0-1-5 then), 0-1-9 after 2500.
    expect(sut.of(position('0-1-5'), 4_000)).toBe(3_000);
    expect(sut.of(position('0-1-7'), 4_000)).toBe(1_500);
    expect(sut.of(position('0-1-9'), 4_000)).toBe(0);
  });

  it('knows no lag for a replica that lacks part of the first sample: those writes committed before anyone here looked', () => {
    const sut = new ReplicationLag(60_000);
    sut.sample(position('0-1-5'), 1_000);
    sut.sample(position('0-1-6'), 2_000);

    expect(sut.of(position('0-1-4'), 2_000)).toBeNull();
    expect(sut.of(position('0-1-5'), 3_000)).toBe(2_000);
  });

  it('grows while a stopped replica applies nothing, and keeps its newest sample however old', () => {
    const sut = new ReplicationLag(10_000);
    sut.sample(position('0-1-5'), 0);
    sut.sample(position('0-1-6'), 1_000);
    sut.sample(position('0-1-6'), 30_000);

    expect(sut.of(position('0-1-5'), 30_000)).toBe(30_000);
    expect(sut.of(position('0-1-5'), 90_000)).toBe(90_000);
  });
});
