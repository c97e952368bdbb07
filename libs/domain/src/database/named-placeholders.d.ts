/** The part of named-placeholders 1.1 (CommonJS, untyped; mysql2's own compiler of `:name` placeholders) that Statement uses. */
declare module 'named-placeholders' {
  interface CompilerOptions {
    /** false: no LRU cache of compiled texts. */
    cache?: false | number;
    placeholder?: string;
  }
  /** `compile('… :a … :b', { a: 1, b: 2 })` answers `['… ? … ?', [1, 2]]`. */
  type Compile = (query: string, params?: object) => [string, unknown[]];
  function createCompiler(options?: CompilerOptions): Compile;
  export = createCompiler;
}
