import { jwtVerify } from 'jose';
import type { JWTPayload } from 'jose';
import type { JwtSettings } from './settings.js';

export type TokenCheck =
  { readonly ok: true; readonly payload: JWTPayload } | { readonly ok: false; readonly reason: string };

/**
 * Rasa's `decode_bearer_token` for the socket.io handshake: the token from `auth: {token}`, with an
 * optional `Bearer ` prefix, must verify with the configured key and algorithm (and not be expired).
 */
export async function verifyHandshakeToken(auth: unknown, settings: JwtSettings): Promise<TokenCheck> {
  const raw =
    typeof auth === 'object' && auth !== null ? (auth as Record<string, unknown>)['token'] : undefined;
  if (typeof raw !== 'string' || raw.trim() === '') return { ok: false, reason: 'no token in auth' };
  const token = raw.trim().replace(/^Bearer\s+/i, '');
  try {
    const { payload } = await jwtVerify(token, settings.key, { algorithms: [...settings.algorithms] });
    return { ok: true, payload };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { ok: false, reason: typeof code === 'string' ? code : String(error) };
  }
}
