// Whether a request comes from this machine, and the guard built on it: the one rule for what `npm start`
// (bound to every interface) serves only to its own machine — the dev mailbox (it hands out sign-in and
// reset links) and the checkout sandbox (its pages subscribe anyone without paying, its clock ends every
// sandbox subscription). The gateway applies it at the edge, where the real TCP peer is seen; a service
// that serves such pages on its own HTTP port applies it there too, for when it runs alone and binds to
// every interface.
import { BlockList, isIPv6 } from 'node:net';
import type { Request, RequestHandler } from 'express';
import { HttpError } from './errors';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4'); // also matches IPv4-mapped IPv6 (::ffff:127.0.0.1)
loopback.addAddress('::1', 'ipv6');

export const isLoopbackAddress = (address: string | undefined): boolean =>
  !!address && loopback.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');

/**
 * True when both the TCP peer and the client Express derives from X-Forwarded-For are loopback. The peer
 * alone is not enough: a reverse proxy on this machine forwards remote callers from 127.0.0.1 and names
 * them in X-Forwarded-For (req.ip, since the app trusts loopback proxies). req.ip alone is not enough
 * either: it follows the app's `trust proxy` setting, and a header must never make a remote peer local.
 */
export const fromThisMachine = (req: Request): boolean =>
  isLoopbackAddress(req.socket.remoteAddress) && isLoopbackAddress(req.ip);

/**
 * Passes callers on this machine on; answers anyone else 403 with `message` (a sentence saying what only
 * this machine may open), before anything of the route runs.
 */
export const onlyThisMachine =
  (message: string): RequestHandler =>
  (req, _res, next) => {
    if (fromThisMachine(req)) return next();
    next(new HttpError(403, message, 'forbidden'));
  };
