import { INestApplication, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { onceAnswered } from '../http/on-answered';

/** Requests in flight may take this long to finish after SIGTERM (Kubernetes waits longer: 30 s). */
export const DRAIN_TIMEOUT_MS = 10_000;
/** No request for this long while draining: the load balancer has stopped sending. */
const QUIET_MS = 250;
/**
 * A connection that has sent nothing holds the stop for this long after it was accepted: long enough for a
 * client paused between connect and send, not for one that never sends (a pre-opened or idle connection).
 */
export const FIRST_REQUEST_WAIT_MS = 2_000;

const NEXT = Symbol('next answer in flight');
const PREV = Symbol('previous answer in flight');
type Linked = Response & { [NEXT]?: Linked; [PREV]?: Linked };

/**
 * The responses in flight, as a list linked through the responses themselves. Not a Set: a long-lived Set that
 * every request enters and leaves made V8's young-generation collections promote ~460 KB each under load (6 KB
 * without it), which cost a get ~20% of its CPU (docs/performance.md, "Per-request overhead"). Adding and
 * removing touch only the responses and the head.
 */
export class AnswersInFlight {
  private head: Linked | undefined;
  size = 0;

  add(res: Response): void {
    const linked = res as Linked;
    linked[NEXT] = this.head;
    linked[PREV] = undefined;
    if (this.head) this.head[PREV] = linked;
    this.head = linked;
    this.size++;
  }

  /** Once per added response. */
  remove(res: Response): void {
    const linked = res as Linked;
    const [prev, next] = [linked[PREV], linked[NEXT]];
    if (prev) prev[NEXT] = next;
    else if (this.head === linked) this.head = next;
    else return; // not in the list
    if (next) next[PREV] = prev;
    linked[NEXT] = linked[PREV] = undefined;
    this.size--;
  }

  forEach(visit: (res: Response) => void): void {
    for (let res = this.head; res; res = res[NEXT]) visit(res);
  }
}

/** Whether the app is draining, how many requests it is answering, and which connections have yet to send one. */
export class ShutdownState {
  lastRequestAt = 0;
  private drainStarted = false;
  /** The responses not yet sent whole (or cut). */
  private readonly answering = new AnswersInFlight();
  private readonly drainListeners: Array<() => void> = [];
  /** Accepted connections whose first request has not arrived, and when each was accepted. */
  private readonly waiting = new Map<Socket, number>();

  constructor(private readonly firstRequestWaitMs = FIRST_REQUEST_WAIT_MS) {}

  /**
   * Whether the app is draining. Turning it on asks every answer not begun yet to close its connection, as
   * every later one will, and calls the onDrain listeners.
   */
  get draining(): boolean {
    return this.drainStarted;
  }

  set draining(draining: boolean) {
    const starts = draining && !this.drainStarted;
    this.drainStarted = draining;
    if (!starts) return;
    this.answering.forEach((res) => {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    });
    for (const listener of this.drainListeners) listener();
  }

  /** Requests being answered. */
  get inFlight(): number {
    return this.answering.size;
  }

  /**
   * Calls `listener` when the drain starts: what waits of its own accord (a long poll) stops waiting and answers,
   * so the drain is not held by it and its caller is not cut off when the drain ends.
   */
  onDrain(listener: () => void): void {
    this.drainListeners.push(listener);
  }

  /**
   * Follows the server's connections until each sends its first request, so that `quiet` waits for a
   * client that has connected but not yet sent: cutting that connection would reset it (ECONNRESET), not
   * refuse it.
   */
  watch(server: Server): void {
    server.on('connection', (socket: Socket) => {
      this.waiting.set(socket, Date.now());
      socket.once('close', () => this.waiting.delete(socket));
    });
    server.on('request', (req: IncomingMessage) => this.waiting.delete(req.socket));
  }

  /** Open connections that have not sent a request: stopping cuts them. */
  get silentConnections(): number {
    return this.waiting.size;
  }

  /** Express middleware: counts requests; while draining, asks every client to close its connection. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    this.answering.add(res);
    this.lastRequestAt = Date.now();
    onceAnswered(req, res, () => this.answering.remove(res));
    if (this.draining) res.setHeader('Connection', 'close');
    next();
  };

  get quiet(): boolean {
    const now = Date.now();
    if (this.inFlight > 0 || now - this.lastRequestAt < QUIET_MS) return false;
    for (const acceptedAt of this.waiting.values()) if (now - acceptedAt < this.firstRequestWaitMs) return false;
    return true;
  }
}

/**
 * SIGTERM/SIGINT: readiness turns 503 at once, so the load balancer stops sending, and what waits of its own
 * accord (long polls, ShutdownState.onDrain) answers at once; until the load balancer has stopped (no
 * request in flight, no connection accepted in the last FIRST_REQUEST_WAIT_MS still waiting for its first
 * request, and no request for QUIET_MS; at most DRAIN_TIMEOUT_MS), the app still answers every request
 * whole, with `Connection: close`. Then it stops listening, the database closes and the process exits 0.
 * Closing the listener at once would reset the connections still in the kernel's accept queue; Nest's own
 * shutdown hooks would close the database before the server.
 */
export function exitGracefullyOnSignals(app: INestApplication, state: ShutdownState): void {
  const logger = new Logger('Shutdown');
  const server = app.getHttpServer() as Server;
  state.watch(server);
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    state.draining = true;
    logger.log(`${signal}: draining ${state.inFlight} request(s) in flight`);
    const deadline = Date.now() + DRAIN_TIMEOUT_MS;
    while (Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25));
      // Checked right after the event loop's poll phase, which accepts the connections the kernel holds.
      await new Promise((r) => setImmediate(r));
      if (state.quiet) break;
    }
    const [inFlight, silent] = [state.inFlight, state.silentConnections];
    server.close();
    server.closeAllConnections();
    await app.close();
    const cut = [inFlight > 0 ? `${inFlight} request(s) in flight` : '', silent > 0 ? `${silent} connection(s) that had sent no request` : ''].filter(Boolean);
    logger.log(cut.length > 0 ? `Stopped, cutting ${cut.join(' and ')}` : 'Stopped cleanly');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
