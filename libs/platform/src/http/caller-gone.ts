import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { Socket } from 'node:net';
import { onceAnswered } from './on-answered';

/**
 * Whether the client closed `connection` (its end of it: FIN, or a reset), rather than the server cutting it (a
 * shutdown's end, a timeout): a caller that stops waiting is normal.
 */
export function closedByCaller(connection: Socket): boolean {
  const code = (connection.errored as NodeJS.ErrnoException | null)?.code;
  return connection.readableEnded || code === 'ECONNRESET' || code === 'EPIPE';
}

/** Aborted when the client disconnects before its answer was sent whole: work done for it alone can stop. */
export function callerGoneSignal(req: Request, res: Response): AbortSignal {
  const gone = new AbortController();
  onceAnswered(req, res, () => {
    if (!res.writableFinished) gone.abort(new Error('The caller disconnected'));
  });
  return gone.signal;
}

/** The request's callerGoneSignal, as a handler's parameter. */
export const CallerGone = createParamDecorator((_: unknown, ctx: ExecutionContext): AbortSignal => {
  const http = ctx.switchToHttp();
  return callerGoneSignal(http.getRequest<Request>(), http.getResponse<Response>());
});
