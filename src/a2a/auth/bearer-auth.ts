/**
 * Express middleware in front of the JSON-RPC endpoint: every call needs a valid bearer JWT when
 * `a2a_server.auth` is set (the AgentCard stays public; it is served by another route). A missing or
 * invalid token is answered before the body is read: HTTP 401 with `WWW-Authenticate: Bearer` (RFC 6750
 * §3: `error="invalid_token"` and a description when a token was sent, neither when none was) and a
 * JSON-RPC error body with `id: null`, shaped for the version the `A2A-Version` header asks for.
 */
import type { RequestHandler, Response } from 'express';
import type { Logger } from '../../runtime/logger.js';
import { A2aError } from '../a2a-error.js';
import { callerFromClaims } from '../caller.js';
import { httpStatusOf, toJsonRpcError } from '../jsonrpc/errors.js';
import { requestedVersion } from '../protocol-version.js';
import type { AuthFailure, JwtVerifier } from './jwt-verifier.js';

export const AUTH_REALM = 'a2a';

export interface BearerAuthOptions {
  readonly verifier: JwtVerifier;
  readonly logger: Logger;
}

/** the verified claims of the calling agent, for the handlers after this middleware */
export const CLAIMS_LOCAL = 'a2aClaims';
/** the calling agent the claims name (caller.ts): tasks and push configs belong to it */
export const CALLER_LOCAL = 'a2aCaller';

const NO_CALLER = 'The token names no calling agent (it has no usable sub or azp claim).';

export function bearerAuth(options: BearerAuthOptions): RequestHandler {
  return (request, response, next) => {
    const version = requestedVersion(request);
    const wire = version.kind === 'supported' ? version.version : '0.3';
    const token = bearerToken(request.get('authorization'));
    if (token === undefined) {
      refuse(response, wire, undefined);
      return;
    }
    void options.verifier.verify(token).then((result) => {
      const caller = result.ok ? callerFromClaims(result.claims) : undefined;
      if (result.ok && caller !== undefined) {
        response.locals[CLAIMS_LOCAL] = result.claims;
        response.locals[CALLER_LOCAL] = caller;
        next();
        return;
      }
      if (result.ok) {
        // a token that names no caller cannot own tasks: it would share them with every such token
        options.logger.info({ reason: 'no usable sub or azp claim' }, 'a2a call refused: bearer token');
        refuse(response, wire, { kind: 'invalid_token', description: NO_CALLER });
        return;
      }
      const log = result.failure.kind === 'keys_unavailable' ? options.logger.error : options.logger.info;
      log.call(options.logger, { reason: result.failure.description }, 'a2a call refused: bearer token');
      refuse(response, wire, result.failure);
    });
  };
}

/** The token of an `Authorization: Bearer <token>` header (the scheme is case-insensitive). */
export function bearerToken(header: string | undefined): string | undefined {
  const match = /^\s*Bearer\s+([A-Za-z0-9\-._~+/]+=*)\s*$/i.exec(header ?? '');
  return match?.[1];
}

function refuse(response: Response, wire: '0.3' | '1.0', failure: AuthFailure | undefined): void {
  const unavailable = failure?.kind === 'keys_unavailable';
  const error = new A2aError({
    reason: unavailable ? 'AUTH_UNAVAILABLE' : 'UNAUTHENTICATED',
    message: failure?.description ?? 'This agent needs a bearer token (Authorization: Bearer <JWT>).',
  });
  if (unavailable) response.set('Retry-After', '5');
  else response.set('WWW-Authenticate', challenge(failure));
  response
    .status(httpStatusOf(error.reason))
    .json({ jsonrpc: '2.0', id: null, error: toJsonRpcError(error, wire) });
}

function challenge(failure: AuthFailure | undefined): string {
  if (!failure) return `Bearer realm="${AUTH_REALM}"`;
  const description = failure.description.replace(/["\\]/g, "'");
  return `Bearer realm="${AUTH_REALM}", error="invalid_token", error_description="${description}"`;
}
