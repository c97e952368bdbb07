import Busboy from 'busboy';
import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';

/** A part as busboy read it from what the far side received. */
export interface ReadPart {
  name: string;
  filename?: string;
  mimeType?: string;
  value?: string;
  bytes?: Buffer;
}

/**
 * A far side on 127.0.0.2 that reads every request's multipart/form-data body with busboy (a maintained parser, as
 * servers use it) and answers the number of parts it found: a test sees what a real server makes of a body.
 */
export async function multipartFarSide() {
  const received: Array<{ contentType: string; parts: ReadPart[] }> = [];
  const server: Server = createServer((req, res) => {
    const parts: ReadPart[] = [];
    const reader = Busboy({ headers: req.headers });
    reader.on('field', (name, value) => parts.push({ name, value }));
    reader.on('file', (name, stream, { filename, mimeType }) => {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => parts.push({ name, filename, mimeType, bytes: Buffer.concat(chunks) }));
    });
    reader.on('close', () => {
      received.push({ contentType: String(req.headers['content-type']), parts });
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ parts: parts.length }));
    });
    reader.on('error', (error: Error) => res.writeHead(400).end(error.message));
    req.pipe(reader);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.2', done));
  return {
    url: `http://127.0.0.2:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
