import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { onceAnswered } from './on-answered';

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
