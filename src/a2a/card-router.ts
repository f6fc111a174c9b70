/**
 * Serves the AgentCard at `/.well-known/agent-card.json` (v0.3 and v1.0) and `/.well-known/agent.json`
 * (the v0.2-era path older clients still probe). Public: the card tells callers how to authenticate.
 * `A2A-Version: 1.0` gets the pure v1.0 card; no version (or 0.3) gets the combined card both kinds of
 * client read; any other version gets the VersionNotSupported error. Bodies are rendered once, with an
 * ETag (a hash of the body) per shape, Last-Modified (when the card was built) and `Vary: A2A-Version`,
 * so caches keep the two shapes apart; conditional requests get 304.
 */
import { createHash } from 'node:crypto';
import { Router } from 'express';
import type { Request, Response } from 'express';
import { A2A_VERSION_HEADER, SUPPORTED_VERSIONS, requestedVersion } from './protocol-version.js';
import type { ServedCards } from './card/types.js';

export const CARD_PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'] as const;
export const DEFAULT_CARD_MAX_AGE_SECONDS = 300;

export interface RenderedCard {
  readonly body: string;
  readonly etag: string;
}

export interface PublishedCards {
  readonly v1: RenderedCard;
  readonly combined: RenderedCard;
  /** when the cards were built (server start), whole seconds as HTTP dates have */
  readonly lastModified: Date;
}

export interface CardRouterOptions {
  /** the cards, or undefined while the server is not listening yet */
  readonly cards: () => PublishedCards | undefined;
  readonly maxAgeSeconds?: number;
}

export function publishCards(cards: ServedCards, builtAt: Date): PublishedCards {
  return {
    v1: render(cards.v1),
    combined: render(cards.combined),
    lastModified: new Date(Math.floor(builtAt.getTime() / 1000) * 1000),
  };
}

function render(card: unknown): RenderedCard {
  const body = JSON.stringify(card);
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return { body, etag: `"${hash}"` };
}

export function cardRouter(options: CardRouterOptions): Router {
  const router = Router();
  const cacheControl = `public, max-age=${options.maxAgeSeconds ?? DEFAULT_CARD_MAX_AGE_SECONDS}`;
  router.get([...CARD_PATHS], (request, response) => {
    response.vary(A2A_VERSION_HEADER);
    if (!response.get('Access-Control-Allow-Origin')) response.set('Access-Control-Allow-Origin', '*');
    const version = requestedVersion(request);
    if (version.kind === 'unsupported') {
      sendStatus(response, 400, 'FAILED_PRECONDITION', {
        message: `A2A-Version ${version.requested} is not supported; this agent serves ${SUPPORTED_VERSIONS.join(' and ')}.`,
        reason: 'VERSION_NOT_SUPPORTED',
        metadata: { requestedVersion: version.requested, supportedVersions: SUPPORTED_VERSIONS.join(',') },
      });
      return;
    }
    const cards = options.cards();
    if (!cards) {
      response.set('Retry-After', '1');
      sendStatus(response, 503, 'UNAVAILABLE', { message: 'The AgentCard is not ready yet.' });
      return;
    }
    const card = version.kind === 'supported' && version.version === '1.0' ? cards.v1 : cards.combined;
    response.set({
      ETag: card.etag,
      'Last-Modified': cards.lastModified.toUTCString(),
      'Cache-Control': cacheControl,
    });
    if (notModified(request, card.etag, cards.lastModified)) {
      response.status(304).end();
      return;
    }
    response.type('application/json').send(card.body);
  });
  return router;
}

/** RFC 9110 §13.2.2: If-None-Match (weak comparison) decides when present, else If-Modified-Since. */
function notModified(request: Request, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = request.get('If-None-Match');
  if (ifNoneMatch !== undefined) {
    const tags = ifNoneMatch.split(',').map((tag) => tag.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(etag);
  }
  const ifModifiedSince = request.get('If-Modified-Since');
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && lastModified.getTime() <= since;
}

/** An error in the HTTP+JSON binding's shape (google.rpc.Status with an ErrorInfo), spec/a2a.md §2.9. */
function sendStatus(
  response: Response,
  code: number,
  status: string,
  error: { message: string; reason?: string; metadata?: Record<string, string> },
): void {
  const details = error.reason
    ? [
        {
          '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
          reason: error.reason,
          domain: 'a2a-protocol.org',
          ...(error.metadata ? { metadata: error.metadata } : {}),
        },
      ]
    : [];
  response.status(code).json({ error: { code, status, message: error.message, details } });
}
