import type { RequestHandler } from 'express';
import { PARLEY_VERSION } from '../version.js';
import type { TurnGate } from './turn-gate.js';

export interface HealthStatus {
  readonly status: 'ok' | 'shutting_down';
  readonly version: string;
  readonly uptime_seconds: number;
  readonly turns_in_flight: number;
}

/**
 * The public health answer (`GET /status` while the HTTP API, which serves an authenticated
 * `/status` of its own, is off): 200 `{status: "ok", ...}`, or 503 once a shutdown began so that a
 * load balancer stops routing to this instance while it finishes the turns in flight.
 */
export function healthHandler(options: { gate: TurnGate; now?: () => number }): RequestHandler {
  const now = options.now ?? Date.now;
  const startedAt = now();
  return (_request, response) => {
    const body: HealthStatus = {
      status: options.gate.isClosing ? 'shutting_down' : 'ok',
      version: PARLEY_VERSION,
      uptime_seconds: Math.round((now() - startedAt) / 1000),
      turns_in_flight: options.gate.turnsInFlight,
    };
    response.status(body.status === 'ok' ? 200 : 503).json(body);
  };
}
