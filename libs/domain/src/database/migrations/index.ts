import { InitialSchema1795305600000 } from './1795305600000-initial-schema';

/** In order. Listed, not globbed: the apps are bundled by webpack. */
export const MIGRATIONS = [InitialSchema1795305600000];
