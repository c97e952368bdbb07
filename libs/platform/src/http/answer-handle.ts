import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request, Response } from 'express';
import { onceAnswered } from './on-answered';

/**
 * A request's answer, for work that holds something until its answer has left the process (the change feed holds
 * the bytes of its page): `closed` resolves once the answer was sent whole or its connection cut; `cut()` ends it
 * now (a client that reads nothing would otherwise keep its answer, and what it holds, as long as its connection lasts).
 */
export interface AnswerHandle {
  readonly closed: Promise<void>;
  cut(): void;
}

export function answerHandle(req: Request, res: Response): AnswerHandle {
  return { closed: new Promise((resolve) => onceAnswered(req, res, resolve)), cut: () => res.destroy() };
}

/** The request's answerHandle, as a handler's parameter. */
export const Answer = createParamDecorator((_: unknown, ctx: ExecutionContext): AnswerHandle => {
  const http = ctx.switchToHttp();
  return answerHandle(http.getRequest<Request>(), http.getResponse<Response>());
});

/**
 * Calls `release` once `answer` has left, cutting an answer still unsent after `ms` (its client reads nothing); at
 * once without an answer (a caller outside a request).
 */
export function releaseOnceSent(answer: AnswerHandle | undefined, ms: number, release: () => void): void {
  if (!answer) return release();
  const deadline = setTimeout(() => answer.cut(), ms).unref();
  void answer.closed.then(() => {
    clearTimeout(deadline);
    release();
  });
}
