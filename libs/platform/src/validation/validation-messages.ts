import { ValidationError } from '@nestjs/common';
import { defaultMetadataStorage as storage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import { distance } from 'fastest-levenshtein';
import { quoted } from '../http/quoted';

/** class-transformer's own registry of `@Type(() => …)`, where an array's element class is declared. */
const defaultMetadataStorage = storage as { findTypeMetadata(target: Function, property: string): { typeFunction(): unknown } | undefined };

/**
 * What a person sends instead of a name this API uses, and the name it means: Spring clients page with
 * `size` and `sort`, HTTP clients say `method` (docs/api-contract.md, "Errors a person can act on").
 */
const MEANT = new Map<string, string[]>(
  Object.entries({
    size: ['linesPerPage'],
    pageSize: ['linesPerPage'],
    limit: ['linesPerPage'],
    sort: ['orderBy', 'direction'],
    order: ['direction'],
    q: ['searchTerms', 'searchTerm'],
    query: ['searchTerms', 'searchTerm'],
    search: ['searchTerms', 'searchTerm'],
    method: ['requestType'],
    verb: ['requestType'],
    endpoint: ['url'],
    uri: ['url'],
    auth: ['authType'],
    mediaType: ['contentType'],
    'content-type': ['contentType'],
  }),
);

/** Which constraint speaks for a field that fails several: presence, then its type, then the rest. */
const FIRST = ['isDefined', 'isString', 'isInt', 'isNumber', 'isBoolean', 'isArray', 'isObject', 'isIn', 'isEnum', 'isNotEmpty'];

/** A field whose value an error never quotes back: a secret may be in it. */
const SECRET_NAME = /token|secret|password|credential/i;

/** `did you mean linesPerPage?`: the name meant by a common alias, else the known name closest in spelling, if close. */
export function suggestionFor(name: string, known: readonly string[]): string | undefined {
  // A Map, not an object: a name such as `constructor` must find nothing.
  const meant = (MEANT.get(name) ?? MEANT.get(name.toLowerCase()) ?? []).filter((candidate) => known.includes(candidate));
  if (meant.length > 0) return meant.join(' and ');
  let best: { name: string; distance: number } | undefined;
  for (const candidate of known) {
    const d = distance(name.toLowerCase(), candidate.toLowerCase());
    // Two letters swapped are two edits: names of four letters or more admit two.
    const close = candidate.length < 4 ? 1 : Math.max(2, Math.floor(candidate.length / 3));
    if (d <= close && (!best || d < best.distance)) best = { name: candidate, distance: d };
  }
  return best?.name;
}

/** The names a validated class takes (its class-validator properties). */
export function validatedProperties(type: unknown): string[] {
  if (typeof type !== 'function') return [];
  return [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(type, '', true, false)
        .map((metadata) => metadata.propertyName),
    ),
  ];
}

/**
 * One message per failing field, in words a person can act on: `name is required`, `headers must be an array of
 * {header, value} (got an object)`, `requestType must be one of GET, POST, …; got "get"`, `method is not a field of
 * this body; did you mean requestType?`. A field that fails its own rules is not searched further (the errors of
 * the parts of a value of the wrong type are noise). Each name in a path is cut to the length an error may quote;
 * values are quoted back cut too, never for a field that may hold a secret.
 */
export function messagesOf(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${quoted(error.property)}` : quoted(error.property);
    const constraints = error.constraints ?? {};
    const keys = Object.keys(constraints);
    if (keys.length === 0) return messagesOf(error.children ?? [], path);
    if ('whitelistValidation' in constraints) return [unknownField(path, error)];
    if ('isDefined' in constraints) return [`${path} is required`];
    const key = FIRST.find((candidate) => candidate in constraints) ?? keys[0];
    return [plain(key, constraints[key], path, error)];
  });
}

function unknownField(path: string, error: ValidationError): string {
  const known = validatedProperties((error.target as object | undefined)?.constructor);
  const suggestion = suggestionFor(error.property, known);
  return `${path} is not a field of this body${suggestion ? `; did you mean ${suggestion}?` : ''}`;
}

function plain(key: string, message: string, path: string, error: ValidationError): string {
  // class-validator's messages start with the property's name: the path replaces it.
  const text = message.startsWith(error.property) ? `${path}${message.slice(error.property.length)}` : message;
  if (key === 'isArray') {
    const shape = elementShape(error);
    return `${path} must be an array${shape ? ` of ${shape}` : ''}${got(error)}`;
  }
  if (key === 'isIn' || key === 'isEnum') return `${text.replace(' must be one of the following values: ', ' must be one of ')}${got(error)}`;
  if (key === 'isLength' && error.value === '') return `${path} must not be empty`;
  if (['isString', 'isInt', 'isNumber', 'isBoolean', 'isObject'].includes(key)) return `${text}${got(error)}`;
  return text;
}

/** `{header, value, secret?}`: the fields of the class an array's elements are validated as, if it has one. */
function elementShape(error: ValidationError): string | undefined {
  const target = (error.target as object | undefined)?.constructor;
  if (!target) return undefined;
  const type = defaultMetadataStorage.findTypeMetadata(target, error.property)?.typeFunction();
  const names = validatedProperties(type);
  if (names.length === 0 || typeof type !== 'function') return undefined;
  // An optional field (IsOptional: a conditional validation) is written `secret?`.
  const optional = new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(type, '', true, false)
      .filter((metadata) => metadata.type === ValidationTypes.CONDITIONAL_VALIDATION)
      .map((metadata) => metadata.propertyName),
  );
  return `{${names.map((name) => (optional.has(name) ? `${name}?` : name)).join(', ')}}`;
}

/** `; got "get"` / ` (got an object)`: what was sent, cut, unless the field may hold a secret. */
function got(error: ValidationError): string {
  if (SECRET_NAME.test(error.property)) return '';
  const value: unknown = error.value;
  if (value === null) return ' (got null)';
  if (Array.isArray(value)) return ' (got an array)';
  if (typeof value === 'object') return ' (got an object)';
  if (typeof value === 'string') return `; got ${JSON.stringify(quoted(value))}`;
  if (typeof value === 'number' || typeof value === 'boolean') return `; got ${value}`;
  return '';
}
