import { LIMITS } from '@app/domain';
import { tagsLeftOut } from '../connector-extras';
import { ConnectorBlock, readConnectorBlock } from './connector-block';
import { JsonNode } from './postman-json';
import { Warnings } from './warnings';

/** Text a connector can store: well-formed UTF-16 (a lone surrogate would become U+FFFD in the database) and no NUL. */
function storable(text: string): string {
  return text.toWellFormed().replace(/\0/g, '');
}

/** At most `length` UTF-16 units, never half a surrogate pair. */
function cut(text: string, length: number): string {
  const head = text.slice(0, length);
  return head.isWellFormed() ? head : head.slice(0, -1);
}

/** The item's name as a connector's: one line of at most 100 characters; an item without one is named by its URL. */
export function connectorName(item: JsonNode, url: string, warnings: Warnings): string {
  const written = item.string('name') ?? '';
  const oneLine = storable(written).replace(/\s+/g, ' ').trim();
  const name = cut(oneLine || url, LIMITS.name);
  if (written !== '' && name !== written) {
    warnings.add(
      'NAME_SHORTENED',
      item.where,
      `The name is made one line of at most ${LIMITS.name} characters, as a connector's name is: ${JSON.stringify(name)}.`,
    );
  }
  return name;
}

/**
 * The request's description (else the item's), at most 1000 characters, null when there is none; and the output and
 * tags of an export's ```connector block at its end (connector-block.ts), which the description leaves out.
 */
export function connectorDescription(item: JsonNode, request: JsonNode, warnings: Warnings): { description: string | null; block?: ConnectorBlock } {
  const { description: written, block } = readConnectorBlock(request.description('description') ?? item.description('description') ?? '');
  if (block !== undefined && block.tagsLeft > 0) warnings.add('TAGS_LEFT_OUT', item.where, tagsLeftOut(block.tagsLeft));
  return { description: describedAs(written, item, warnings), block };
}

function describedAs(written: string, item: JsonNode, warnings: Warnings): string | null {
  const description = cut(storable(written), LIMITS.description).trim();
  if (description !== written.trim()) {
    warnings.add(
      'DESCRIPTION_SHORTENED',
      item.where,
      `The description is cut to ${LIMITS.description} characters (and any NUL or lone surrogate removed), as a connector's is.`,
    );
  }
  return description === '' ? null : description;
}
