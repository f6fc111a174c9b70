import type { RequestHandler } from 'express';
import { MAX_BODY_DEPTH, nestedDeeperThan } from '../core/text/json-depth.js';

export { MAX_BODY_DEPTH, nestedDeeperThan } from '../core/text/json-depth.js';

/** Passes an error of type `entity.too.deep` to the error handler for a body nested too deeply. */
export function bodyDepthGuard(limit = MAX_BODY_DEPTH): RequestHandler {
  return (request, _response, next) => {
    if (nestedDeeperThan(request.body, limit))
      next(
        Object.assign(new Error(`The request body nests more than ${limit} levels deep.`), {
          type: 'entity.too.deep',
        }),
      );
    else next();
  };
}
