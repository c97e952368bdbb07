/** How much of a value an error message quotes: a message must stay short whatever the request holds. */
const QUOTED_LENGTH = 100;
/** How many values an error message quotes before it only counts the rest. */
const QUOTED_VALUES = 10;

/**
 * `"a", "b", … and 190 more`: the first values of a list, each JSON-quoted and cut at 100 characters (never half a
 * surrogate pair), for an error that names what the request held (200 selectors of 1,000 characters are not a 200 KB
 * message).
 */
export function quotedList(values: readonly string[]): string {
  const quoted = values.slice(0, QUOTED_VALUES).map((value) => JSON.stringify(cut(value)));
  const rest = values.length - quoted.length;
  return rest > 0 ? `${quoted.join(', ')} and ${rest} more` : quoted.join(', ');
}

function cut(value: string): string {
  if (value.length <= QUOTED_LENGTH) return value;
  const head = value.slice(0, QUOTED_LENGTH);
  return `${/[\ud800-\udbff]$/.test(head) ? head.slice(0, -1) : head}…`;
}

/** The characters of a name a message may quote: an option's, a header's, a program's. */
const NAME_PART = /^[A-Za-z0-9._~+/-]{0,40}/;

/**
 * The name `text` starts with (at most 40 letters, digits and `.` `_` `~` `+` `/` `-`), then `…` for whatever follows:
 * how a warning or an error names an option, header or word it did not take, without quoting what may be run into
 * it (`--header=Authorization: Bearer …`, `--user=ana:secret`, a header name with its value after a blank).
 */
export function leadingName(text: string): string {
  const name = NAME_PART.exec(text)![0];
  return name.length < text.length ? `${name}…` : name;
}
