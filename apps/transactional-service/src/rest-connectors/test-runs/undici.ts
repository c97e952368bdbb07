import type * as Undici from 'undici';

/** The parts of undici the test runs use. */
export interface UndiciParts {
  Agent: typeof Undici.Agent;
  buildConnector: typeof Undici.buildConnector;
  errors: typeof Undici.errors;
  /** undici's `request(url, options)`; every call here names its `dispatcher`. */
  request: typeof Undici.request;
}

/** undici's FormData and the multipart/form-data encoder of its fetch (`extractBody`). */
export interface UndiciForms {
  FormData: typeof Undici.FormData;
  /** The body and Content-Type (`multipart/form-data; boundary=…`) of a FormData, as undici's fetch sends it. */
  extractBody(form: Undici.FormData): [{ stream: AsyncIterable<Uint8Array>; length: number | null }, string];
}

let loaded: UndiciParts | undefined;
let forms: UndiciForms | undefined;

/**
 * undici, loaded at the first connector test run rather than at start: most replicas never run one, and the
 * module's source and code would otherwise sit in every app's memory. And only the parts used: undici's index
 * also loads its fetch, WebSocket, EventSource, cache and mock modules, 9 MB of resident memory more than these
 * parts (21 MB against 12; docs/performance.md, "Memory"). The modules are undici's own (its package has no
 * `exports` map, so its files are its public layout); `request` is its index's, without the global dispatcher.
 */
export function undici(): UndiciParts {
  return (loaded ??= load());
}

function load(): UndiciParts {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const util = require('undici/lib/core/util') as { parseURL(url: unknown): URL };
  const requestApi = require('undici/lib/api/api-request') as (
    this: Undici.Dispatcher,
    options: Undici.Dispatcher.RequestOptions,
  ) => Promise<Undici.Dispatcher.ResponseData>;
  const parts = {
    Agent: require('undici/lib/dispatcher/agent') as typeof Undici.Agent,
    buildConnector: require('undici/lib/core/connect') as typeof Undici.buildConnector,
    errors: require('undici/lib/core/errors') as typeof Undici.errors,
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  // undici's index.js `request` (makeDispatcher over api.request), for a URL without `options.path`.
  const request = (url: string | URL, options: Parameters<typeof Undici.request>[1] & { dispatcher: Undici.Dispatcher }) => {
    const target = util.parseURL(url);
    return requestApi.call(options.dispatcher, {
      ...options,
      origin: target.origin,
      path: target.search ? `${target.pathname}${target.search}` : target.pathname,
      method: options.method || (options.body ? 'PUT' : 'GET'),
    } as Undici.Dispatcher.RequestOptions);
  };
  return { ...parts, request: request as unknown as typeof Undici.request };
}

/** undici's FormData and encoder, loaded at the first multipart test run only: they pull in much of its fetch. */
export function undiciForms(): UndiciForms {
  /* eslint-disable @typescript-eslint/no-require-imports */
  return (forms ??= {
    FormData: (require('undici/lib/web/fetch/formdata') as { FormData: typeof Undici.FormData }).FormData,
    extractBody: (require('undici/lib/web/fetch/body') as Pick<UndiciForms, 'extractBody'>).extractBody,
  });
  /* eslint-enable @typescript-eslint/no-require-imports */
}
