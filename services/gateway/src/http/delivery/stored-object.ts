// Reading a stored object from the gateway, for the files it streams to a signed-in caller (a proof of
// rights, a master the admin listens to) without ever handing out a public link.
import type { PromiseClient } from '@omni/platform';
import type { storage } from '@omni/proto';
import type { Request } from 'express';

export type StorageClient = PromiseClient<typeof storage.StorageServiceService>;

/**
 * A one-minute signed link to a stored object. Omni's own store signs links under the public address's
 * /objects, which this gateway serves: it is read through this gateway's own port, since the public
 * address (a proxy, a tunnel) need not be reachable from here. An S3 server's link is used as signed.
 */
export async function signedLink(client: StorageClient, req: Request, bucket: string, fileKey: string) {
  const { url } = await client.signDownload({ bucket, fileKey, expiresInSeconds: 60 });
  const own = `http://127.0.0.1:${req.socket.localPort}`;
  const link = new URL(url, own);
  return link.pathname.startsWith('/objects/') ? `${own}${link.pathname}${link.search}` : link.href;
}
