import { SignJWT } from 'jose';
import { newId } from '../../infra/crypto.js';

export interface CustomerJwtClaims {
  tenantId: string;
  customerId: string;
  scope: string;
  packageScopes: string[];
  expiresInSeconds: number;
}

/**
 * Signs the HS256 JWT that AuthService.byJwt accepts on the composer surface: sub = customer,
 * tid = tenant (a JWT from one tenant is useless on another), jti for traceability.
 */
export async function signCustomerJwt(
  secret: string,
  claims: CustomerJwtClaims,
): Promise<{ token: string; expiresAt: string }> {
  const issuedAt = Math.floor(Date.now() / 1000);
  const exp = issuedAt + claims.expiresInSeconds;
  const token = await new SignJWT({
    tid: claims.tenantId,
    scope: claims.scope,
    package_scopes: claims.packageScopes,
  })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.customerId)
    .setJti(newId())
    .setIssuedAt(issuedAt)
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));
  return { token, expiresAt: new Date(exp * 1000).toISOString() };
}
