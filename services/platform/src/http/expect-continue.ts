// A client that sends `Expect: 100-continue` waits for the server's go-ahead before it sends the body,
// so a refusal decided from the headers (an expired upload link, a declared size over the limit) costs
// no body bytes and leaves no half-sent body to collide with the answer. Node's default is to say
// "continue" to every such request before any route has looked at it, which throws that away. Here the
// go-ahead is sent when a route first reads the body; a route that answers without reading it has
// refused the body, and Node then closes the connection rather than wait for bytes that will not come.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';

/** Makes `server` answer `Expect: 100-continue` only when the route handling the request reads its body. */
export function continueOnFirstRead(server: Server, listener: RequestListener): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    // _read is how every consumer (pipe, 'data', read(), async iteration) asks an IncomingMessage for
    // bytes; the first call is the moment the route has decided to take the body.
    const read = req._read;
    req._read = function continueThenRead(this: IncomingMessage, size: number) {
      req._read = read;
      if (!res.headersSent && !res.writableEnded) res.writeContinue();
      return read.call(this, size);
    };
    listener(req, res);
  });
}
