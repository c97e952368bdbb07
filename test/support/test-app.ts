import { AppConfig, createPlatformApp, PlatformAppDefinition, PlatformAppOptions } from '@app/platform';
import { NestExpressApplication } from '@nestjs/platform-express';
import { Writable } from 'node:stream';
import request from 'supertest';
import TestAgent from 'supertest/lib/agent';
import { DataSource } from 'typeorm';

export interface TestApp {
  app: NestExpressApplication;
  http: TestAgent;
  dataSource: DataSource;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** One app of the platform, on the real module and the real database, served in-process. */
export async function startTestApp(
  definition: PlatformAppDefinition,
  config: AppConfig,
  options: Pick<PlatformAppOptions, 'providers'> = {},
): Promise<TestApp> {
  const logs: Array<Record<string, unknown>> = [];
  const logDestination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  const app = await createPlatformApp(definition, config, { ...options, logDestination });
  await app.init();
  return {
    app,
    http: request(app.getHttpServer()),
    dataSource: app.get(DataSource),
    logs,
    close: () => app.close(),
  };
}

/** A metric's value in an app's /metrics: the first series of that name, whatever its labels. */
export async function metricOf(sut: TestApp, name: string): Promise<number> {
  const text = (await sut.http.get('/metrics').expect(200)).text;
  const match = new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(text);
  if (!match) throw new Error(`no ${name} in /metrics`);
  return Number(match[1]);
}
