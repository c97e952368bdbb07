/** The three deployables: folder under apps/ and dist/apps/, subpath label (= URL prefix), default port. */
export const PLATFORM_APPS = {
  transactionalService: { name: 'transactional-service', label: 'platform-transactional-service', defaultPort: 3001 },
  environment: { name: 'environment', label: 'platform-environment', defaultPort: 3002 },
  botAdmin: { name: 'bot-admin', label: 'platform-bot-admin', defaultPort: 3003 },
} as const;

export type PlatformAppName = (typeof PLATFORM_APPS)[keyof typeof PLATFORM_APPS]['name'];

/** What an app started by `npm start` sends the launcher once it listens and its start-up lines are written. */
export const APP_STARTED_MESSAGE = 'platform-app:started';
