import { freePort } from '../support/free-port';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../support/run-command';
import { committedAsyncApiDocumentOf, linkedAsyncApiDocument } from '../support/asyncapi';

/** `node dist/apps/<app>/main.js` starts one app, under its label, on PORT. */
describe.each(['transactional-service', 'environment', 'bot-admin'])('node dist/apps/%s/main.js', (app) => {
  it('serves health at the root and its docs under its label on PORT, the AsyncAPI document of its events included', async () => {
    const main = join(ROOT, 'dist', 'apps', app, 'main.js');
    if (!existsSync(main)) throw new Error(`${main} is missing: npm test builds before running jest`);
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), `platform-${app}-`));
    const child = spawn(process.execPath, [main], {
      env: { PATH: process.env.PATH, PORT: String(port), DATABASE_URL: `sqlite:${join(dir, 'p.sqlite')}`, LOG_LEVEL: 'warn' },
    });
    const exited = new Promise((done) => child.on('exit', done));
    try {
      let ready: Response | undefined;
      for (let i = 0; i < 100 && !ready?.ok; i++) {
        ready = await fetch(`http://127.0.0.1:${port}/health/ready`).catch(() => undefined);
        if (!ready?.ok) await new Promise((r) => setTimeout(r, 150));
      }
      expect(ready?.status).toBe(200);
      const docs = await fetch(`http://127.0.0.1:${port}/platform-${app}/docs-json`);
      expect(docs.status).toBe(200);
      expect(((await docs.json()) as { info: { title: string } }).info.title).toContain('Bot Platform Management API');
      // Found beside the bundle (the build copies it there): docs/ is not where this process looks.
      expect(await linkedAsyncApiDocument(`http://127.0.0.1:${port}`, `platform-${app}`)).toBe(committedAsyncApiDocumentOf(app));
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
