import { APP_CONFIG, AppConfig } from '@app/platform';
import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import type { Agent } from 'undici';
import { OAuthTokens } from './oauth-tokens';
import { Listening, OutboundGuard, Resolve, systemResolve } from './outbound-guard';
import { AnswerReader } from './answer/answer-reader';
import { TestRunner } from './test-run';

/**
 * Injection token of the host-name resolver of test runs (default: the system's). The e2e tests provide
 * one that answers from a table, so that no test ever resolves or connects outside loopback.
 */
export const OUTBOUND_RESOLVE = Symbol('OUTBOUND_RESOLVE');

/**
 * The outbound side of test runs, one per app: the guard and its connection pool (undici Agent), the kept
 * OAuth tokens and the runner over them, built at the first test run (undici is loaded then: undici.ts).
 * Closed with the app: calls still open are abandoned.
 */
@Injectable()
export class Outbound implements OnApplicationShutdown {
  private built?: { runner: TestRunner; dispatcher: Agent };
  private readonly reader = new AnswerReader();

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    @Optional() @Inject(OUTBOUND_RESOLVE) private readonly resolve?: Resolve,
  ) {}

  get runner(): TestRunner {
    return (this.built ??= this.build()).runner;
  }

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.built?.dispatcher.destroy(), this.reader.close()]);
  }

  private build(): { runner: TestRunner; dispatcher: Agent } {
    const { allowedCidrs, timeoutMs } = this.config.connectorTests;
    const guard = new OutboundGuard(allowedCidrs, this.resolve ?? systemResolve, {
      listening: () => this.listening(),
      nameTheVariable: this.config.nodeEnv !== 'production',
    });
    const dispatcher = guard.dispatcher({ connectTimeoutMs: timeoutMs });
    return { dispatcher, runner: new TestRunner(dispatcher, new OAuthTokens(dispatcher), this.reader, timeoutMs) };
  }

  /**
   * Where the app's HTTP server listens, read at each connection (supertest starts it lazily, and listen may
   * come after the first test run); none while it does not listen, or listens on a pipe.
   */
  private listening(): Listening[] {
    const address: AddressInfo | string | null | undefined = this.adapterHost.httpAdapter?.getHttpServer()?.address();
    return address && typeof address === 'object' ? [{ address: address.address, port: address.port }] : [];
  }
}
