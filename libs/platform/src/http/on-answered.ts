import type { Request, Response } from 'express';
import type { Socket } from 'node:net';

/** Per connection, the responses still open on it (see onceAnswered). */
const openOnConnection = new WeakMap<Socket, Set<() => void>>();

/**
 * Calls `done` once, when the response has closed (sent whole, or its connection cut) or, for a pipelined
 * request waiting behind another on its connection, when that connection closes: such a response has no
 * socket yet and emits no 'close' of its own. The connection's one 'close' listener serves all its requests.
 * (Nest's Express adapter has the same logic internally, in a module it does not export.)
 */
export function onceAnswered(req: Request, res: Response, done: () => void): void {
  let open: Set<() => void> | undefined;
  let settled = false;
  const settle = () => {
    if (settled) return;
    settled = true;
    open?.delete(settle);
    done();
  };
  res.once('close', settle);
  const connection = req.socket;
  if (connection.destroyed) {
    process.nextTick(settle);
    return;
  }
  open = openOnConnection.get(connection);
  if (!open) {
    const responses = new Set<() => void>();
    openOnConnection.set(connection, responses);
    connection.once('close', () => {
      openOnConnection.delete(connection);
      responses.forEach((settleOne) => settleOne());
    });
    open = responses;
  }
  open.add(settle);
}
