import { createServer } from 'node:net';

/** A TCP port nothing listens on right now, for a process the test starts. */
export function freePort(): Promise<number> {
  return new Promise((done) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}
