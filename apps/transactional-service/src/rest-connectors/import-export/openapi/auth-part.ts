import { ApiKeyIn, AuthType, GrantType } from '@app/domain';
import { CredentialDraft } from '../connector-draft';

/** The auth settings of one operation, as a connector carries them: what security.ts maps a scheme to, and what server user info becomes. */
export interface AuthPart {
  authType: AuthType;
  grantType: GrantType | null;
  oauthUrl: string | null;
  apiKeyName: string | null;
  apiKeyIn: ApiKeyIn | null;
  credentials: CredentialDraft[];
}

export const NO_AUTH: AuthPart = { authType: AuthType.AUTH_NONE, grantType: null, oauthUrl: null, apiKeyName: null, apiKeyIn: null, credentials: [] };
