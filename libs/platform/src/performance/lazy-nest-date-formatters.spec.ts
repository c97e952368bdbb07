describe('loadNestWithLazyDateFormatters', () => {
  const real = Intl.DateTimeFormat;
  afterEach(() => {
    Intl.DateTimeFormat = real;
    jest.restoreAllMocks();
  });

  it("loads @nestjs/common without building a date formatter, builds one when Nest's logger first prints, and leaves the global as it was", () => {
    let built = 0;
    const counting = function (...args: ConstructorParameters<typeof Intl.DateTimeFormat>) {
      built++;
      return new real(...args);
    } as unknown as typeof Intl.DateTimeFormat;
    Intl.DateTimeFormat = counting;

    jest.isolateModules(() => {
      // Importing the module loads @nestjs/common, as libs/platform's index does first thing.
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require('./lazy-nest-date-formatters');
      expect(built).toBe(0);
      expect(Intl.DateTimeFormat).toBe(counting);

      const written: string[] = [];
      jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => (written.push(String(chunk)), true));
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { ConsoleLogger } = require('@nestjs/common') as typeof import('@nestjs/common');
      new ConsoleLogger('Spec', { colors: false }).log('hello');
      new ConsoleLogger('Spec', { colors: false }).log('again');

      expect(built).toBe(1);
      expect(written.join('')).toContain('hello');
      // The timestamp as Nest formats it, year included.
      expect(written[0]).toContain(String(new Date().getFullYear()));
    });
  });
});
