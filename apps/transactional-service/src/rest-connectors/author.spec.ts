import { InvalidInputError } from '@app/domain';
import { changeReasonOf } from './author';

/** What the header's bytes look like to the server (one field line): Node reads each byte as a Latin-1 character. */
const sent = (text: string) => [Buffer.from(text, 'utf8').toString('latin1')];
const problemsOf = (lines: string[]) => {
  try {
    changeReasonOf(lines);
    return [];
  } catch (error) {
    return (error as InvalidInputError).problems;
  }
};

describe(changeReasonOf.name, () => {
  it('is no reason without the header, and the trimmed UTF-8 text with it', () => {
    expect(changeReasonOf(undefined)).toBeNull();
    expect(changeReasonOf(sent('  Grüße: the vendor moved 🚀 '))).toBe('Grüße: the vendor moved 🚀');
    expect(changeReasonOf(sent('👨‍👩‍👧 family emoji keep their joiners'))).toBe('👨‍👩‍👧 family emoji keep their joiners');
  });

  it('counts characters, not bytes or UTF-16 units', () => {
    expect(changeReasonOf(sent('🚀'.repeat(500)))).toHaveLength(1000);
    expect(problemsOf(sent('🚀'.repeat(501)))).toEqual(['Change-Reason must be at most 500 characters']);
  });

  it('refuses bytes that are not UTF-8, a blank value, control characters and bidirectional controls', () => {
    expect(problemsOf([Buffer.from([0x61, 0xc3]).toString('latin1')])).toEqual(['Change-Reason must be UTF-8 text']);
    expect(problemsOf([''])).toEqual(['Change-Reason must not be blank: leave the header out to give no reason']);
    const oneLine = 'Change-Reason must not hold control characters or line separators (line breaks, tabs, U+2028, U+2029): write it on one line';
    expect(problemsOf(sent('a\u0085b'))).toEqual([oneLine]);
    // The line and paragraph separators break a line as a line feed does (in a log viewer, an editor, JavaScript source).
    expect(problemsOf(sent('first line\u2028second'))).toEqual([oneLine]);
    expect(problemsOf(sent('first paragraph\u2029second'))).toEqual([oneLine]);
    expect(problemsOf(sent('fixed \u202Egnp.exe'))).toEqual([
      'Change-Reason must not hold bidirectional control characters (U+202A to U+202E, U+2066 to U+2069)',
    ]);
  });

  it('refuses the header sent more than once: Node would join the lines into a reason nobody wrote', () => {
    const once = ['Change-Reason must be sent once: give one reason in one header'];
    expect(problemsOf([...sent('first'), ...sent('second')])).toEqual(once);
    expect(problemsOf([...sent('first'), ''])).toEqual(once);
  });
});
