/**
 * The one deadline of a test run: CONNECTOR_TEST_TIMEOUT_MS from its start for all it sends (the token request,
 * the call, and the call again after a refused kept token), and the caller leaving ends it as well. Every
 * request of the run takes `signal`: an idle timeout alone would let a far side that trickles a byte at a time
 * hold the run as long as it likes.
 */
export class RunDeadline {
  readonly signal: AbortSignal;
  private readonly timeout: AbortSignal;

  constructor(
    readonly timeoutMs: number,
    private readonly callerGone?: AbortSignal,
  ) {
    this.timeout = AbortSignal.timeout(timeoutMs);
    this.signal = callerGone ? AbortSignal.any([this.timeout, callerGone]) : this.timeout;
  }

  get timedOut(): boolean {
    return this.timeout.aborted;
  }

  /** The caller disconnected before the run ended: nobody will read its answer. */
  get cancelled(): boolean {
    return this.callerGone?.aborted === true;
  }
}
