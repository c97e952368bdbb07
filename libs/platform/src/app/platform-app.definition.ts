import { Type } from '@nestjs/common';

/** What distinguishes one deployable app of the platform from another. */
export interface PlatformAppDefinition {
  name: string;
  /** The subpath label, also the URL prefix: `platform-environment`. */
  label: string;
  defaultPort: number;
  /** The app's root feature module. */
  module: Type<unknown>;
  title: string;
  description: string;
}
