import { Provider } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/app-config.module';
import { readOrCreateDevelopmentKey } from './development-key';
import { SecretCipher } from '@app/domain';

/** Builds the cipher from the validated config (production always has SECRETS_KEY). */
export function secretCipherFor(config: AppConfig): SecretCipher {
  const key = config.secretsKey ?? readOrCreateDevelopmentKey(config.developmentSecretsKeyFile!);
  return new SecretCipher(key, config.secretsKeyPrevious);
}

export const SecretCipherProvider: Provider = {
  provide: SecretCipher,
  inject: [APP_CONFIG],
  useFactory: secretCipherFor,
};
