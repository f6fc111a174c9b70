/** Real keys and a local JWKS endpoint (port 0) for the A2A bearer-auth tests. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import type { CryptoKey, JWK, JWTPayload } from 'jose';

export interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
  /** the public key as SPKI PEM (what an algorithm-confusion attacker uses as an HMAC secret) */
  readonly publicPem: string;
}

export async function rsaKey(kid: string): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(publicKey);
  const spki = Buffer.from(await crypto.subtle.exportKey('spki', publicKey)).toString('base64');
  const pem = `-----BEGIN PUBLIC KEY-----\n${spki.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END PUBLIC KEY-----\n`;
  return { kid, privateKey, publicJwk: { ...jwk, kid, alg: 'RS256', use: 'sig' }, publicPem: pem };
}

export interface JwksServer {
  readonly url: string;
  /** how many times the key set was fetched */
  fetches(): number;
  /** the keys served from now on */
  serve(keys: readonly SigningKey[]): void;
  close(): Promise<void>;
}

export async function jwksServer(keys: readonly SigningKey[]): Promise<JwksServer> {
  let served = keys;
  let count = 0;
  const server = createServer((request, response) => {
    count += 1;
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ keys: served.map((key) => key.publicJwk) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/jwks.json`,
    fetches: () => count,
    serve: (next) => {
      served = next;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const ISSUER = 'https://orchestrator.example';
export const AUDIENCE = 'parley-bank';

export interface TokenOptions {
  readonly claims?: JWTPayload;
  readonly issuer?: string;
  readonly audience?: string;
  /** seconds from now; negative for an expired token */
  readonly expiresIn?: number;
  /** the calling agent (`sub`); default `orchestrator`, null for a token that names none */
  readonly subject?: string | null;
}

export async function rsaToken(key: SigningKey, options: TokenOptions = {}): Promise<string> {
  return signed(
    new SignJWT(options.claims ?? {}).setProtectedHeader({ alg: 'RS256', kid: key.kid }),
    options,
  ).sign(key.privateKey);
}

export async function hmacToken(secret: string | Uint8Array, options: TokenOptions = {}, kid?: string) {
  const key = typeof secret === 'string' ? new TextEncoder().encode(secret) : secret;
  return signed(
    new SignJWT(options.claims ?? {}).setProtectedHeader({ alg: 'HS256', ...(kid ? { kid } : {}) }),
    options,
  ).sign(key);
}

function signed(jwt: SignJWT, options: TokenOptions): SignJWT {
  const now = Math.floor(Date.now() / 1000);
  const subject = options.subject === undefined ? 'orchestrator' : options.subject;
  if (subject !== null) jwt.setSubject(subject);
  return jwt
    .setIssuer(options.issuer ?? ISSUER)
    .setAudience(options.audience ?? AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + (options.expiresIn ?? 300));
}

/** An unsecured JWT (`alg: none`, empty signature). */
export function unsignedToken(payload: JWTPayload = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const claims = { iss: ISSUER, aud: AUDIENCE, exp: now + 300, ...payload };
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode(claims)}.`;
}
