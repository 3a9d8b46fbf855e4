// Whether a request comes from this machine. The dev mailbox hands out sign-in and reset links, so on an
// `npm start` bound to every interface it answers only callers on the loopback network.
import { BlockList, isIPv6 } from 'node:net';
import type { Request } from 'express';

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
