import { APP_CONFIG, AppConfig } from '@app/platform';
import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import type { Agent } from 'undici';
import { OAuthTokens } from './oauth-tokens';
import { OutboundGuard, Resolve, systemResolve } from './outbound-guard';
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

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Optional() @Inject(OUTBOUND_RESOLVE) private readonly resolve?: Resolve,
  ) {}

  get runner(): TestRunner {
    return (this.built ??= this.build()).runner;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.built?.dispatcher.destroy();
  }

  private build(): { runner: TestRunner; dispatcher: Agent } {
    const { allowedCidrs, timeoutMs } = this.config.connectorTests;
    const dispatcher = new OutboundGuard(allowedCidrs, this.resolve ?? systemResolve).dispatcher({ connectTimeoutMs: timeoutMs });
    return { dispatcher, runner: new TestRunner(dispatcher, new OAuthTokens(dispatcher, timeoutMs), timeoutMs) };
  }
}
