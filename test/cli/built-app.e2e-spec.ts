import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APP_START_TIMEOUT_MS, startApp } from '../support/app-process';
import { ROOT } from '../support/run-command';
import { committedAsyncApiDocumentOf, linkedAsyncApiDocument } from '../support/asyncapi';

/** `node dist/apps/<app>/main.js` starts one app, under its label, on PORT. */
describe.each(['transactional-service', 'environment', 'bot-admin'])('node dist/apps/%s/main.js', (app) => {
  it(
    'serves health at the root and its docs under its label on PORT, the AsyncAPI document of its events included',
    async () => {
      const main = join(ROOT, 'dist', 'apps', app, 'main.js');
      if (!existsSync(main)) throw new Error(`${main} is missing: npm test builds before running jest`);
      const dir = mkdtempSync(join(tmpdir(), `platform-${app}-`));
      const sut = await startApp({ args: [main], env: { PATH: process.env.PATH, DATABASE_URL: `sqlite:${join(dir, 'p.sqlite')}` } });
      const port = sut.port;
      try {
        const docs = await fetch(`http://127.0.0.1:${port}/platform-${app}/docs-json`);
        expect(docs.status).toBe(200);
        expect(((await docs.json()) as { info: { title: string } }).info.title).toContain('Bot Platform Management API');
        // Found beside the bundle (the build copies it there): docs/ is not where this process looks.
        expect(await linkedAsyncApiDocument(`http://127.0.0.1:${port}`, `platform-${app}`)).toBe(committedAsyncApiDocumentOf(app));
      } finally {
        await sut.stop('SIGTERM');
      }
    },
    APP_START_TIMEOUT_MS + 30_000,
  );
});
