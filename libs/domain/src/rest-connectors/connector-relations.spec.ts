import { flowsInOrder, tagsInOrder } from './connector-relations.repository';

describe("the order of a connector's relations", () => {
  it('puts tags back in the order they were written', () => {
    expect(
      tagsInOrder([
        { position: 2, name: 'c' },
        { position: 0, name: 'a' },
        { position: 1, name: 'B' },
      ]),
    ).toEqual([{ name: 'a' }, { name: 'B' }, { name: 'c' }]);
  });

  it('orders flows by name case-insensitively, then by id', () => {
    const flows = [
      { uuid: '3', name: 'beta' },
      { uuid: '2', name: 'Alpha' },
      { uuid: '1', name: 'alpha' },
      { uuid: '0', name: 'Gamma' },
    ];

    expect(flowsInOrder(flows).map((flow) => `${flow.name}/${flow.uuid}`)).toEqual(['alpha/1', 'Alpha/2', 'beta/3', 'Gamma/0']);
  });

  it('compares lowercased names by code point, whatever a database collation would say', () => {
    const flows = [
      { uuid: '1', name: 'Éclair' },
      { uuid: '2', name: 'zeta' },
      { uuid: '3', name: 'Eclair' },
    ];

    expect(flowsInOrder(flows).map((flow) => flow.name)).toEqual(['Eclair', 'zeta', 'Éclair']);
  });
});
