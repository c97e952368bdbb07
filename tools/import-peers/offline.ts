import dns from 'node:dns';
import net from 'node:net';

/**
 * The comparison reads local files only. The peers' libraries could fetch an external `$ref` (oas-resolver,
 * node-fetch-h2): while it runs, opening a socket or resolving a name throws instead, and is counted.
 * Answers a function that puts things back and returns what was attempted.
 */
export function offline(): () => string[] {
  const attempts: string[] = [];
  const connect = net.Socket.prototype.connect;
  const lookup = dns.lookup;
  const promisesLookup = dns.promises.lookup;
  const refuse = (what: string) => {
    attempts.push(what);
    throw new Error(`the peer comparison is offline: ${what} refused`);
  };
  net.Socket.prototype.connect = function () {
    return refuse('a connection');
  } as typeof connect;
  dns.lookup = (() => refuse('a name look-up')) as unknown as typeof lookup;
  dns.promises.lookup = (async () => refuse('a name look-up')) as unknown as typeof promisesLookup;
  return () => {
    net.Socket.prototype.connect = connect;
    dns.lookup = lookup;
    dns.promises.lookup = promisesLookup;
    return attempts;
  };
}
