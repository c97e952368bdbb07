/** class-transformer's metadata registry, which the package ships without its own declaration at this path. */
declare module 'class-transformer/cjs/storage' {
  export const defaultMetadataStorage: unknown;
}
