import { createServer } from 'node:net';

/**
 * The first of `ports` that another process holds, or undefined when all are free. Each port is tried
 * exactly as an app binds it (`app.listen(port)`: no host, so every interface, IPv6 and IPv4), so a
 * listener on any single address, loopback included, counts as taken.
 */
export async function firstTakenPort(ports: number[]): Promise<number | undefined> {
  for (const port of ports) {
    if (!(await isFree(port))) return port;
  }
  return undefined;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? done(false) : fail(error)));
    server.listen(port, () => server.close(() => done(true)));
  });
}
