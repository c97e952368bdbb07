import { flowCopy, tagCopy } from '../database/migrations/frozen/1796600000000-read-copies';
import { flowsReadCopies, TAG_KEY_SEPARATOR, tagReadCopy } from './connector-read-copy';

const TAGS = [
  { name: 'Stock LEVEL', nameKey: 'stock level', position: 1 },
  { name: 'ÄrGER', nameKey: 'ärger', position: 2 },
  { name: 'Shop', nameKey: 'shop', position: 0 },
];
const FLOWS = [
  { connectorUuid: 'c1', uuid: 'f3', name: 'Éclair' },
  { connectorUuid: 'c1', uuid: 'f2', name: 'cart' },
  { connectorUuid: 'c2', uuid: 'f9', name: 'Only' },
  { connectorUuid: 'c1', uuid: 'f1', name: 'Cart' },
  { connectorUuid: 'c1', uuid: 'f4', name: 'zebra' },
  { connectorUuid: 'c1', uuid: 'f5', name: '\u{1F600} emoji' },
  { connectorUuid: 'c1', uuid: 'f6', name: '\uFF21 wide' },
];

describe(tagReadCopy.name, () => {
  it('holds the tags in the writer order and their name keys joined by a line break, whatever order they come in', () => {
    expect(tagReadCopy(TAGS)).toEqual({ tagsJson: [{ name: 'Shop' }, { name: 'Stock LEVEL' }, { name: 'ÄrGER' }], tagKeys: 'shop\nstock level\närger' });
    expect(TAGS.map(({ position }) => position)).toEqual([1, 2, 0]);
  });

  it('is empty for no tags, as the columns default', () => {
    expect(tagReadCopy([])).toEqual({ tagsJson: [], tagKeys: '' });
  });

  it('joins keys by a character no search term holds: a term matches within one key', () => {
    expect(TAG_KEY_SEPARATOR).toBe('\n');
  });
});

describe(flowsReadCopies.name, () => {
  it("orders each connector's flows by lower-cased name by code point, then uuid, and gives one without flows none", () => {
    const copies = flowsReadCopies(['c1', 'c2', 'c3'], FLOWS);

    expect(copies.get('c1')!.map(({ uuid }) => uuid)).toEqual(['f1', 'f2', 'f4', 'f3', 'f6', 'f5']);
    expect(copies.get('c2')).toEqual([{ uuid: 'f9', name: 'Only' }]);
    expect(copies.get('c3')).toEqual([]);
  });
});

describe('the migration that filled the copies (its frozen rule)', () => {
  it('wrote what the app writes', () => {
    const { tagsJson, tagKeys } = tagReadCopy(TAGS);
    expect(tagCopy(TAGS)).toEqual({ tagsJson: JSON.stringify(tagsJson), tagKeys });
    const own = FLOWS.filter(({ connectorUuid }) => connectorUuid === 'c1');
    expect(flowCopy(own)).toBe(JSON.stringify(flowsReadCopies(['c1'], own).get('c1')));
  });
});
