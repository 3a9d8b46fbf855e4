// One line per rule at an endpoint: `requireUser`, `requireAdmin`, and `assertOwner` for records.
import type { Request, RequestHandler } from 'express';
import { forbidden, HttpError, unauthorized } from '../http/errors';
import { InvalidTokenError, type Principal, type TokenVerifier } from './tokens';

declare module 'express-serve-static-core' {
  interface Request {
    principal?: Principal;
  }
}

function bearerOf(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (!header) return undefined;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : undefined;
}

export interface Guards {
  /** Attaches the principal when a valid token is present; anonymous otherwise. */
  optionalUser: RequestHandler;
  requireUser: RequestHandler;
  requireAdmin: RequestHandler;
}

export function createGuards(verifier: TokenVerifier): Guards {
  const authenticate = async (req: Request, required: boolean) => {
    const token = bearerOf(req);
    if (!token) {
      if (required) throw unauthorized();
      return;
    }
    try {
      req.principal = await verifier.verify(token);
    } catch (err) {
      if (err instanceof InvalidTokenError) throw new HttpError(401, err.message, 'invalid_token');
      throw err;
    }
  };
  return {
    optionalUser: (req, _res, next) => {
      authenticate(req, false).then(() => next(), next);
    },
    requireUser: (req, _res, next) => {
      authenticate(req, true).then(() => next(), next);
    },
    requireAdmin: (req, _res, next) => {
      authenticate(req, true)
        .then(() => {
          if (!req.principal?.roles.includes('admin'))
            throw forbidden('This needs an administrator account.');
          next();
        }, next)
        .catch(next);
    },
  };
}

/** Throws 404 (not 403: do not reveal that someone else's record exists) unless the caller owns it or is admin. */
export function assertOwner(principal: Principal | undefined, ownerId: string, what = 'record'): void {
  if (!principal) throw unauthorized();
  if (principal.userId !== ownerId && !principal.roles.includes('admin')) {
    throw new HttpError(404, `No such ${what}.`, 'not_found');
  }
}
