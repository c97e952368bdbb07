import { InitialSchema1795305600000 } from './1795305600000-initial-schema';
import { IdempotencyKeys1795392000000 } from './1795392000000-idempotency-keys';

/** In order. Listed, not globbed: the apps are bundled by webpack. */
export const MIGRATIONS = [InitialSchema1795305600000, IdempotencyKeys1795392000000];
