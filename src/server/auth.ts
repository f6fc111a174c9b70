import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { importSPKI, importX509, jwtVerify } from 'jose';
import type { CryptoKey, JWTPayload } from 'jose';
import { sendRasaError } from '../channels/http-errors.js';
import { AppError } from '../core/errors.js';

/** Rasa's `--auth-token`, `--jwt-secret`, `--jwt-method` and `--jwt-private-key` (empty strings: not set). */
export interface ApiAuthConfig {
  readonly token?: string;
  /** the shared secret (HS*) or the public key, PEM or X.509 certificate (RS*, PS*, ES*, EdDSA) */
  readonly jwtSecret?: string;
  readonly jwtMethod?: string;
  /** accepted for Rasa compatibility; Parley only verifies tokens and never signs one */
  readonly jwtPrivateKey?: string;
}

export type AuthDecision =
  | { readonly allowed: true; readonly via: 'token' | 'jwt' | 'open' }
  | { readonly allowed: false; readonly status: 401 | 403 };

export interface AuthRequest {
  /** the `token` query parameter(s) */
  readonly token: unknown;
  readonly authorization: string | undefined;
  /** the conversation the route is about, if any */
  readonly conversationId: string | undefined;
}

const SYMMETRIC = new Set(['HS256', 'HS384', 'HS512']);
const ASYMMETRIC = new Set([
  ...['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'],
  ...['ES256', 'ES384', 'ES512', 'EdDSA'],
]);

/**
 * Rasa's `requires_auth`, in its order: the `?token=` query parameter equal to the auth token; else a
 * valid `Authorization: Bearer` JWT whose `user.role` is `admin` (any route) or `user` (only the
 * conversation named `user.username`); else open when neither is configured; else 401. A JWT is
 * verified with the one configured algorithm only (never `none`), and `exp`/`nbf` are enforced.
 */
export class ApiAuth {
  private readonly tokenHash: Buffer | undefined;
  private readonly jwt: { readonly key: CryptoKey | Uint8Array; readonly method: string } | undefined;

  private constructor(options: {
    token: string | undefined;
    jwt: { key: CryptoKey | Uint8Array; method: string } | undefined;
  }) {
    this.tokenHash = options.token === undefined ? undefined : sha256(options.token);
    this.jwt = options.jwt;
  }

  /** Reads the key once; an unknown algorithm or an unreadable key is AUTH_CONFIG_INVALID. */
  static async create(config: ApiAuthConfig = {}): Promise<ApiAuth> {
    const token = config.token ? config.token : undefined;
    if (!config.jwtSecret) return new ApiAuth({ token, jwt: undefined });
    const method = config.jwtMethod || 'HS256';
    return new ApiAuth({ token, jwt: { key: await verificationKey(config.jwtSecret, method), method } });
  }

  /** For the start-up summary: `auth: token + JWT HS256`, or `no auth`. */
  describe(): string {
    const kinds = [...(this.tokenHash ? ['token'] : []), ...(this.jwt ? [`JWT ${this.jwt.method}`] : [])];
    return kinds.length > 0 ? `auth: ${kinds.join(' + ')}` : 'no auth';
  }

  /** No token and no JWT configured: every route is open (Rasa's default). */
  get isOpen(): boolean {
    return this.tokenHash === undefined && this.jwt === undefined;
  }

  async decide(request: AuthRequest): Promise<AuthDecision> {
    if (this.tokenMatches(request.token)) return { allowed: true, via: 'token' };
    const payload = this.jwt ? await this.verifiedPayload(request.authorization) : undefined;
    if (payload) {
      return hasScope(payload, request.conversationId)
        ? { allowed: true, via: 'jwt' }
        : { allowed: false, status: 403 };
    }
    if (this.isOpen) return { allowed: true, via: 'open' };
    return { allowed: false, status: 401 };
  }

  private tokenMatches(provided: unknown): boolean {
    if (this.tokenHash === undefined || typeof provided !== 'string') return false;
    // compared as digests so that neither the content nor the length leaks through timing
    return timingSafeEqual(sha256(provided), this.tokenHash);
  }

  private async verifiedPayload(authorization: string | undefined): Promise<JWTPayload | undefined> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    if (!match?.[1] || !this.jwt) return undefined;
    try {
      const { payload } = await jwtVerify(match[1], this.jwt.key, { algorithms: [this.jwt.method] });
      return payload;
    } catch {
      // a bad signature, another algorithm, an expired or malformed token: not authenticated
      return undefined;
    }
  }
}

/** Express middleware: Rasa's 401 / 403 bodies, the conversation taken from the route's parameter. */
export function requireAuth(auth: ApiAuth): RequestHandler {
  return async (request, response, next) => {
    if (auth.isOpen) {
      next();
      return;
    }
    const decision = await auth.decide({
      token: request.query['token'],
      authorization: request.headers.authorization,
      conversationId: conversationIdParam(request.params),
    });
    if (decision.allowed) next();
    else if (decision.status === 403)
      sendRasaError(response, {
        status: 403,
        reason: 'NotAuthorized',
        message: 'User has insufficient permissions.',
      });
    else
      sendRasaError(response, {
        status: 401,
        reason: 'NotAuthenticated',
        message: 'User is not authenticated.',
      });
  };
}

/** `:conversationId`, or `*conversationId` (ids with slashes, like Rasa's `<conversation_id:path>`). */
export function conversationIdParam(params: Record<string, unknown>): string | undefined {
  const value = params['conversationId'];
  if (Array.isArray(value)) return value.join('/');
  return typeof value === 'string' ? value : undefined;
}

function hasScope(payload: JWTPayload, conversationId: string | undefined): boolean {
  const user = payload['user'];
  if (typeof user !== 'object' || user === null) return false;
  const { role, username } = user as Record<string, unknown>;
  if (role === 'admin') return true;
  return role === 'user' && conversationId !== undefined && username === conversationId;
}

async function verificationKey(secret: string, method: string): Promise<CryptoKey | Uint8Array> {
  if (SYMMETRIC.has(method)) return new TextEncoder().encode(secret);
  if (!ASYMMETRIC.has(method))
    throw new AppError({
      code: 'AUTH_CONFIG_INVALID',
      message: `--jwt-method '${method}' is not supported; use one of ${[...SYMMETRIC, ...ASYMMETRIC].join(', ')}.`,
    });
  // environment variables often carry a PEM with its line breaks written as \n
  const pem = secret.includes('\n') ? secret : secret.replace(/\\n/g, '\n');
  try {
    return pem.includes('BEGIN CERTIFICATE') ? await importX509(pem, method) : await importSPKI(pem, method);
  } catch (error) {
    throw new AppError({
      code: 'AUTH_CONFIG_INVALID',
      message: `--jwt-secret is not a ${method} public key (PEM "BEGIN PUBLIC KEY" or a certificate): ${
        error instanceof Error ? error.message : String(error)
      }`,
      cause: error,
    });
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
