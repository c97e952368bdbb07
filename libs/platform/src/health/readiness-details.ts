/**
 * Dependencies a feature of an app names in `/health/ready`'s details without making the app unready on them
 * (the change events' broker: docs/operations.md "Change events"). The feature registers a synchronous status.
 */
export class ReadinessDetails {
  private readonly checks = new Map<string, () => 'up' | 'down'>();

  add(name: string, status: () => 'up' | 'down'): void {
    this.checks.set(name, status);
  }

  /** Each registered dependency's status now. */
  statuses(): Record<string, 'up' | 'down'> {
    return Object.fromEntries([...this.checks].map(([name, status]) => [name, status()]));
  }
}
