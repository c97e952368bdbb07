import { BotNotFoundException, found, NOTHING_AT_PATH, PaginationQueryDto, RestConnectorSearchRepository, ScopeRepository, ScopeService } from '@app/domain';
import { Test } from '@nestjs/testing';
import { RestConnectorSearchService } from './rest-connector-search.service';
import { A_BOT_PATH } from './testing/connector-factories';
import { strictFake } from '../../../../test/support/strict-fake';

const PATH = A_BOT_PATH;
const ROW = { uuid: 'c1', name: 'Stock level', updatedAt: new Date('2026-11-21T09:00:00.000Z'), updatedBy: 'alice', updatedByImage: null, tags: [], flows: [] };

function aQuery(overrides: Partial<PaginationQueryDto> = {}): PaginationQueryDto {
  return { page: 1, linesPerPage: 5, orderBy: 'updatedAt', direction: 'DESC', searchTerms: [], ...overrides };
}

async function newTestService() {
  const search = strictFake(RestConnectorSearchRepository);
  const scopes = strictFake(ScopeRepository);
  scopes.lookup.mockResolvedValue({ organization: true, environment: true, bot: true });
  const module = await Test.createTestingModule({
    providers: [
      RestConnectorSearchService,
      { provide: RestConnectorSearchRepository, useValue: search },
      ScopeService,
      { provide: ScopeRepository, useValue: scopes },
    ],
  }).compile();
  return { sut: module.get(RestConnectorSearchService), search, scopes };
}

describe(RestConnectorSearchService.name, () => {
  it('asks for the page at offset (page - 1) * linesPerPage and builds the Spring page from the rows, their tags and flows', async () => {
    const { sut, search } = await newTestService();
    search.page.mockResolvedValue(found({ rows: [{ ...ROW, tags: [{ name: 'shop' }], flows: [{ uuid: 'f1', name: 'Orders' }] }], total: 11 }));

    const page = await sut.page(PATH, aQuery({ page: 3, linesPerPage: 5, searchTerms: ['st'] }));

    expect(search.page).toHaveBeenCalledWith(PATH, { searchTerms: ['st'], orderBy: 'updatedAt', direction: 'DESC', offset: 10, limit: 5 }, undefined);
    expect(page).toMatchObject({
      number: 2,
      totalPages: 3,
      totalElements: 11,
      last: true,
      content: [{ uuid: 'c1', tags: [{ name: 'shop' }], flows: [{ uuid: 'f1', name: 'Orders' }], user: { username: 'alice', image: null } }],
    });
  });

  it('answers an empty page when the bot is in scope but nothing was found', async () => {
    const { sut, search, scopes } = await newTestService();
    search.page.mockResolvedValue(NOTHING_AT_PATH);

    await expect(sut.page(PATH, aQuery())).resolves.toMatchObject({ content: [], totalElements: 0, empty: true });
    expect(scopes.lookup).toHaveBeenCalledWith(PATH, 'replica');
  });

  it("answers the scope's 404 when a link of the path is missing", async () => {
    const { sut, search, scopes } = await newTestService();
    search.suggestNames.mockResolvedValue(NOTHING_AT_PATH);
    scopes.lookup.mockResolvedValue({ organization: true, environment: true, bot: false });

    await expect(sut.suggest(PATH, { searchTerm: 'st', limit: 6 })).rejects.toBeInstanceOf(BotNotFoundException);
  });

  it('lists every connector with its tags, and asks the scope only when there are none', async () => {
    const { sut, search, scopes } = await newTestService();
    search.listActive.mockResolvedValue(found([{ uuid: 'c1', name: 'Stock level', tags: [{ name: 'shop' }], content: [] }]));

    await expect(sut.list(PATH)).resolves.toEqual({ data: [{ uuid: 'c1', name: 'Stock level', tags: [{ name: 'shop' }], content: [] }] });
    expect(scopes.lookup).not.toHaveBeenCalled();
  });

  it('answers an empty list for a bot in scope without connectors, and the 404 for one outside it', async () => {
    const { sut, search, scopes } = await newTestService();
    search.listActive.mockResolvedValue(NOTHING_AT_PATH);

    await expect(sut.list(PATH)).resolves.toEqual({ data: [] });
    scopes.lookup.mockResolvedValue({ organization: true, environment: true, bot: false });
    await expect(sut.list(PATH)).rejects.toBeInstanceOf(BotNotFoundException);
  });
});
