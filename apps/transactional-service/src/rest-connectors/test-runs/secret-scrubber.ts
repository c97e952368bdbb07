/** A value that must never leave in a test run's answer, and what stands for it there. */
export interface SecretValue {
  value: string;
  placeholder: string;
}

/*
 * How a (hostile) far side may echo a secret, and how it is found (issue 26, issue 38).
 *
 * Forms of the whole value: as it is and reversed, the hex of its UTF-8 bytes, and the Base64 of its UTF-8 bytes
 * (standard padded and unpadded, URL-safe unpadded and padded, and within a longer Base64 text: `base64Core`).
 * Each character of a form may then be written, independently of the others: as it is or in another letter case;
 * as a JSON escape (`\uXXXX` in any hex case, surrogate pairs for astral characters, `\"`, `\\`, `\/`, `\b`,
 * `\f`, `\n`, `\r`, `\t`); percent-encoded (its UTF-8 bytes as `%XX`, any hex case); form-encoded (`+` for a space).
 *
 * So the text is not searched as it is: at each position it is read both as the character there and, where an
 * escape starts (`\` or `%`), as the character that escape stands for; both readings are followed, so a literal
 * `\` or `%` right before an echo cannot hide it, and a secret made of `\`, `%`, `+` or regex metacharacters is
 * no special case. Case is folded on both sides, and `+` and space count as one character (form-encoding).
 *
 * The readings are followed in a trie of the forms by a DFA built lazily over sets of trie nodes: one table
 * lookup per character once warm, cached across the texts of a run, bounded in size (flushed when full).
 * Nothing backtracks: a position is read once, or twice where a secret shows: from one longest spelling before
 * the end of a piece, the text is read again with each node carrying the earliest start of a reading that
 * reached it, until no reading is left alive. Forms longer than CHUNK are matched as consecutive pieces (the
 * last one overlapping) that join up again, so the trie stays shallow and the cost per position stays bounded
 * by the pieces' length however long, or however ambiguous (all `\` or `%25`), a secret is.
 *
 * Parts at either end of a form (SecretRuns): its first or last units, at least RUN_UNITS.value of the value or of its
 * reverse, RUN_UNITS.hex hex digits, RUN_UNITS.base64 characters of a Base64 form: a half, an echo cut short, a tail,
 * the hex or Base64 of one. Matching every such part in the DFA would make the trie as bushy as the text is varied,
 * so they are found apart, in linear time: by a rolling hash of the last units of the text read three ways (as it
 * is, with its JSON escapes decoded, with every escape decoded: a part is one piece of an honest echo, in one
 * encoding), then followed forwards or backwards with Knuth-Morris-Pratt. Parts from the middle of a form are
 * not matched: that would make a far side's echo of the caller's text (and the stored-secret screen, which must
 * refuse whatever scrubbing would change) tell whether 8 characters stand anywhere in the secret, and a known
 * part could be slid on one character at a time, as a JWT's predictable header would start it; a part anchored at
 * an end has to be guessed whole.
 *
 * A far side that transforms a secret otherwise (a part from its middle or shorter than those, a mix of encodings
 * within a part, one character in two, a cipher, any encoding not listed) can still show it to whoever reads its
 * answer: scrubbing covers what servers echo, not what a server that wants to leak the secret can do.
 */

/** Trie depth bound: a form longer than this is matched as consecutive pieces of about this length. */
const CHUNK = 64;
/** Node ids: piece * STRIDE + depth (a piece is at most CHUNK + 1 units). */
const STRIDE = CHUNK + 2;
/** Positions ahead an escape can end: the longest is 12 characters (4 UTF-8 bytes percent-encoded). */
const RING = 16;
/** The longest text a piece can be spelled in: each unit at most 9 characters (3 UTF-8 bytes percent-encoded). */
const MAX_SPAN = 9 * (CHUNK + 1);
const RING_MASK = RING - 1;
const BACKSLASH = 0x5c;
const PERCENT = 0x25;
/** Bound on a DFA's transitions (entries of each table, and of their links): a few MB; beyond, it is flushed and rebuilt as needed. */
const TABLE_BUDGET = 1 << 18;

let foldTable: Uint16Array | undefined;
const NO_OTHER = new Uint8Array(0x2000);
const EMPTY = new Int32Array(0);

/**
 * One code unit per case-insensitive class (lower case of the upper case, where both stay one unit: `ſ`, `K`
 * (Kelvin) and `k` fold together), and `+` folded to space. Built once per process (about 10 ms).
 */
function fold(): Uint16Array {
  if (foldTable) return foldTable;
  const table = new Uint16Array(0x10000);
  for (let unit = 0; unit < 0x10000; unit++) {
    table[unit] = unit;
    // CJK, Hangul, surrogates and private use have no case: most of the table, left as it is.
    if ((unit >= 0x3400 && unit <= 0x9fff) || (unit >= 0xac00 && unit <= 0xf8ff)) continue;
    const char = String.fromCharCode(unit);
    const upper = char.toUpperCase();
    const lower = (upper.length === 1 ? upper : char).toLowerCase();
    if (lower.length === 1) table[unit] = lower.charCodeAt(0);
  }
  // A class's members must all land on one unit: settle the few mappings that need a second step.
  for (let unit = 0; unit < 0x10000; unit++) table[unit] = table[table[unit]];
  table[0x2b] = 0x20;
  return (foldTable = table);
}

/**
 * The shortest value whose derived forms (its reverse, hex and Base64; a Basic token's password alone) are matched
 * too: those of a shorter one are so short (`a` is `YQ`) that matching them, in any letter case, would replace
 * ordinary text all over an answer, while such a value protects nothing.
 */
export const MIN_DERIVED_LENGTH = 4;

/** The shortest Base64 core matched: shorter, it would match ordinary text (it is matched in any letter case too). */
export const MIN_CORE_LENGTH = 12;

/**
 * The Base64 characters that the value's bytes alone decide when they stand at `offset` (0-2) bytes into a
 * 3-byte group of a longer Base64 text (`Bearer <token>` encoded, a JWT's payload): the characters shared with
 * the bytes around are left out.
 */
export function base64Core(bytes: Buffer, offset: number): string {
  const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString('base64');
  return encoded.slice([0, 2, 3][offset], 4 * Math.floor((offset + bytes.length) / 3));
}

/** The shortest part at either end of a form matched on its own, in UTF-16 units: of the value and its reverse, of hex digits, of Base64. */
export const RUN_UNITS = { value: 8, hex: 16, base64: MIN_CORE_LENGTH } as const;

/** The forms of a value, each with the shortest part of it matched (see the header), the whole value first. */
function formsOf(value: string): { form: string; run: number }[] {
  if (value.length < MIN_DERIVED_LENGTH) return [{ form: value, run: RUN_UNITS.value }];
  const bytes = Buffer.from(value, 'utf8');
  const base64 = bytes.toString('base64');
  const unpadded = base64.replace(/=+$/, '');
  const url = bytes.toString('base64url');
  const cores = [0, 1, 2].map((offset) => base64Core(bytes, offset)).filter((core) => core.length >= MIN_CORE_LENGTH);
  const urlSafe = (text: string) => text.replaceAll('+', '-').replaceAll('/', '_');
  const base64Forms = new Set([base64, unpadded, url, url + base64.slice(unpadded.length), ...cores, ...cores.map(urlSafe)]);
  return [
    { form: value, run: RUN_UNITS.value },
    { form: [...value].reverse().join(''), run: RUN_UNITS.value },
    { form: bytes.toString('hex'), run: RUN_UNITS.hex },
    ...[...base64Forms].map((form) => ({ form, run: RUN_UNITS.base64 })),
  ];
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * The pieces a form is matched as: itself up to CHUNK units, else consecutive pieces of about CHUNK, the last
 * one ending with the form (overlapping the one before); a boundary never splits a surrogate pair, which an
 * echo may percent-encode as one character.
 */
function piecesOf(form: string): string[] {
  if (form.length <= CHUNK) return [form];
  const boundary = (at: number) => (at > 0 && at < form.length && isLow(form.charCodeAt(at)) && isHigh(form.charCodeAt(at - 1)) ? at + 1 : at);
  const pieces: string[] = [];
  for (let start = 0; start + CHUNK < form.length; start += CHUNK) pieces.push(form.slice(boundary(start), boundary(start + CHUNK)));
  const last = form.length - CHUNK;
  pieces.push(form.slice(boundary(last) === last ? last : last - 1));
  return pieces;
}

const hexDigit = (code: number): number => {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  const lower = code | 0x20;
  return lower >= 0x61 && lower <= 0x66 ? lower - 0x57 : -1;
};

/** The value of the two hex digits at `at`, or -1. */
function hexByte(text: string, at: number): number {
  const high = hexDigit(text.charCodeAt(at));
  const low = hexDigit(text.charCodeAt(at + 1));
  return high < 0 || low < 0 ? -1 : (high << 4) | low;
}

/** JSON's short escapes: the character after `\` to what it stands for (-1: none). */
const SHORT_ESCAPES = new Int32Array(128).fill(-1);
for (const [after, unit] of [
  [0x22, 0x22],
  [0x5c, 0x5c],
  [0x2f, 0x2f],
  [0x62, 0x08],
  [0x66, 0x0c],
  [0x6e, 0x0a],
  [0x72, 0x0d],
  [0x74, 0x09],
])
  SHORT_ESCAPES[after] = unit;

/** The escape last decoded by `escapeAt`: its unit, the second unit of a surrogate pair (or -1), its length. */
let escapeUnit = 0;
let escapeSecond = -1;
let escapeLength = 0;

/**
 * Whether an escape (JSON after `\`, percent-encoded UTF-8 after `%`) starts at `at`; if so, it is in
 * escapeUnit/escapeSecond/escapeLength. UTF-8 is read leniently (overlong forms, encoded surrogates): a far side
 * writing those gets more scrubbed, never less.
 */
// eslint-disable-next-line complexity -- a scanner: one branch per escape form and UTF-8 length, read in one pass.
function escapeAt(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  escapeSecond = -1;
  if (code === BACKSLASH) {
    const after = text.charCodeAt(at + 1);
    const short = after < 128 ? SHORT_ESCAPES[after] : -1;
    if (short >= 0) {
      escapeUnit = short;
      escapeLength = 2;
      return true;
    }
    if (after !== 0x75) return false;
    const high = hexByte(text, at + 2);
    const low = hexByte(text, at + 4);
    if (high < 0 || low < 0) return false;
    escapeUnit = (high << 8) | low;
    escapeLength = 6;
    return true;
  }
  if (code !== PERCENT) return false;
  const lead = hexByte(text, at + 1);
  if (lead < 0) return false;
  const more = lead < 0x80 ? 0 : lead >= 0xc0 && lead <= 0xdf ? 1 : lead >= 0xe0 && lead <= 0xef ? 2 : lead >= 0xf0 && lead <= 0xf4 ? 3 : -1;
  if (more < 0) return false;
  let point = more === 0 ? lead : lead & (0x3f >> more);
  for (let i = 1; i <= more; i++) {
    const offset = at + 3 * i;
    const byte = text.charCodeAt(offset) === PERCENT ? hexByte(text, offset + 1) : -1;
    if (byte < 0x80 || byte > 0xbf) return false;
    point = (point << 6) | (byte & 0x3f);
  }
  if (point > 0x10ffff) return false;
  escapeLength = 3 * (more + 1);
  if (point < 0x10000) escapeUnit = point;
  else {
    escapeUnit = 0xd800 + ((point - 0x10000) >> 10);
    escapeSecond = 0xdc00 + ((point - 0x10000) & 0x3ff);
  }
  return true;
}

/**
 * The pieces of every form, folded, sorted and without duplicates: a trie without nodes of its own. A node is
 * (the first piece with its prefix, depth), and its child by a unit is found by binary search, which is only
 * done when the DFA meets a new set of nodes. Memory stays that of the pieces' units, whatever their length.
 */
class Pieces {
  readonly count: number;
  readonly units: Uint16Array;
  readonly offsets: Int32Array;
  readonly labels: Int32Array;
  /** Units each piece shares with the one sorted before it: where it is alone below a node, a child is one comparison. */
  private readonly shared: Uint8Array;

  constructor(labelled: Map<string, number>) {
    const sorted = [...labelled.keys()].sort();
    this.count = sorted.length;
    this.offsets = new Int32Array(sorted.length + 1);
    sorted.forEach((piece, index) => (this.offsets[index + 1] = this.offsets[index] + piece.length));
    this.units = new Uint16Array(this.offsets[sorted.length]);
    this.labels = new Int32Array(sorted.length);
    sorted.forEach((piece, index) => {
      for (let at = 0; at < piece.length; at++) this.units[this.offsets[index] + at] = piece.charCodeAt(at);
      this.labels[index] = labelled.get(piece)!;
    });
    this.shared = new Uint8Array(sorted.length);
    for (let index = 1; index < sorted.length; index++) {
      const [before, piece] = [sorted[index - 1], sorted[index]];
      let common = 0;
      while (common < piece.length && common < before.length && piece.charCodeAt(common) === before.charCodeAt(common)) common++;
      this.shared[index] = common;
    }
  }

  length(piece: number): number {
    return this.offsets[piece + 1] - this.offsets[piece];
  }

  /** The node's label when a piece ends there, else -1. */
  terminal(node: number): number {
    const piece = (node / STRIDE) | 0;
    return this.length(piece) === node - piece * STRIDE ? this.labels[piece] : -1;
  }

  /** The child of `node` by `unit`, or -1. */
  child(node: number, unit: number): number {
    const piece = (node / STRIDE) | 0;
    const depth = node - piece * STRIDE;
    if (depth > 0 && (piece + 1 === this.count || this.shared[piece + 1] < depth)) {
      // The only piece below this node: deep in the trie, nearly always.
      return this.length(piece) > depth && this.units[this.offsets[piece] + depth] === unit ? piece * STRIDE + depth + 1 : -1;
    }
    let low = piece;
    let high = this.count;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.before(middle, piece, depth, unit)) low = middle + 1;
      else high = middle;
    }
    if (low === this.count || this.length(low) <= depth || this.units[this.offsets[low] + depth] !== unit) return -1;
    for (let at = 0; at < depth; at++) if (this.units[this.offsets[low] + at] !== this.units[this.offsets[piece] + at]) return -1;
    return low * STRIDE + depth + 1;
  }

  /** Whether piece `other` (at or after `piece`) sorts before `piece`'s first `depth` units followed by `unit`. */
  private before(other: number, piece: number, depth: number, unit: number): boolean {
    const { units, offsets } = this;
    for (let at = 0; at < depth; at++) {
      if (at >= this.length(other)) return true;
      const difference = units[offsets[other] + at] - units[offsets[piece] + at];
      if (difference !== 0) return difference < 0;
    }
    return this.length(other) <= depth || units[offsets[other] + depth] < unit;
  }
}

/**
 * Replaces every occurrence of every secret, in each of its forms, by its placeholder: what the far side
 * echoes (an `Authorization` header sent back, a token in a body) never reaches the caller. Built once per test
 * run from its secrets, then applied to every text of its answer (not reentrant: one text at a time).
 *
 * Occurrences that overlap are replaced as one span (their placeholders in order, a repeat side by side shown
 * once), so neither leaves a fragment; one inside another (a secret that contains another) shows the outer
 * one's placeholder.
 */
export class SecretScrubber {
  private readonly fold = fold();
  private readonly placeholders: string[];
  private readonly pieces: Pieces;
  /** Unit classes of the pieces' units: ASCII in a table, others in a map behind a bitmap. Class 0: in no piece. */
  private readonly asciiClass = new Int32Array(128);
  /** The class of an ASCII character as it is in the text (folded first). */
  private readonly rawAsciiClass = new Int32Array(128);
  private readonly otherClass = new Map<number, number>();
  /** Bitmap of the non-ASCII units in `otherClass`; shared and empty while there are none. */
  private hasOther: Uint8Array = NO_OTHER;
  private readonly classUnit: number[] = [-1];
  private readonly width: number;
  private readonly stateLimit: number;
  private readonly runs: SecretRuns;

  /**
   * DFA states: sorted sets of trie nodes (the root always implied); state 0 has none. While reading, each node
   * carries the earliest start of a reading that reached it, in an array beside the state (same order). The
   * loop holds a state as its row in the tables, doubled, plus 1 when a piece ends at one of its nodes: the
   * next state is then one addition and one load away (`hold` and `idOf` convert).
   */
  private sets: Int32Array[] = [];
  private ids = new Map<string, number>();
  /** Per state: whether a piece ends at one of its nodes, then pairs (index in the set, label). */
  private ending = new Uint8Array(64);
  private endings: Int32Array[] = [];
  /**
   * Transitions, by state id * width + class: the next state (as the loop holds it, -1 while not computed);
   * its size; and where, in `links`, its nodes say which node of the source each came from (-1: the root, a
   * reading starting there).
   */
  private table: Int32Array;
  private tableSize: Int32Array;
  private tableFrom: Int32Array;
  private links = new Int32Array(1024);
  private linked = 0;
  /** Unions of two states (readings of different lengths landing on one position): the same, for both sides. */
  private unions = new Map<number, { target: number; left: Int32Array; right: Int32Array }>();

  /** Starts of the current state and the next one; what escapes bring to positions ahead; scratch for escapes and unions. */
  private current: Int32Array = EMPTY;
  private following: Int32Array = EMPTY;
  private readonly pendingStates = new Int32Array(RING);
  private readonly pendingStarts: Int32Array[] = new Array<Int32Array>(RING).fill(EMPTY);
  private escaped: Int32Array = EMPTY;
  private stepped: Int32Array = EMPTY;
  private merged: Int32Array = EMPTY;

  constructor(secrets: readonly SecretValue[]) {
    // The longer value first: where two forms cover exactly the same span, the longer secret's placeholder shows.
    // A label is a placeholder: the parts of two secrets that share one (a Basic token's pair and password) join up.
    const ordered = secrets.filter((secret) => secret.value.length > 0).sort((a, b) => b.value.length - a.value.length);
    this.placeholders = [...new Set(ordered.map((secret) => secret.placeholder))];
    const labelled = new Map<string, number>();
    const runs: { form: string; run: number; label: number }[] = [];
    for (const { value, placeholder } of ordered) {
      const label = this.placeholders.indexOf(placeholder);
      for (const { form, run } of formsOf(value)) {
        for (const piece of piecesOf(form)) {
          const folded = this.folded(piece);
          if (!labelled.has(folded)) labelled.set(folded, label);
        }
        const foldedForm = this.folded(form);
        // One form once (a palindrome's reverse, Base64 without `+` or `/` in either alphabet), the longer secret's.
        if (form.length > run && !runs.some((known) => known.form === foldedForm)) runs.push({ form: foldedForm, run, label });
      }
    }
    this.runs = new SecretRuns(runs, this.fold);
    this.pieces = new Pieces(labelled);
    const { units } = this.pieces;
    for (let at = 0; at < units.length; at++) {
      const unit = units[at];
      if (this.classOf(unit) !== 0) continue;
      const index = this.classUnit.length;
      this.classUnit.push(unit);
      if (unit < 128) this.asciiClass[unit] = index;
      else {
        if (this.hasOther === NO_OTHER) this.hasOther = new Uint8Array(0x2000);
        this.otherClass.set(unit, index);
        this.hasOther[unit >> 3] |= 1 << (unit & 7);
      }
    }
    for (let code = 0; code < 128; code++) this.rawAsciiClass[code] = this.classOf(this.fold[code]);
    this.width = this.classUnit.length;
    this.stateLimit = Math.max(64, Math.floor(TABLE_BUDGET / this.width));
    // Room for a few states to start with, however many different characters the secrets hold; it grows.
    const rows = Math.max(2, Math.min(16, Math.floor(0x10000 / this.width)));
    this.table = new Int32Array(this.width * rows);
    this.tableSize = new Int32Array(this.width * rows);
    this.tableFrom = new Int32Array(this.width * rows);
    this.reset();
  }

  /**
   * Every occurrence of every secret, in every form, and of every part at either end of a form, replaced by its
   * placeholder. Most of a text holds none: the DFA alone finds where a piece ends; only then are starts followed,
   * from one longest spelling before that end until no reading is left alive, and the DFA alone goes on from there.
   * Parts are found apart (SecretRuns), and their spans join the DFA's.
   */
  text(text: string): string {
    if (this.pieces.count === 0 || text.length === 0) return text;
    const spans = new Spans();
    this.runs.find(text, spans);
    let end = this.nextEnd(text, 0);
    if (end < 0) return spans.apply(text, this.placeholders);
    // Before `done`, every reading has ended: the DFA may start afresh there.
    let done = 0;
    while (end >= 0) {
      done = this.locate(text, Math.max(done, end - MAX_SPAN), end, spans);
      end = done < text.length ? this.nextEnd(text, done) : -1;
    }
    return spans.apply(text, this.placeholders);
  }

  /** Where the next piece ends in `text` (any reading starting at or after `from`), or -1: the DFA alone. */
  private nextEnd(text: string, from: number): number {
    const n = text.length;
    const { fold, rawAsciiClass, hasOther, pendingStates } = this;
    pendingStates.fill(0);
    let waiting = 0;
    let state = 0;
    let table = this.table;
    for (let p = from; ; p++) {
      if (waiting !== 0 && pendingStates[p & RING_MASK] !== 0) {
        const slot = p & RING_MASK;
        if (this.full()) state = this.flush(state);
        state = this.unite(this.idOf(state), pendingStates[slot]);
        pendingStates[slot] = 0;
        waiting--;
        table = this.table;
      }
      if ((state & 1) !== 0) return p;
      if (p === n) return -1;
      const code = text.charCodeAt(p);
      if ((code === BACKSLASH || code === PERCENT) && escapeAt(text, p)) {
        if (this.full()) state = this.flush(state);
        const to = (p + escapeLength) & RING_MASK;
        const second = escapeSecond;
        let escaped = this.idOf(this.step(this.idOf(state), this.classOf(fold[escapeUnit])));
        if (second >= 0 && escaped !== 0) escaped = this.idOf(this.step(escaped, this.classOf(fold[second])));
        if (escaped !== 0) {
          if (pendingStates[to] === 0) waiting++;
          pendingStates[to] = this.idOf(this.unite(pendingStates[to], escaped));
        }
        table = this.table;
      }
      let cls = 0;
      if (code < 128) cls = rawAsciiClass[code];
      else {
        const unit = fold[code];
        if (unit < 128 || (hasOther[unit >> 3] & (1 << (unit & 7))) !== 0) cls = this.classOf(unit);
      }
      let next = table[(state >> 1) + cls];
      if (next < 0) {
        if (this.full()) state = this.flush(state);
        next = this.record(this.idOf(state), cls);
        table = this.table;
      }
      state = next;
    }
  }

  /**
   * The spans of the readings that start at or after `from` and end up to `end` and then on, until no reading is
   * alive past `end`: the DFA again, each node with its earliest start. Where it stopped.
   */
  // eslint-disable-next-line complexity -- the DFA's inner loop: one branch per character class, kept in one function for speed.
  private locate(text: string, from: number, end: number, spans: Spans): number {
    const n = text.length;
    const { fold, rawAsciiClass, hasOther, pendingStates } = this;
    pendingStates.fill(0);
    let waiting = 0;
    let state = 0;
    // The hot loop works on locals (no closure over them, so they stay in registers); every call that may grow
    // or flush the DFA is followed by reloading them.
    let { table, tableSize, tableFrom, links } = this;
    let current = this.current;
    let following = this.following;
    for (let p = from; ; p++) {
      if (waiting !== 0 && pendingStates[p & RING_MASK] !== 0) {
        const slot = p & RING_MASK;
        if (this.full()) state = this.flush(state);
        state = this.join(this.idOf(state), current, pendingStates[slot], this.pendingStarts[slot]);
        [current, this.merged] = [this.merged, current];
        pendingStates[slot] = 0;
        waiting--;
        ({ table, tableSize, tableFrom, links } = this);
      }
      if ((state & 1) !== 0) {
        const endings = this.endings[this.idOf(state)];
        for (let i = 0; i < endings.length; i += 2) spans.add(current[endings[i]], p, endings[i + 1]);
      }
      if ((state === 0 && waiting === 0 && p >= end) || p === n) {
        this.current = current;
        this.following = following;
        return p;
      }
      const code = text.charCodeAt(p);
      if ((code === BACKSLASH || code === PERCENT) && escapeAt(text, p)) {
        if (this.full()) state = this.flush(state);
        if (this.escape(this.idOf(state), current, p)) waiting++;
        ({ table, tableSize, tableFrom, links } = this);
      }
      let cls = 0;
      if (code < 128) cls = rawAsciiClass[code];
      else {
        const unit = fold[code];
        if (unit < 128 || (hasOther[unit >> 3] & (1 << (unit & 7))) !== 0) cls = this.classOf(unit);
      }
      let at = (state >> 1) + cls;
      let next = table[at];
      if (next < 0) {
        if (this.full()) {
          state = this.flush(state);
          at = (state >> 1) + cls;
        }
        next = this.record(this.idOf(state), cls);
        ({ table, tableSize, tableFrom, links } = this);
      }
      if (next !== 0) {
        // Each node's earliest start follows it from the node it came from; a new reading starts at p.
        const size = tableSize[at];
        const from = tableFrom[at];
        if (size > following.length) following = new Int32Array(size * 2);
        for (let i = 0; i < size; i++) {
          const source = links[from + i];
          following[i] = source < 0 ? p : current[source];
        }
        const swap = current;
        current = following;
        following = swap;
      }
      state = next;
    }
  }

  /**
   * A parsed JSON value (from JSON.parse) with every string and every object key scrubbed, and every number whose
   * text is a secret's replaced by the placeholder: a new value, the input untouched. Walked with a queue, not
   * recursion, whatever its depth. Two keys that scrub to the same text keep the later one's value, as JSON.parse
   * does with duplicate keys.
   */
  value<T>(value: T): T {
    const queue: [unknown, unknown][] = [];
    const shallow = (item: unknown): unknown => {
      if (typeof item === 'string') return this.text(item);
      if (typeof item === 'number') {
        const text = String(item);
        const scrubbed = this.text(text);
        return scrubbed === text ? item : scrubbed;
      }
      if (typeof item !== 'object' || item === null) return item;
      const copy = Array.isArray(item) ? [] : {};
      queue.push([item, copy]);
      return copy;
    };
    const result = shallow(value);
    for (let pair = queue.pop(); pair !== undefined; pair = queue.pop()) {
      const [source, copy] = pair;
      if (Array.isArray(source)) {
        for (const item of source) (copy as unknown[]).push(shallow(item));
        continue;
      }
      for (const [key, item] of Object.entries(source as Record<string, unknown>)) {
        const scrubbedKey = this.text(key);
        const scrubbedItem = shallow(item);
        // `__proto__` is an own key in parsed JSON; assigning it would set the copy's prototype instead.
        if (scrubbedKey === '__proto__')
          Object.defineProperty(copy, scrubbedKey, { value: scrubbedItem, writable: true, enumerable: true, configurable: true });
        else (copy as Record<string, unknown>)[scrubbedKey] = scrubbedItem;
      }
    }
    return result as T;
  }

  /** `piece` with every unit folded. */
  private folded(piece: string): string {
    // ASCII folds to lower case, `+` to space; the table is for the rest.
    if (/^[\x00-\x7f]*$/.test(piece)) return piece.toLowerCase().replaceAll('+', ' ');
    let folded = '';
    for (let at = 0; at < piece.length; at++) folded += String.fromCharCode(this.fold[piece.charCodeAt(at)]);
    return folded;
  }

  private classOf(unit: number): number {
    if (unit < 128) return this.asciiClass[unit];
    return (this.hasOther[unit >> 3] & (1 << (unit & 7))) === 0 ? 0 : this.otherClass.get(unit)!;
  }

  /** `buffer`, or a larger one when it cannot hold `size`. */
  private fit(buffer: Int32Array, size: number): Int32Array {
    return buffer.length >= size ? buffer : new Int32Array(size * 2);
  }

  /** Whether the DFA reached its budget: checked before anything that may add a state. */
  private full(): boolean {
    return this.sets.length >= this.stateLimit || this.linked > TABLE_BUDGET;
  }

  /** State `id` as the loop holds it. */
  private hold(id: number): number {
    return id * this.width * 2 + this.ending[id];
  }

  /** The id of a state as the loop holds it. */
  private idOf(state: number): number {
    return ((state >> 1) / this.width) | 0;
  }

  /** An empty DFA: state 0 only. */
  private reset(): void {
    this.sets = [];
    this.endings = [];
    this.ids.clear();
    this.unions.clear();
    this.table.fill(-1);
    this.linked = 0;
    this.intern(new Int32Array(0));
  }

  /** The DFA is full: emptied, the states in use (current and pending: same sets, so same starts) carried over. */
  private flush(state: number): number {
    const carried = this.sets[this.idOf(state)];
    const pending = Array.from(this.pendingStates, (id) => this.sets[id]);
    this.reset();
    pending.forEach((set, slot) => (this.pendingStates[slot] = this.intern(set)));
    return this.hold(this.intern(carried));
  }

  /** The id of a set of nodes, added if new. */
  private intern(set: Int32Array): number {
    const key = set.join(',');
    const known = this.ids.get(key);
    if (known !== undefined) return known;
    const id = this.sets.length;
    this.sets.push(set);
    this.ids.set(key, id);
    const endings: number[] = [];
    for (let index = 0; index < set.length; index++) {
      const label = this.pieces.terminal(set[index]);
      if (label >= 0) endings.push(index, label);
    }
    this.endings.push(endings.length === 0 ? EMPTY : Int32Array.from(endings));
    if (id >= this.ending.length) {
      const ending = new Uint8Array(this.ending.length * 2);
      ending.set(this.ending);
      this.ending = ending;
    }
    this.ending[id] = endings.length === 0 ? 0 : 1;
    if ((id + 1) * this.width > this.table.length) {
      const size = Math.min(this.table.length * 2, (this.stateLimit + 2 * RING + 8) * this.width);
      const table = new Int32Array(size).fill(-1);
      table.set(this.table);
      this.table = table;
      const sizes = new Int32Array(size);
      sizes.set(this.tableSize);
      this.tableSize = sizes;
      const froms = new Int32Array(size);
      froms.set(this.tableFrom);
      this.tableFrom = froms;
    }
    return id;
  }

  /** The transition of state `id` by class `cls`, computed and cached: the next state as the loop holds it. */
  private record(id: number, cls: number): number {
    const at = id * this.width + cls;
    let next = 0;
    if (cls !== 0) {
      const unit = this.classUnit[cls];
      const set = this.sets[id];
      const nodes: number[] = [];
      const sources: number[] = [];
      // A node has one parent, so children of different nodes differ. Kept sorted as they come (sets are small).
      for (let index = -1; index < set.length; index++) {
        const child = this.pieces.child(index < 0 ? 0 : set[index], unit);
        if (child < 0) continue;
        let to = nodes.length;
        nodes.push(child);
        sources.push(index);
        for (; to > 0 && nodes[to - 1] > child; to--) {
          nodes[to] = nodes[to - 1];
          sources[to] = sources[to - 1];
        }
        nodes[to] = child;
        sources[to] = index;
      }
      if (nodes.length > 0) {
        const target = this.intern(Int32Array.from(nodes));
        if (this.linked + nodes.length > this.links.length) {
          const links = new Int32Array(Math.max(this.links.length * 2, this.linked + nodes.length));
          links.set(this.links.subarray(0, this.linked));
          this.links = links;
        }
        for (let i = 0; i < sources.length; i++) this.links[this.linked + i] = sources[i];
        this.tableFrom[at] = this.linked;
        this.tableSize[at] = nodes.length;
        this.linked += nodes.length;
        next = this.hold(target);
      }
    }
    this.table[at] = next;
    return next;
  }

  /**
   * The escape just decoded at p, read from state `id` (starts in `starts`): what it leads to waits in the ring
   * for the position where the escape ends. Whether a position started waiting.
   */
  private escape(id: number, starts: Int32Array, p: number): boolean {
    const { fold, pendingStates } = this;
    const second = escapeSecond;
    const to = (p + escapeLength) & RING_MASK;
    let escaped = this.move(id, this.classOf(fold[escapeUnit]), p, starts);
    if (second >= 0 && escaped !== 0) escaped = this.move(escaped, this.classOf(fold[second]), p, this.escaped);
    if (escaped === 0) return false;
    if (pendingStates[to] === 0) {
      const size = this.sets[escaped].length;
      const waitingStarts = (this.pendingStarts[to] = this.fit(this.pendingStarts[to], size));
      for (let i = 0; i < size; i++) waitingStarts[i] = this.escaped[i];
      pendingStates[to] = escaped;
      return true;
    }
    pendingStates[to] = this.idOf(this.join(pendingStates[to], this.pendingStarts[to], escaped, this.escaped));
    [this.pendingStarts[to], this.merged] = [this.merged, this.pendingStarts[to]];
    return false;
  }

  /** The transition of state `id` by class `cls` (as the loop holds states). */
  private step(id: number, cls: number): number {
    const next = this.table[id * this.width + cls];
    return next >= 0 ? next : this.record(id, cls);
  }

  /** The union of states `left` and `right` (ids), as the loop holds states. */
  private unite(left: number, right: number): number {
    if (left === right || right === 0) return this.hold(left);
    if (left === 0) return this.hold(right);
    return this.hold(this.union(left, right).target);
  }

  /** The union of two different, non-empty states: its id, and where each of its nodes is in either. */
  private union(left: number, right: number): { target: number; left: Int32Array; right: Int32Array } {
    const key = left * 0x100000 + right;
    let union = this.unions.get(key);
    if (union === undefined) {
      const a = this.sets[left];
      const b = this.sets[right];
      const nodes: number[] = [];
      const fromLeft: number[] = [];
      const fromRight: number[] = [];
      for (let i = 0, j = 0; i < a.length || j < b.length;) {
        const node = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i] : b[j];
        nodes.push(node);
        fromLeft.push(i < a.length && a[i] === node ? i++ : -1);
        fromRight.push(j < b.length && b[j] === node ? j++ : -1);
      }
      union = { target: this.intern(Int32Array.from(nodes)), left: Int32Array.from(fromLeft), right: Int32Array.from(fromRight) };
      this.unions.set(key, union);
    }
    return union;
  }

  /** One step of an escape's reading from state `id` (starts in `starts`): the next state's id, its starts in `escaped`. */
  private move(id: number, cls: number, p: number, starts: Int32Array): number {
    const at = id * this.width + cls;
    let next = this.table[at];
    if (next < 0) next = this.record(id, cls);
    if (next === 0) return 0;
    const size = this.tableSize[at];
    const from = this.tableFrom[at];
    const out = this.fit(this.stepped, size);
    for (let i = 0; i < size; i++) {
      const source = this.links[from + i];
      out[i] = source < 0 ? p : starts[source];
    }
    this.stepped = this.escaped;
    this.escaped = out;
    return this.idOf(next);
  }

  /**
   * The union of states `left` and `right` (ids) with their starts, the earlier where both hold a node: its
   * starts in `merged`, the state returned as the loop holds it.
   */
  private join(left: number, leftStarts: Int32Array, right: number, rightStarts: Int32Array): number {
    if (left === 0 && right !== 0) return this.join(right, rightStarts, left, leftStarts);
    if (right === 0 || left === right) {
      const size = this.sets[left].length;
      const merged = (this.merged = this.fit(this.merged, size));
      for (let i = 0; i < size; i++) merged[i] = right !== 0 && rightStarts[i] < leftStarts[i] ? rightStarts[i] : leftStarts[i];
      return this.hold(left);
    }
    const union = this.union(left, right);
    const fromLeft = union.left;
    const fromRight = union.right;
    const size = fromLeft.length;
    const merged = (this.merged = this.fit(this.merged, size));
    for (let i = 0; i < size; i++) {
      const l = fromLeft[i];
      const r = fromRight[i];
      merged[i] = l < 0 || (r >= 0 && rightStarts[r] < leftStarts[l]) ? rightStarts[r] : leftStarts[l];
    }
    return this.hold(union.target);
  }
}

/**
 * The spans to replace, in any order; applied in the order of their ends, kept sorted by start, none inside
 * another, and one span per placeholder where pieces of a form (or two echoes) overlap or touch.
 */
class Spans {
  private readonly added: { start: number; end: number; label: number }[] = [];
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];
  private readonly labels: number[] = [];

  add(start: number, end: number, label: number): void {
    this.added.push({ start, end, label });
  }

  apply(text: string, placeholders: readonly string[]): string {
    // Stable: spans with one end keep the order they were found in.
    for (const { start, end, label } of this.added.sort((a, b) => a.end - b.end)) this.merge(start, end, label);
    const { starts, ends, labels } = this;
    if (starts.length === 0) return text;
    const parts: string[] = [];
    let done = 0;
    for (let i = 0; i < starts.length;) {
      parts.push(text.slice(done, starts[i]), placeholders[labels[i]]);
      let end = ends[i];
      for (i++; i < starts.length && starts[i] < end; i++) {
        if (labels[i] !== labels[i - 1]) parts.push(placeholders[labels[i]]);
        end = ends[i];
      }
      done = end;
    }
    parts.push(text.slice(done));
    return parts.join('');
  }

  /** One span more, none of those before ending after it. */
  private merge(start: number, end: number, label: number): void {
    const { starts, ends, labels } = this;
    let top = starts.length - 1;
    if (top >= 0 && ends[top] === end && starts[top] <= start) {
      if (starts[top] === start && label < labels[top]) labels[top] = label;
      return;
    }
    while (top >= 0 && starts[top] >= start) {
      starts.pop();
      ends.pop();
      labels.pop();
      top--;
    }
    if (top >= 0 && labels[top] === label && ends[top] >= start) {
      ends[top] = end;
      return;
    }
    starts.push(start);
    ends.push(end);
    labels.push(label);
  }
}

/** The rolling hash's multiplier (odd: FNV's prime). */
const HASH_BASE = 0x01000193;
/** The units a window holds: the shortest run of any form. */
const WINDOW = RUN_UNITS.value;
/** HASH_BASE to the power of WINDOW, modulo 2^32: what the unit leaving the window weighs. */
const LEAVING = power(WINDOW);

/** A form whose ends are matched as runs: folded, its run length, its label, and the KMP failure function of it and of its reverse. */
interface RunForm {
  form: string;
  run: number;
  label: number;
  /** border[k - 1]: the longest proper prefix of form[0, k) that is also its suffix. */
  border: Int32Array;
  /** The same for the form reversed, whose prefixes are the form's suffixes. */
  reverseBorder: Int32Array;
}

/**
 * The runs at either end of each form, at least its run length long (see the header), in a text read three ways: a
 * run that starts where a form starts (its first half, an echo cut short), or ends where it ends (its last half).
 * One table holds the hash of the window that ends each form's first run and of its last window, probed with a
 * rolling hash of the last WINDOW units read; a hit is compared unit by unit. From a first run, the match goes on
 * forwards (Knuth-Morris-Pratt, falling back along borders, dropped below the run length: the table finds the next);
 * from a last run, backwards over the units read, the same way. Linear in the text, however long or repetitive the
 * form. Runs in the middle of a form are left alone on purpose: matching them would let a caller whose text a far
 * side echoes (or the stored-secret screen refuses) learn whether 8 characters of theirs stand anywhere in the
 * secret, then slide a known part one character at a time; a run anchored at an end has to be guessed whole.
 */
class SecretRuns {
  private readonly forms: RunForm[];
  /** The open-addressing table, half full at most: per slot a window's hash and its entry (-1: empty). */
  private readonly hashes: Int32Array;
  private readonly entries: Int32Array;
  private readonly mask: number;
  /** Per entry (2 per form: its first run, its last), the form. */
  private readonly entryForms: Int32Array;
  /** The units of a reading, with where each one's spelling starts and ends in the text: kept between texts. */
  private units = new Uint16Array(1024);
  private starts = new Int32Array(1024);
  private ends = new Int32Array(1024);
  /** Per unit, the first last run found to start there (an index into `activations`, -1: none). */
  private startingAt = new Int32Array(1024).fill(-1);
  /** The last runs found: per run, its form and the next run that starts at the same unit (-1: none). */
  private activations: number[] = [];
  private readonly found = new Found();

  constructor(
    forms: readonly { form: string; run: number; label: number }[],
    private readonly fold: Uint16Array,
  ) {
    this.forms = forms.map(({ form, run, label }) => ({ form, run, label, border: borders(form), reverseBorder: borders([...form].reverse().join('')) }));
    const size = 1 << Math.max(4, Math.ceil(Math.log2(forms.length * 4)));
    this.hashes = new Int32Array(size);
    this.entries = new Int32Array(size).fill(-1);
    this.mask = size - 1;
    this.entryForms = new Int32Array(forms.length * 2);
    this.forms.forEach(({ form, run }, index) => {
      for (const [entry, at] of [
        [2 * index, run - WINDOW],
        [2 * index + 1, form.length - WINDOW],
      ]) {
        const hash = hashOf(form, at);
        let slot = hash & this.mask;
        while (this.entries[slot] !== -1) slot = (slot + 1) & this.mask;
        this.hashes[slot] = hash;
        this.entries[slot] = entry;
        this.entryForms[entry] = index;
      }
    });
  }

  /** Adds to `spans` every run found in `text`, read as it is, with its JSON escapes decoded, and with every escape decoded. */
  find(text: string, spans: Spans): void {
    // A unit takes at least a character: a shorter text holds no window.
    if (this.forms.length === 0 || text.length < WINDOW) return;
    this.read(text, spans, 0);
    if (text.includes('\\')) this.read(text, spans, BACKSLASH);
    if (text.includes('%')) this.read(text, spans, -1);
  }

  /**
   * One reading: `escapes` 0 (none decoded), BACKSLASH (JSON escapes), -1 (JSON escapes and percent-encoding). First
   * runs are followed as the units come; last runs are found as they come and followed backwards after.
   */
  private read(text: string, spans: Spans, escapes: number): void {
    const { fold, entries, mask, forms } = this;
    const found = this.found.reset(spans);
    /** Per form, the units of its first run matched up to the last unit (0: not followed). */
    const matched = new Int32Array(forms.length);
    const following: number[] = [];
    /** The latest unit a last run starts at (-1: none found). */
    let lastStart = -1;
    this.activations.length = 0;
    let hash = 0;
    let count = 0;
    for (let p = 0; p < text.length;) {
      // What the text holds at p, read this way: one unit, or two (an astral character's escape), and where it ends.
      const code = text.charCodeAt(p);
      let first = fold[code];
      let second = -1;
      let end = p + 1;
      if (escapes !== 0 && (code === BACKSLASH || (escapes < 0 && code === PERCENT)) && escapeAt(text, p)) {
        first = fold[escapeUnit];
        if (escapeSecond >= 0) second = fold[escapeSecond];
        end = p + escapeLength;
      }
      for (let unit = first; unit >= 0; unit = second, second = -1) {
        if (count === this.units.length) this.grow();
        const { units, starts, ends, startingAt } = this;
        const leaving = count >= WINDOW ? units[count - WINDOW] : 0;
        hash = (Math.imul(hash, HASH_BASE) + unit - Math.imul(leaving, LEAVING)) | 0;
        units[count] = unit;
        starts[count] = p;
        ends[count] = end;
        startingAt[count] = -1;
        count++;
        for (let i = 0; i < following.length;) {
          const index = following[i];
          const { form, run, border, label } = forms[index];
          let k = matched[index];
          while (k > 0 && (k === form.length || form.charCodeAt(k) !== unit)) k = border[k - 1];
          if (form.charCodeAt(k) === unit) k++;
          if (k >= run) {
            matched[index] = k;
            found.add(starts[count - k], end, label);
            i++;
          } else {
            matched[index] = 0;
            following.splice(i, 1);
          }
        }
        if (count >= WINDOW && entries[hash & mask] !== -1) lastStart = Math.max(lastStart, this.probe(hash, count, matched, following, found));
      }
      p = end;
    }
    this.followBack(lastStart, found);
    found.flush();
  }

  /**
   * The first and last runs ending with the `count`th unit read whose last window has the hash `hash`: a first run is
   * followed from here, a last run noted where it starts. Where the last run found starts, or -1.
   */
  private probe(hash: number, count: number, matched: Int32Array, following: number[], found: Found): number {
    const { units, starts, ends, hashes, entries, mask, forms, startingAt, activations } = this;
    let lastStart = -1;
    for (let slot = hash & mask; entries[slot] !== -1; slot = (slot + 1) & mask) {
      if (hashes[slot] !== hash) continue;
      const entry = entries[slot];
      const index = this.entryForms[entry];
      const { form, run, label } = forms[index];
      const isLast = (entry & 1) === 1;
      if (count < run || (!isLast && matched[index] !== 0)) continue;
      // The run is the form's first `run` units, or its last.
      const from = isLast ? form.length - run : 0;
      let same = true;
      for (let i = 0; i < run && same; i++) same = units[count - run + i] === form.charCodeAt(from + i);
      if (!same) continue;
      found.add(starts[count - run], ends[count - 1], label);
      if (isLast) {
        lastStart = count - run;
        activations.push(index, startingAt[lastStart]);
        startingAt[lastStart] = activations.length - 2;
      } else {
        matched[index] = run;
        following.push(index);
      }
    }
    return lastStart;
  }

  /**
   * The last runs found, followed backwards over the units read, in one pass from the latest one (`from`): per form,
   * how many units of its end match from the unit on (exact while at least its run: it only gets there through a
   * run found).
   */
  private followBack(from: number, found: Found): void {
    const { units, starts, ends, forms, startingAt, activations } = this;
    const matched = new Int32Array(forms.length);
    const following: number[] = [];
    for (let i = from; i >= 0; i--) {
      if (following.length === 0 && startingAt[i] === -1) continue;
      const unit = units[i];
      for (let f = 0; f < following.length;) {
        const index = following[f];
        const { form, run, reverseBorder, label } = forms[index];
        const last = form.length - 1;
        let k = matched[index];
        while (k > 0 && (k === form.length || form.charCodeAt(last - k) !== unit)) k = reverseBorder[k - 1];
        if (form.charCodeAt(last - k) === unit) k++;
        if (k >= run) {
          matched[index] = k;
          found.add(starts[i], ends[i + k - 1], label);
          f++;
        } else {
          matched[index] = 0;
          following.splice(f, 1);
        }
      }
      // The last runs that start here (their units already reported) are followed from here on.
      for (let a = startingAt[i]; a !== -1; a = activations[a + 1]) {
        const index = activations[a];
        if (matched[index] === 0) following.push(index);
        matched[index] = Math.max(matched[index], forms[index].run);
      }
    }
  }

  private grow(): void {
    const size = this.units.length * 2;
    const units = new Uint16Array(size);
    units.set(this.units);
    const starts = new Int32Array(size);
    starts.set(this.starts);
    const ends = new Int32Array(size);
    ends.set(this.ends);
    const startingAt = new Int32Array(size);
    startingAt.set(this.startingAt);
    [this.units, this.starts, this.ends, this.startingAt] = [units, starts, ends, startingAt];
  }
}

/** The KMP failure function of `text`: per length k, the longest proper prefix of its first k units that is also their suffix. */
function borders(text: string): Int32Array {
  const border = new Int32Array(text.length);
  for (let i = 1, k = 0; i < text.length; i++) {
    while (k > 0 && text.charCodeAt(i) !== text.charCodeAt(k)) k = border[k - 1];
    if (text.charCodeAt(i) === text.charCodeAt(k)) k++;
    border[i] = k;
  }
  return border;
}

/** The runs found in one reading, the overlapping ones of one placeholder joined before they go to the spans. */
class Found {
  private spans?: Spans;
  private start = -1;
  private end = -1;
  private label = -1;

  /** Ready for a reading whose runs go to `spans`. */
  reset(spans: Spans): this {
    this.spans = spans;
    this.label = -1;
    return this;
  }

  add(start: number, end: number, label: number): void {
    if (label === this.label && start <= this.end && end >= this.start) {
      this.start = Math.min(this.start, start);
      this.end = Math.max(this.end, end);
      return;
    }
    this.flush();
    [this.start, this.end, this.label] = [start, end, label];
  }

  flush(): void {
    if (this.label >= 0) this.spans!.add(this.start, this.end, this.label);
    this.label = -1;
  }
}

/** HASH_BASE to the power of `exponent`, modulo 2^32. */
function power(exponent: number): number {
  let result = 1;
  for (let i = 0; i < exponent; i++) result = Math.imul(result, HASH_BASE);
  return result;
}

/** The rolling hash of the WINDOW units of `text` from `at`, as SecretRuns computes it. */
function hashOf(text: string, at: number): number {
  let hash = 0;
  for (let i = 0; i < WINDOW; i++) hash = (Math.imul(hash, HASH_BASE) + text.charCodeAt(at + i)) | 0;
  return hash;
}

/**
 * For AUTH_BASIC: the stored token is the Base64 of `user-id:password` (RFC 7617). What to scrub for it: the
 * token, and when it decodes to UTF-8 holding a `:`, the decoded pair and the password alone (at least
 * MIN_DERIVED_LENGTH characters), all with the token's placeholder (a far side may echo what it decoded).
 */
export function basicTokenSecrets(token: string, placeholder: string): SecretValue[] {
  const secrets = [{ value: token, placeholder }];
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token)) return secrets;
  let pair: string;
  try {
    pair = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(Buffer.from(token, 'base64'));
  } catch {
    return secrets;
  }
  const colon = pair.indexOf(':');
  if (colon < 0) return secrets;
  secrets.push({ value: pair, placeholder });
  const password = pair.slice(colon + 1);
  if (password.length >= MIN_DERIVED_LENGTH) secrets.push({ value: password, placeholder });
  return secrets;
}

/** One text scrubbed of `secrets`; a caller with many texts builds one SecretScrubber. */
export function scrubSecrets(text: string, secrets: readonly SecretValue[]): string {
  return new SecretScrubber(secrets).text(text);
}
