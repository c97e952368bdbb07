import { APP_CONFIG, AppConfig } from '@app/platform';
import { Inject, Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { Agent } from 'undici';
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
 * OAuth tokens and the runner over them. Closed with the app: calls still open are abandoned.
 */
@Injectable()
export class Outbound implements OnApplicationShutdown {
  readonly runner: TestRunner;
  private readonly dispatcher: Agent;

  constructor(@Inject(APP_CONFIG) config: AppConfig, @Optional() @Inject(OUTBOUND_RESOLVE) resolve?: Resolve) {
    const { allowedCidrs, timeoutMs } = config.connectorTests;
    this.dispatcher = new OutboundGuard(allowedCidrs, resolve ?? systemResolve).dispatcher({ connectTimeoutMs: timeoutMs });
    this.runner = new TestRunner(this.dispatcher, new OAuthTokens(this.dispatcher, timeoutMs), timeoutMs);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.dispatcher.destroy();
  }
}
