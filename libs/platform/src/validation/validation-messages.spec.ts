import { suggestionFor } from './validation-messages';

describe(suggestionFor.name, () => {
  const PAGE = ['page', 'linesPerPage', 'orderBy', 'direction', 'searchTerms'];

  it('names what a Spring client or an HTTP client means by its own words', () => {
    expect(suggestionFor('size', PAGE)).toBe('linesPerPage');
    expect(suggestionFor('sort', PAGE)).toBe('orderBy and direction');
    expect(suggestionFor('method', ['name', 'requestType', 'url'])).toBe('requestType');
  });

  it('names the known name closest in spelling, in any case, when it is close', () => {
    expect(suggestionFor('linesperpage', PAGE)).toBe('linesPerPage');
    expect(suggestionFor('orderby', PAGE)).toBe('orderBy');
    expect(suggestionFor('serchTerms', PAGE)).toBe('searchTerms');
    expect(suggestionFor('colour', PAGE)).toBeUndefined();
  });

  it('finds nothing for names of Object.prototype members, and never throws for them', () => {
    for (const name of ['constructor', 'toString', 'valueOf', 'hasOwnProperty', '__proto__']) expect(suggestionFor(name, PAGE)).toBeUndefined();
  });
});

describe('a misspelt name', () => {
  it('is found with two letters swapped', () => {
    expect(suggestionFor('nmae', ['name', 'url', 'body'])).toBe('name');
    expect(suggestionFor('type', ['name', 'url', 'body'])).toBeUndefined();
  });
});
