/** The part of newman's library API the export e2e test uses (newman ships no types). */
declare module 'newman' {
  interface RunSummary {
    run: { failures: Array<{ error: { message: string } }>; executions: Array<{ requestError?: Error }> };
  }
  export function run(
    options: { collection: object; envVar?: Array<{ key: string; value: string }>; reporters?: string[]; timeoutRequest?: number },
    callback: (error: Error | null, summary: RunSummary) => void,
  ): unknown;
}
