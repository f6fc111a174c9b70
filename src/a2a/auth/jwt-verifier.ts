/**
 * Verifies the bearer JWT of a calling agent (`a2a_server.auth`) with jose. Only the configured
 * algorithms are accepted, so `alg: none` and algorithm confusion (an HS256 token whose "secret" is the
 * RSA public key) fail before any key is used: a JWKS only yields asymmetric keys for the algorithms
 * listed, a shared secret only HS* ones. `exp` is required: a token that never expires is a password.
 */
import { createRemoteJWKSet, errors, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey, JWTVerifyOptions } from 'jose';
import type { A2aAuthConfig } from '../config-auth.js';

export interface JwtVerifierOptions {
  readonly config: A2aAuthConfig;
  /** a JWKS fetch slower than this fails (the call is answered 503) */
  readonly jwksTimeoutMs?: number;
  /**
   * After a fetch, how long a token with an unknown `kid` waits before it may trigger another: a flood
   * of forged kids costs at most one fetch per interval, a rotated key is picked up after it.
   */
  readonly jwksCooldownMs?: number;
  /** how long fetched keys are used before they are fetched again */
  readonly jwksMaxAgeMs?: number;
}

export type VerifyResult =
  { readonly ok: true; readonly claims: JWTPayload } | { readonly ok: false; readonly failure: AuthFailure };

export interface AuthFailure {
  /** `invalid_token`: the client must get a new token; `keys_unavailable`: the JWKS could not be read */
  readonly kind: 'invalid_token' | 'keys_unavailable';
  /** for the client (WWW-Authenticate error_description): says what is wrong, never a key */
  readonly description: string;
}

export const DEFAULT_JWKS_TIMEOUT_MS = 5_000;
export const DEFAULT_JWKS_COOLDOWN_MS = 5_000;
export const DEFAULT_JWKS_MAX_AGE_MS = 10 * 60_000;

export class JwtVerifier {
  private readonly key: JWTVerifyGetKey | Uint8Array;
  private readonly verifyOptions: JWTVerifyOptions;

  constructor(options: JwtVerifierOptions) {
    const { config } = options;
    this.key =
      config.keys.kind === 'jwks'
        ? createRemoteJWKSet(new URL(config.keys.url), {
            timeoutDuration: options.jwksTimeoutMs ?? DEFAULT_JWKS_TIMEOUT_MS,
            cooldownDuration: options.jwksCooldownMs ?? DEFAULT_JWKS_COOLDOWN_MS,
            cacheMaxAge: options.jwksMaxAgeMs ?? DEFAULT_JWKS_MAX_AGE_MS,
          })
        : new TextEncoder().encode(config.keys.secret);
    this.verifyOptions = {
      algorithms: [...config.algorithms],
      clockTolerance: config.leewaySeconds,
      requiredClaims: ['exp'],
      ...(config.issuer !== undefined ? { issuer: config.issuer } : {}),
      ...(config.audience.length > 0 ? { audience: [...config.audience] } : {}),
    };
  }

  async verify(token: string): Promise<VerifyResult> {
    try {
      const { payload } =
        this.key instanceof Uint8Array
          ? await jwtVerify(token, this.key, this.verifyOptions)
          : await jwtVerify(token, this.key, this.verifyOptions);
      return { ok: true, claims: payload };
    } catch (error) {
      return { ok: false, failure: describeFailure(error) };
    }
  }
}

function describeFailure(error: unknown): AuthFailure {
  const invalid = (description: string): AuthFailure => ({ kind: 'invalid_token', description });
  if (error instanceof errors.JWTExpired) return invalid('The token has expired.');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return invalid('The token is not valid yet.');
    return invalid(`The token's ${error.claim} claim is not accepted.`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return invalid("The token's algorithm is not accepted.");
  if (error instanceof errors.JWKSNoMatchingKey) return invalid("No known key matches the token's key id.");
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return invalid("The token's signature is invalid.");
  if (error instanceof errors.JWKSTimeout)
    return {
      kind: 'keys_unavailable',
      description: 'The keys to verify tokens could not be fetched in time.',
    };
  if (error instanceof errors.JWKSInvalid || isFetchFailure(error))
    return { kind: 'keys_unavailable', description: 'The keys to verify tokens could not be fetched.' };
  return invalid('The token is not a valid signed JWT.');
}

/** jose rethrows fetch's network errors (TypeError) and reports a non-200 JWKS answer as JOSEError */
function isFetchFailure(error: unknown): boolean {
  if (error instanceof TypeError) return true;
  return error instanceof errors.JOSEError && error.code === 'ERR_JOSE_GENERIC';
}
