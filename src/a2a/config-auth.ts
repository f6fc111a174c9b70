/**
 * `a2a_server.auth`: JWT bearer authentication of calling agents. The token identifies the orchestrator,
 * never the end user (that belongs in message metadata). Keys come from a JWKS (asymmetric algorithms,
 * issuer and audience required) or from a shared secret (HS* only, at least 32 characters).
 */
import {
  A2A_AUTH_KEYS,
  A2A_DEFAULTS,
  JWKS_ALGORITHMS,
  JWKS_URL_PATTERN,
  MAX_LEEWAY_SECONDS,
  MIN_SECRET_LENGTH,
  SECRET_ALGORITHMS,
} from '../core/a2a-server-rules.js';
import { ConfigFields, isRecord } from './config-fields.js';
import type { A2aConfigProblem } from './config-fields.js';

export type A2aKeySource =
  { readonly kind: 'jwks'; readonly url: string } | { readonly kind: 'secret'; readonly secret: string };

export interface A2aAuthConfig {
  readonly keys: A2aKeySource;
  /** the `iss` tokens must carry; required with a JWKS */
  readonly issuer?: string;
  /** tokens must carry one of these in `aud`; required with a JWKS */
  readonly audience: readonly string[];
  readonly algorithms: readonly string[];
  /** clock skew allowed on `exp` and `nbf` */
  readonly leewaySeconds: number;
}

const CODE = 'A2A_AUTH_INVALID';

export function readAuthConfig(raw: unknown, problems: A2aConfigProblem[]): A2aAuthConfig | undefined {
  if (!isRecord(raw)) {
    problems.push({ code: CODE, key: 'a2a_server.auth', message: 'must be a map with jwks_url or secret' });
    return undefined;
  }
  const fields = new ConfigFields({ section: 'a2a_server.auth', raw, problems });
  for (const key of fields.unknownKeys(A2A_AUTH_KEYS))
    fields.problem(CODE, key, `is not an auth key (expected one of: ${A2A_AUTH_KEYS.join(', ')})`);
  const keys = readKeySource(fields);
  const issuer = fields.text('issuer', CODE);
  const audience = readAudience(fields);
  const leewaySeconds = fields.wholeNumber('leeway', CODE, MAX_LEEWAY_SECONDS);
  if (keys?.kind === 'jwks') {
    if (!fields.has('issuer')) fields.problem(CODE, 'issuer', 'is required with jwks_url');
    if (!fields.has('audience')) fields.problem(CODE, 'audience', 'is required with jwks_url');
  }
  const algorithms = readAlgorithms(fields, keys);
  if (!keys || !algorithms) return undefined;
  return {
    keys,
    ...(issuer === undefined ? {} : { issuer }),
    audience,
    algorithms,
    leewaySeconds: leewaySeconds ?? A2A_DEFAULTS.leewaySeconds,
  };
}

function readKeySource(fields: ConfigFields): A2aKeySource | undefined {
  const jwksUrl = fields.text('jwks_url', CODE, {
    regex: new RegExp(JWKS_URL_PATTERN),
    message: 'must be an https URL (http only for localhost)',
  });
  const secret = fields.text('secret', CODE);
  if (secret !== undefined && secret.length < MIN_SECRET_LENGTH)
    fields.problem(CODE, 'secret', `must be at least ${MIN_SECRET_LENGTH} characters long`);
  if (fields.has('jwks_url') && fields.has('secret')) {
    fields.problem(CODE, '', 'sets both jwks_url and secret: keep one key source');
    return undefined;
  }
  if (!fields.has('jwks_url') && !fields.has('secret')) {
    fields.problem(CODE, '', 'has no key to verify tokens with: add jwks_url or secret');
    return undefined;
  }
  if (jwksUrl !== undefined) return { kind: 'jwks', url: jwksUrl };
  if (secret !== undefined && secret.length >= MIN_SECRET_LENGTH) return { kind: 'secret', secret };
  return undefined;
}

function readAudience(fields: ConfigFields): string[] {
  const value = fields.value('audience');
  if (typeof value === 'string') return [fields.text('audience', CODE)].filter((item) => item !== undefined);
  const list = fields.textList('audience', CODE);
  if (Array.isArray(value) && value.length === 0) fields.problem(CODE, 'audience', 'must not be empty');
  return list;
}

/** Checks the algorithms against the key source; the default is the family's usual one. */
function readAlgorithms(fields: ConfigFields, keys: A2aKeySource | undefined): string[] | undefined {
  const allowed: readonly string[] = keys?.kind === 'secret' ? SECRET_ALGORITHMS : JWKS_ALGORITHMS;
  const before = fields.problems.length;
  const listed = fields.textList('algorithms', CODE);
  if (fields.has('algorithms') && Array.isArray(fields.value('algorithms')) && listed.length === 0)
    fields.problem(CODE, 'algorithms', 'must list at least one algorithm');
  if (keys !== undefined)
    for (const algorithm of listed)
      if (!allowed.includes(algorithm))
        fields.problem(
          CODE,
          'algorithms',
          `'${algorithm}' cannot be used with ${keys.kind === 'secret' ? 'secret' : 'jwks_url'} (allowed: ${allowed.join(', ')})`,
        );
  if (fields.problems.length > before) return undefined;
  if (listed.length > 0) return listed;
  return keys?.kind === 'secret' ? ['HS256'] : ['RS256'];
}
