import { Type } from '@nestjs/common';
import type { LargeBodyRoute } from '../http/json-body.middleware';

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
  /**
   * The app's operations by task, in the order a user works: Swagger UI shows one section per group, with its
   * description, and the operations in this order (their operationIds: the controller methods' names).
   */
  groups: OperationGroup[];
  /**
   * Outside production, the example of each path id in the served document (by parameter name), so that Swagger
   * UI's "Try it out" works at once on the data `npm start` loads (the apps pass the demo data's ids). The
   * committed documents keep the generic example.
   */
  pathExamples?: Readonly<Record<string, string>>;
  /**
   * The AsyncAPI document of the messages the app publishes, a file of docs/asyncapi (`connector-events.yaml`): served
   * as it is at `/{label}/docs-asyncapi` beside the OpenAPI document, which links it (`externalDocs`). The app's build
   * copies it beside the bundle.
   */
  asyncApiDocument?: string;
  /** Routes (matched on the request path) that take a body larger than BODY_LIMIT_BYTES, their limit, and the bodies they read themselves. */
  largeBodies?: readonly LargeBodyRoute[];
}

/** One section of the app's API documentation. */
export interface OperationGroup {
  name: string;
  description: string;
  operations: string[];
}
