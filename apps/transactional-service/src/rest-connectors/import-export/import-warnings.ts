import { ImportWarning } from './connector-draft';

/**
 * How many warnings an import lists: a hostile source could otherwise make one for each of 50,000 disabled headers
 * (Postman) or 350,000 `-s` (cURL), an answer of tens of megabytes.
 */
export const MAX_WARNINGS = 500;

/**
 * The warnings of one import, in the order they arose, each said once: the first `limit` are listed, the rest only
 * counted, in one last WARNINGS_CUT warning. Every importer that can be made to warn per word of its source keeps its
 * warnings here, so that they are cut alike.
 */
export class ImportWarnings<Warning extends ImportWarning = ImportWarning> {
  private readonly list: Warning[] = [];
  private readonly said = new Set<string>();

  /**
   * `whole`: the `where` of the WARNINGS_CUT warning (how the importer names its source as a whole); `limit`: how many
   * are listed (a part's own warnings, merged into the import's later, are all kept until then).
   */
  constructor(
    private readonly whole: string,
    private readonly limit = MAX_WARNINGS,
  ) {}

  push(warning: Warning): void {
    const key = `${warning.code}\u0000${warning.where}\u0000${warning.message}`;
    if (this.said.has(key)) return;
    this.said.add(key);
    if (this.list.length < this.limit) this.list.push(warning);
  }

  pushAll(other: ImportWarnings<Warning>): void {
    for (const warning of other.list) this.push(warning);
  }

  all(): ImportWarning[] {
    const cut = this.said.size - this.list.length;
    return cut === 0 ? [...this.list] : [...this.list, { code: 'WARNINGS_CUT', where: this.whole, message: `${cut} more warnings are not listed.` }];
  }
}
