// Which protocol versions kafkajs and a broker have in common, for every API the Kafka adapter uses.
// Kafka 4 removed the oldest versions of many APIs (KIP-896); a client that only speaks those fails at
// run time with "The version of API is not supported", so the contract suite checks the overlap directly.
import { createRequire } from 'node:module';
import { Socket } from 'node:net';

interface RequestDefinitions {
  versions: string[];
}

const load = createRequire(__filename);

/** The APIs the adapter's producer, consumer groups and admin calls send. */
export const ADAPTER_APIS = [
  'ApiVersions',
  'Metadata',
  'Produce',
  'InitProducerId',
  'Fetch',
  'ListOffsets',
  'GroupCoordinator',
  'JoinGroup',
  'SyncGroup',
  'Heartbeat',
  'LeaveGroup',
  'OffsetCommit',
  'OffsetFetch',
  'CreateTopics',
] as const;

export const kafkajsVersion: string = load('kafkajs/package.json').version;

/** For each API: the highest version both speak, or null when they have none in common. */
export async function commonApiVersions(
  host: string,
  port: number,
): Promise<Record<(typeof ADAPTER_APIS)[number], number | null>> {
  const apiKeys = load('kafkajs/src/protocol/requests/apiKeys') as Record<string, number>;
  const { requests } = load('kafkajs/src/protocol/requests') as {
    requests: Record<string, RequestDefinitions>;
  };
  const broker = await brokerApiVersions(host, port);
  const result = {} as Record<(typeof ADAPTER_APIS)[number], number | null>;
  for (const api of ADAPTER_APIS) {
    const range = broker.get(apiKeys[api]!);
    const client = (requests[api]?.versions ?? []).map(Number);
    const common = range ? client.filter((v) => v >= range.min && v <= range.max) : [];
    result[api] = common.length > 0 ? Math.max(...common) : null;
  }
  return result;
}

/** ApiVersions v0 over a plain socket: every broker answers it, whatever else it has dropped. */
function brokerApiVersions(host: string, port: number): Promise<Map<number, { min: number; max: number }>> {
  const clientId = Buffer.from('omni-contract');
  const body = Buffer.alloc(10 + clientId.length);
  body.writeInt16BE(18, 0);
  body.writeInt16BE(0, 2);
  body.writeInt32BE(1, 4);
  body.writeInt16BE(clientId.length, 8);
  clientId.copy(body, 10);
  const size = Buffer.alloc(4);
  size.writeInt32BE(body.length, 0);
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let reply = Buffer.alloc(0);
    socket.setTimeout(5000, () => {
      socket.destroy();
      reject(new Error(`no ApiVersions answer from ${host}:${port}`));
    });
    socket.once('error', reject);
    socket.on('data', (chunk: Buffer) => {
      reply = Buffer.concat([reply, chunk]);
      if (reply.length < 4 || reply.length < 4 + reply.readInt32BE(0)) return;
      socket.destroy();
      const errorCode = reply.readInt16BE(8);
      if (errorCode !== 0) return reject(new Error(`ApiVersions answered error code ${errorCode}`));
      const count = reply.readInt32BE(10);
      const ranges = new Map<number, { min: number; max: number }>();
      for (let i = 0, at = 14; i < count; i++, at += 6)
        ranges.set(reply.readInt16BE(at), { min: reply.readInt16BE(at + 2), max: reply.readInt16BE(at + 4) });
      resolve(ranges);
    });
    socket.connect(port, host, () => socket.write(Buffer.concat([size, body])));
  });
}
