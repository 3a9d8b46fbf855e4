// STORES=registry: the stores come from the JSON file STORE_REGISTRY_FILE, validated here at start-up so
// a broken entry stops the service with a message naming it, instead of a delivery failing days later.
//
//   { "stores": [ { "key": "spotify", "partyId": "PADPIDA…", "partyName": "Spotify",
//                   "endpoint": { "protocol": "sftp", "host": "…", "port": 22, "username": "…",
//                                 "root": "inbox", "privateKeyFile": "/run/secrets/spotify_key",
//                                 "hostKeySha256": "…" } }, … ] }
//
// Every platform key must appear exactly once. The rules (ackFolder, messageControl, releasesPerBatch,
// audio, deals) default to the store's defaults (defaults.ts). Credentials are never in the file: an SFTP
// store names a key file or the env variable holding its password, an S3 store the env variables holding
// its keys; the objects are strict, so a `password` or `secretKey` typed in is refused, and nothing read
// here is ever logged.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { PLATFORM_KEYS, PLATFORMS } from '@omni/proto/api';
import { z } from 'zod';
import { defaultRules } from './defaults';
import { registryOf, type StoreRegistry } from './port';
import type { StoreProfile } from './profile';

const envName = z.string().regex(/^[A-Z_][A-Z0-9_]*$/, 'must be an environment variable name (A-Z, 0-9, _)');
const relativeFolder = z
  .string()
  .min(1)
  .refine((p) => !p.startsWith('/') && !p.split('/').includes('..'), 'must be a folder relative to the root');

const localEndpoint = z.strictObject({ protocol: z.literal('local'), root: z.string().min(1) });
const sftpEndpoint = z
  .strictObject({
    protocol: z.literal('sftp'),
    host: z.string().min(1),
    port: z.int().min(1).max(65535).default(22),
    username: z.string().min(1),
    root: z.string().min(1).default('.'),
    privateKeyFile: z.string().min(1).optional(),
    passwordEnv: envName.optional(),
    hostKeySha256: z
      .string()
      .regex(
        /^(SHA256:)?[A-Za-z0-9+/]{43}=?$/,
        'must be a SHA-256 host key fingerprint as ssh-keygen -l prints it',
      )
      .optional(),
  })
  .refine((e) => (e.privateKeyFile === undefined) !== (e.passwordEnv === undefined), {
    message: 'needs exactly one of privateKeyFile or passwordEnv',
  });
const s3Endpoint = z.strictObject({
  protocol: z.literal('s3'),
  endPoint: z.string().min(1),
  port: z.int().min(1).max(65535).optional(),
  useSSL: z.boolean().default(true),
  region: z.string().min(1).default('us-east-1'),
  bucket: z.string().min(3),
  prefix: z.string().default(''),
  accessKeyEnv: envName,
  secretKeyEnv: envName,
});

const deal = z.strictObject({
  territories: z
    .array(z.string().regex(/^(Worldwide|[A-Z]{2})$/, 'must be Worldwide or an ISO country code'))
    .min(1),
  commercialModels: z
    .array(z.enum(['SubscriptionModel', 'AdvertisementSupportedModel', 'PayAsYouGoModel']))
    .min(1),
  useTypes: z
    .array(z.enum(['OnDemandStream', 'NonInteractiveStream', 'PermanentDownload', 'Stream', 'Download']))
    .min(1),
});

/** Which master formats a store takes, and what the others are transcoded to. */
export const audioRules = z.strictObject({
  accepts: z.array(z.enum(['wav', 'flac'])).min(1),
  transcodeTo: z.enum(['flac', 'wav']),
});

const entry = z.strictObject({
  key: z.string().min(1),
  partyId: z.string().regex(/^PADPIDA[a-zA-Z0-9]+$/, 'must be a DDEX party id (PADPIDA…)'),
  partyName: z.string().min(1).optional(),
  endpoint: z.discriminatedUnion('protocol', [localEndpoint, sftpEndpoint, s3Endpoint]),
  ackFolder: relativeFolder.optional(),
  messageControl: z.enum(['LiveMessage', 'TestMessage']).optional(),
  releasesPerBatch: z.int().min(1).max(100).optional(),
  audio: audioRules.optional(),
  deals: z.array(deal).min(1).optional(),
});
const fileSchema = z.strictObject({ stores: z.array(z.unknown()) });

export class StoreRegistryError extends Error {
  override name = 'StoreRegistryError';
}

export async function fileRegistry(file: string): Promise<StoreRegistry> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new StoreRegistryError(`store registry ${file} cannot be read: ${(err as Error).message}`);
  }
  return parseRegistry(text, file);
}

/** Validates a registry file's text; `file` names it in errors and anchors relative local roots. */
export function parseRegistry(text: string, file: string): StoreRegistry {
  const fail = (message: string) => new StoreRegistryError(`store registry ${file}: ${message}`);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw fail(`is not JSON (${(err as Error).message})`);
  }
  const top = fileSchema.safeParse(json);
  if (!top.success) throw fail(`must be an object {"stores": [ … ]} (${describe(top.error)})`);

  const names = new Map(PLATFORMS.map((p) => [p.key, p.name]));
  const seen = new Map<string, number>();
  const profiles = new Map<string, StoreProfile>();
  for (const [index, raw] of top.data.stores.entries()) {
    const label = entryLabel(raw, index);
    const parsed = entry.safeParse(raw);
    if (!parsed.success) throw fail(`${label}: ${describe(parsed.error)}`);
    const e = parsed.data;
    const name = names.get(e.key);
    if (name === undefined) throw fail(`${label}: "${e.key}" is not a platform key`);
    const first = seen.get(e.key);
    if (first !== undefined) throw fail(`${label}: "${e.key}" is already stores[${first}]`);
    seen.set(e.key, index);
    const endpoint =
      e.endpoint.protocol === 'local'
        ? { ...e.endpoint, root: path.resolve(path.dirname(file), e.endpoint.root) }
        : e.endpoint;
    const rules = defaultRules(e.key);
    profiles.set(e.key, {
      key: e.key,
      name,
      partyId: e.partyId,
      partyName: e.partyName ?? name,
      endpoint,
      ackFolder: e.ackFolder ?? rules.ackFolder,
      messageControl: e.messageControl ?? rules.messageControl,
      releasesPerBatch: e.releasesPerBatch ?? rules.releasesPerBatch,
      audio: e.audio ?? rules.audio,
      deals: e.deals ?? rules.deals,
    });
  }
  const missing = PLATFORM_KEYS.filter((key) => !profiles.has(key));
  if (missing.length) {
    const shown = missing.slice(0, 10).join(', ');
    throw fail(
      `has no entry for ${missing.length} platform key(s): ${shown}${missing.length > 10 ? ', …' : ''}`,
    );
  }
  return registryOf(
    'registry',
    PLATFORM_KEYS.map((key) => profiles.get(key) as StoreProfile),
  );
}

function entryLabel(raw: unknown, index: number): string {
  const key = (raw as { key?: unknown } | null)?.key;
  return typeof key === 'string' ? `stores[${index}] (${key})` : `stores[${index}]`;
}

/** The first problems, each with its path inside the entry; never the values (they may be secrets). */
function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`)
    .join('; ');
}
