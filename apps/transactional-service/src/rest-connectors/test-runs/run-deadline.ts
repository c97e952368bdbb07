/**
 * The one deadline of a test run: CONNECTOR_TEST_TIMEOUT_MS from its start for all it sends (the token request,
 * the call, and the call again after a refused kept token), and the caller leaving ends it as well. Every
 * request of the run takes `signal`: an idle timeout alone would let a far side that trickles a byte at a time
 * hold the run as long as it likes. One controller, one timer and one listener, released by `end()`: Node 20's
 * AbortSignal.timeout and AbortSignal.any keep weak references that cost a run more than its far side's answer.
 */
export class RunDeadline {
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private readonly onCallerGone = () => this.controller.abort(new Error('The caller disconnected'));
  private expired = false;

  constructor(
    readonly timeoutMs: number,
    private readonly callerGone?: AbortSignal,
  ) {
    this.signal = this.controller.signal;
    this.timer = setTimeout(() => {
      this.expired = true;
      this.controller.abort(new Error(`The run's ${timeoutMs} ms are over`));
    }, timeoutMs);
    // A deadline never keeps the process alive: the requests it bounds do, while they run.
    this.timer.unref();
    if (callerGone?.aborted) this.onCallerGone();
    else callerGone?.addEventListener('abort', this.onCallerGone, { once: true });
  }

  get timedOut(): boolean {
    return this.expired;
  }

  /** The caller disconnected before the run ended: nobody will read its answer. */
  get cancelled(): boolean {
    return this.callerGone?.aborted === true;
  }

  /** The run is over: its timer and its listener go. */
  end(): void {
    clearTimeout(this.timer);
    this.callerGone?.removeEventListener('abort', this.onCallerGone);
  }
}
