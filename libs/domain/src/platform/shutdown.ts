import { INestApplication, Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import type { IncomingMessage, Server } from 'node:http';
import type { Socket } from 'node:net';
import { onceAnswered } from '../http/on-answered';

/** Requests in flight may take this long to finish after SIGTERM (Kubernetes waits longer: 30 s). */
export const DRAIN_TIMEOUT_MS = 10_000;
/** No request for this long while draining: the load balancer has stopped sending. */
const QUIET_MS = 250;

/** Whether the app is draining, how many requests it is answering, and which connections have yet to send one. */
export class ShutdownState {
  draining = false;
  inFlight = 0;
  lastRequestAt = 0;
  /** Accepted connections whose first request has not arrived: a client paused between connect and send. */
  private readonly waiting = new Set<Socket>();

  /**
   * Follows the server's connections until each sends its first request, so that `quiet` waits for a
   * client that has connected but not yet sent: cutting that connection would reset it (ECONNRESET), not
   * refuse it.
   */
  watch(server: Server): void {
    server.on('connection', (socket: Socket) => {
      this.waiting.add(socket);
      socket.once('close', () => this.waiting.delete(socket));
    });
    server.on('request', (req: IncomingMessage) => this.waiting.delete(req.socket));
  }

  /** Express middleware: counts requests; while draining, asks every client to close its connection. */
  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    this.inFlight += 1;
    this.lastRequestAt = Date.now();
    onceAnswered(req, res, () => (this.inFlight -= 1));
    if (this.draining) res.setHeader('Connection', 'close');
    next();
  };

  get quiet(): boolean {
    return this.inFlight === 0 && this.waiting.size === 0 && Date.now() - this.lastRequestAt >= QUIET_MS;
  }
}

/**
 * SIGTERM/SIGINT: readiness turns 503 at once, so the load balancer stops sending; until it has (no
 * request in flight, no connection waiting for its first request, and no request for QUIET_MS; at most
 * DRAIN_TIMEOUT_MS), the app still answers every request whole, with `Connection: close`. Then it stops
 * listening, the database closes and the process exits 0. Closing the listener at once would reset the
 * connections still in the kernel's accept queue; Nest's own shutdown hooks would close the database
 * before the server.
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
    server.close();
    server.closeAllConnections();
    await app.close();
    logger.log(state.inFlight > 0 ? `Stopped with ${state.inFlight} request(s) cut after ${DRAIN_TIMEOUT_MS} ms` : 'Stopped cleanly');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
