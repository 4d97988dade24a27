import { OAuth2Client } from 'arctic';
import type { Config } from '../../config/index.js';
import { featureNotAvailable } from '../../errors.js';
import { SecretBox } from '../../infra/secret-box.js';
import { providerSpec } from './providers.js';
import type { OAuthProvider, ProviderSpec } from './providers.js';

/** The configured OAuth apps and the key their tokens are sealed with, shared by flow and refresh. */
export class OAuthClients {
  readonly box: SecretBox | null;

  constructor(private readonly config: Readonly<Config>) {
    this.box = config.encryptionKey ? new SecretBox(config.encryptionKey) : null;
  }

  spec(provider: OAuthProvider): ProviderSpec {
    return providerSpec(this.config, provider);
  }

  /** The settings still needed before `provider` can be connected (empty when configured). */
  missingSettings(provider: OAuthProvider): string[] {
    const spec = this.spec(provider);
    const missing: string[] = [];
    if (!spec.clientId) missing.push(spec.settingNames.clientId);
    if (!spec.clientSecret) missing.push(spec.settingNames.clientSecret);
    if (!this.box) missing.push('ENCRYPTION_KEY');
    return missing;
  }

  redirectUri(provider: OAuthProvider): string {
    return `${this.config.baseUrl}/api/oauth/${provider}/callback`;
  }

  /** The provider's OAuth client; 403 FEATURE_NOT_AVAILABLE naming what is not set. */
  configured(provider: OAuthProvider): { spec: ProviderSpec; client: OAuth2Client } {
    const spec = this.spec(provider);
    const missing = this.missingSettings(provider);
    if (missing.length > 0 || !spec.clientId || !spec.clientSecret) {
      throw featureNotAvailable(
        `OAuth connections to ${spec.label} are not configured: set ${missing.join(', ')}`,
      );
    }
    const client = new OAuth2Client(spec.clientId, spec.clientSecret, this.redirectUri(provider));
    return { spec, client };
  }

  requireBox(): SecretBox {
    if (!this.box) throw featureNotAvailable('OAuth connections need ENCRYPTION_KEY');
    return this.box;
  }
}
