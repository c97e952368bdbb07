import { SecretCipher, secretContext, SecretField, SecretHeaderKey } from '@app/domain';
import { Injectable } from '@nestjs/common';
import { Seal } from '../connector-write';

/** Whether a sent secret, or secret header's value (SecretHeaderKey), is the stored (sealed) one. */
export type SameAsStored = (field: SecretField | SecretHeaderKey, sealed: string, plaintext: string) => boolean;

/** A connector's secrets as its writes store them: each sealed for that connector and field, or secret header (SecretCipher, secretContext). */
@Injectable()
export class SecretSealing {
  constructor(private readonly cipher: SecretCipher) {}

  /** Encrypts a new secret of the connector for storage. */
  sealFor(connectorUuid: string): Seal {
    return (field, plaintext) => this.cipher.encrypt(plaintext, secretContext(connectorUuid, field));
  }

  /** Whether a sent secret is the stored one: decrypted in memory for the comparison only. One that no key decrypts counts as changed. */
  sameAsStored(connectorUuid: string): SameAsStored {
    return (field, sealed, plaintext) => {
      try {
        return this.cipher.decrypt(sealed, secretContext(connectorUuid, field)) === plaintext;
      } catch {
        return false;
      }
    };
  }
}
