/**
 * @nestjs/common builds two `Intl.DateTimeFormat`s when it is loaded (services/logger.service.js and
 * console-logger.service.js, for the timestamps of Nest's console logger). The first `Intl.DateTimeFormat` of
 * a process pages in ICU's locale data: 8 MB of resident memory in every app (docs/performance.md, "Memory"),
 * for a logger the platform does not print with (its lines go through pino).
 *
 * So @nestjs/common is loaded here, first, with `Intl.DateTimeFormat` making formatters that build the real
 * one on their first use; then the global is put back, untouched for everything else. Nest's logger still
 * formats its timestamps as before when it is used. libs/platform's index imports this before anything else,
 * and every app's main.ts imports libs/platform first. `PERFORMANCE_OVERRIDES=off` (read here from the
 * environment: this runs before the validated config exists) loads @nestjs/common as it comes.
 */
type Real = typeof Intl.DateTimeFormat;

/** A formatter that builds the real one, with the same arguments, when it is first asked anything. */
function lazyDateTimeFormat(real: Real): Real {
  class LazyDateTimeFormat {
    private built?: Intl.DateTimeFormat;
    constructor(private readonly args: ConstructorParameters<Real>) {}
    private get real(): Intl.DateTimeFormat {
      return (this.built ??= new real(...this.args));
    }
    format(date?: Date | number): string {
      return this.real.format(date);
    }
    formatToParts(date?: Date | number): Intl.DateTimeFormatPart[] {
      return this.real.formatToParts(date);
    }
    formatRange(start: Date | number, end: Date | number): string {
      return this.real.formatRange(start, end);
    }
    formatRangeToParts(start: Date | number, end: Date | number) {
      return this.real.formatRangeToParts(start, end);
    }
    resolvedOptions(): Intl.ResolvedDateTimeFormatOptions {
      return this.real.resolvedOptions();
    }
  }
  // Called with or without `new`, as Intl.DateTimeFormat may be; @nestjs/common only constructs.
  return function (...args: ConstructorParameters<Real>) {
    return new LazyDateTimeFormat(args);
  } as unknown as Real;
}

/** Loads @nestjs/common with lazy date formatters (see above); a no-op when it is already loaded. */
export function loadNestWithLazyDateFormatters(): void {
  const real = Intl.DateTimeFormat;
  Intl.DateTimeFormat = lazyDateTimeFormat(real);
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('@nestjs/common');
  } finally {
    Intl.DateTimeFormat = real;
  }
}

if (process.env.PERFORMANCE_OVERRIDES !== 'off') loadNestWithLazyDateFormatters();
