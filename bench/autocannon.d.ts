/** The part of autocannon 8 (CommonJS, untyped) that the bench uses. */
declare module 'autocannon' {
  namespace autocannon {
    interface Request {
      method?: string;
      path?: string;
      body?: string | Buffer;
      headers?: Record<string, string>;
      setupRequest?: (request: Request, context: Record<string, unknown>) => Request | undefined;
    }
    interface Options {
      url: string;
      connections?: number;
      duration?: number;
      timeout?: number;
      /** Requests in all, instead of a duration. */
      amount?: number;
      method?: string;
      body?: string;
      headers?: Record<string, string>;
      requests?: Request[];
    }
    interface Histogram {
      average: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
      max: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      duration: number;
      errors: number;
      timeouts: number;
      non2xx: number;
      '2xx': number;
      statusCodeStats?: Record<string, { count: number }>;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  export = autocannon;
}
