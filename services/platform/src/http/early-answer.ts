// An answer sent while the client is still sending its body (a refused upload: too large midway, an
// expired link, someone else's link). The client must read that answer, not a reset connection.
//
// Closing a TCP socket that still holds unread bytes makes the kernel send a reset, and a reset makes the
// client's kernel drop what it had received and not yet handed to the client: the answer. Node ends a
// `Connection: close` exchange with socket.destroySoon(), which destroys the socket as soon as the answer
// is written, while the rest of the body is still arriving: a chunked 16 MB upload refused after 1,000
// bytes got a reset instead of its 413 about one time in six. Without `Connection: close` the client is
// not told that its body will not be read, and goes on sending into a connection that is then cut off.
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * How long a client may go on sending nothing before the connection of an answered request is closed; a
 * client that keeps sending is read on (a client that reads the answer only once it has sent everything,
 * as many do, needs its whole body read) up to EARLY_ANSWER_MAX_DRAIN bytes.
 */
export const EARLY_ANSWER_GRACE_MS = 2000;
/** The most that is read and dropped after an early answer: a refused 2 GB upload is not read to the end. */
export const EARLY_ANSWER_MAX_DRAIN = 64 * 1024 * 1024;

/**
 * Call before the answer's head is written. If the body is still arriving, the answer says
 * `Connection: close` (a client that reads it can stop sending); once it is written, the server reads and
 * drops the rest of the body until the client is done, or has been silent for `graceMs`, or has sent
 * `maxDrain` more bytes, and only then closes, so no unread byte turns the close into a reset. A body
 * already read in full changes nothing (the connection stays reusable).
 */
export function closeAfterEarlyAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  { graceMs = EARLY_ANSWER_GRACE_MS, maxDrain = EARLY_ANSWER_MAX_DRAIN } = {},
): void {
  if (req.complete) return;
  if (!res.headersSent) res.setHeader('Connection', 'close');
  const socket = req.socket;
  // Node's HTTP server calls destroySoon() on this connection once a `Connection: close` answer is
  // written; this one socket's version drains the body (within the limits) before Node's own runs.
  socket.destroySoon = function closeOnceDrained() {
    const close = () => {
      clearTimeout(idle);
      Reflect.deleteProperty(socket, 'destroySoon');
      socket.destroySoon();
    };
    const idle = setTimeout(() => socket.destroy(), graceMs);
    idle.unref();
    socket.once('close', () => clearTimeout(idle));
    if (req.complete) return close();
    let dropped = 0;
    req.on('data', (chunk: Buffer) => {
      dropped += chunk.length;
      if (dropped > maxDrain) return void socket.destroy();
      idle.refresh();
    });
    req.once('end', close);
    // Read only now that the answer is out: a first read before it would tell a client waiting on
    // `Expect: 100-continue` to go on sending (platform/http/expect-continue.ts).
    req.resume();
  };
}
