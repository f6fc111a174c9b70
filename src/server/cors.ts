import type { RequestHandler } from 'express';

/**
 * Rasa's `--cors`: no header without it; `*` allows every origin. Credentials are allowed and the
 * `filename` header is exposed (Rasa's model download), and preflight requests are answered here.
 */
export function corsMiddleware(origins: readonly string[]): RequestHandler {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return (request, response, next) => {
    const origin = request.headers.origin;
    if (origin && (any || allowed.has(origin))) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Access-Control-Allow-Credentials', 'true');
      response.setHeader('Access-Control-Expose-Headers', 'filename');
      response.vary('Origin');
      if (request.method === 'OPTIONS') {
        response.setHeader('Access-Control-Allow-Methods', 'GET,POST,PUT,DELETE,OPTIONS');
        const requested = request.headers['access-control-request-headers'];
        response.setHeader('Access-Control-Allow-Headers', requested ?? 'Content-Type,Authorization');
        response.status(204).end();
        return;
      }
    }
    next();
  };
}
