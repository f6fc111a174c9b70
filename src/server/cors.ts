import type { ServerResponse } from 'node:http';
import type { NodeMiddleware } from './direct-routes.js';

/**
 * Rasa's `--cors`: no header without it; `*` allows every origin. Credentials are allowed and the
 * `filename` header is exposed (Rasa's model download), and preflight requests are answered here.
 */
export function corsMiddleware(origins: readonly string[]): NodeMiddleware {
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return (request, response, next) => {
    const origin = request.headers.origin;
    if (origin && (any || allowed.has(origin))) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Access-Control-Allow-Credentials', 'true');
      response.setHeader('Access-Control-Expose-Headers', 'filename');
      addVary(response, 'Origin');
      if (request.method === 'OPTIONS') {
        response.setHeader('Access-Control-Allow-Methods', 'GET,POST,PUT,DELETE,OPTIONS');
        const requested = request.headers['access-control-request-headers'];
        response.setHeader('Access-Control-Allow-Headers', requested ?? 'Content-Type,Authorization');
        response.statusCode = 204;
        response.end();
        return;
      }
    }
    next();
  };
}

/** adds a field to the Vary header, keeping the fields already named there */
function addVary(response: ServerResponse, field: string): void {
  const current = response.getHeader('Vary');
  const fields = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  if (fields.includes('*') || fields.some((name) => name.toLowerCase() === field.toLowerCase())) return;
  response.setHeader('Vary', [...fields, field].join(', '));
}
