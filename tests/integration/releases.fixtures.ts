// Shared by the release suites: the platform started in-process with storage's GetObjectInfo answered
// by a stand-in (the files' owners and inspections are set by the test), so catalog's rules are tested
// through the real gateway → catalog → outbox → bus → delivery path without uploading real bytes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  GrpcError,
  GrpcStatus,
  loadConfig,
  type Platform,
  type ServiceModule,
  startPlatform,
  type UnaryImpl,
} from '@omni/platform';
import { storage } from '@omni/proto';
import { billingService } from '@omni/service-billing';
import { catalogService } from '@omni/service-catalog';
import { cmsService } from '@omni/service-cms';
import { deliveryService } from '@omni/service-delivery';
import { finderService } from '@omni/service-finder';
import { gatewayService } from '@omni/service-gateway';
import { identityService } from '@omni/service-identity';
import { royaltiesService } from '@omni/service-royalties';
import { fetchOnce } from '../support/http';
import { signTestToken } from '../support/tokens';

export interface FakeFile {
  ownerId: string;
  inspection: Partial<storage.Inspection>;
}

/** bucket/fileKey → what storage would say about it. */
export const fakeFiles = new Map<string, FakeFile>();

const unimplemented = async (): Promise<never> => {
  throw new GrpcError(GrpcStatus.UNIMPLEMENTED, 'not in the stand-in');
};

const inspection = (i: Partial<storage.Inspection>): storage.Inspection => ({
  kind: '',
  mimeType: '',
  size: 0,
  durationSeconds: 0,
  sampleRate: 0,
  bitDepth: 0,
  channels: 0,
  codec: '',
  width: 0,
  height: 0,
  colorMode: '',
  format: '',
  problems: [],
  warnings: [],
  ...i,
});

export const fakeStorage: ServiceModule = {
  name: 'storage',
  description: 'stand-in for the release suites',
  // Storage's place in the service graph, without its code (the suites do not depend on it).
  calls: ['identity'],
  consumes: [],
  produces: [],
  ports: [],
  async init(ctx) {
    const handlers: UnaryImpl<typeof storage.StorageServiceService> = {
      signUpload: unimplemented,
      completeUpload: unimplemented,
      listBuckets: unimplemented,
      listUploads: unimplemented,
      signDownload: unimplemented,
      deleteObject: unimplemented,
      discardUpload: unimplemented,
      async getObjectInfo(req) {
        const file = fakeFiles.get(`${req.bucket}/${req.fileKey}`);
        // Like storage: someone else's object is not found for this caller.
        if (!file || file.ownerId !== req.ownerId) throw new GrpcError(GrpcStatus.NOT_FOUND, 'No such file.');
        // Storage judges a release's files for the role they play: catalog must always name it.
        if (req.role !== 'audio' && req.role !== 'artwork')
          throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, `catalog asked without a role (${req.role})`);
        return {
          exists: true,
          ownerId: file.ownerId,
          publicUrl: `http://localhost/objects/${req.bucket}/${req.fileKey}`,
          inspection: inspection(file.inspection),
        };
      },
    };
    ctx.grpc.add(storage.StorageServiceService, handlers);
  },
};

let counter = 0;
/** Registers a good WAV (or what `inspection` overrides) owned by `ownerId`; returns its reference. */
export function audioFile(ownerId: string, override: Partial<storage.Inspection> = {}) {
  const ref = { bucket: 'omni-assets', fileKey: `${ownerId}/${++counter}_song.wav` };
  fakeFiles.set(`${ref.bucket}/${ref.fileKey}`, {
    ownerId,
    inspection: {
      kind: 'audio',
      mimeType: 'audio/wav',
      format: 'wav',
      durationSeconds: 187.25,
      sampleRate: 44100,
      bitDepth: 16,
      channels: 2,
      ...override,
    },
  });
  return ref;
}

/** Registers a 3000x3000 RGB PNG (or what `inspection` overrides) owned by `ownerId`. */
export function artworkFile(ownerId: string, override: Partial<storage.Inspection> = {}) {
  const ref = { bucket: 'omni-assets', fileKey: `${ownerId}/${++counter}_cover.png` };
  fakeFiles.set(`${ref.bucket}/${ref.fileKey}`, {
    ownerId,
    inspection: {
      kind: 'image',
      mimeType: 'image/png',
      format: 'png',
      width: 3000,
      height: 3000,
      colorMode: 'rgb',
      ...override,
    },
  });
  return ref;
}

export interface ReleasePlatform extends Platform {
  dataDir: string;
  token(userId: string, roles?: ('artist' | 'admin')[]): Promise<string>;
  api(path: string, init?: RequestInit & { token?: string; json?: unknown }): Promise<Response>;
  close(options?: { keepData?: boolean }): Promise<void>;
}

/** `env` adds to the test settings (e.g. a peer's address, to make it unreachable); `modules` replace the
 * standard ones (e.g. catalog on a bus that is down). */
export async function startReleasePlatform(
  dataDir?: string,
  env: Record<string, string> = {},
  modules: Partial<Parameters<typeof startPlatform>[1]> = {},
): Promise<ReleasePlatform> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'omni-releases-'));
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      DATA_DIR: dir,
      OMNI_RANDOM_PORTS: 'true',
      BIND_HOST: '127.0.0.1',
      OMNI_SERVICES: 'all',
      PUBLIC_URL: 'http://localhost:8080',
      LOG_LEVEL: 'warn',
      ...env,
    },
    [],
  );
  const platform = await startPlatform(config, {
    // The composition root's modules, storage replaced (and not even loaded: the suites do not depend on it).
    identity: identityService,
    catalog: catalogService,
    storage: fakeStorage,
    delivery: deliveryService,
    billing: billingService,
    cms: cmsService,
    finder: finderService,
    royalties: royaltiesService,
    gateway: gatewayService,
    ...modules,
  });
  const identity = await platform.ports.documents('identity');
  return {
    ...platform,
    dataDir: dir,
    token: (userId, roles = ['artist']) => signTestToken(identity, { userId, roles }),
    api: (path, init = {}) =>
      fetchOnce(`${platform.url}${path}`, {
        ...init,
        body: init.json === undefined ? init.body : JSON.stringify(init.json),
        headers: {
          ...(init.json !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
          ...(init.headers as Record<string, string> | undefined),
        },
      }),
    async close({ keepData = false } = {}) {
      await platform.stop();
      if (!keepData) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A complete, valid artist-upload body for `ownerId` (fresh files each call). */
export function releaseBody(ownerId: string, extra: Record<string, unknown> = {}) {
  return {
    artistName: 'Nova Reyes',
    releaseTitle: 'Night Drive',
    trackTitle: 'Night Drive',
    releaseType: 'single',
    genre: 'Hip-Hop/Rap',
    label: 'Moonlit Records',
    releaseDate: '2026-09-01',
    explicit: true,
    audio: audioFile(ownerId),
    artwork: artworkFile(ownerId),
    credits: {
      producers: ['Kai Long', 'Ama Boateng'],
      writers: 'Nova Reyes, Kai Long',
      musicians: ['Lee Park'],
      engineer: 'Sam Ortiz',
      instruments: 'Synth\nDrums',
    },
    technical: {
      bpm: 92,
      musicalKey: 'F# minor',
      style: 'Trap',
      mood: 'Moody',
      recordedIn: 'Lagos',
      masteringStudio: 'Blue Room',
      recordingDate: '2026-01-15',
    },
    legal: {
      copyrightLine: '℗ 2026 Moonlit Records',
      publishingLine: '© 2026 Nova Reyes',
      pro: 'ASCAP',
      ipi: '00123456789',
      iswc: 'T-123.456.789-0',
      isni: '0000 0001 2345 6789',
    },
    content: { summary: 'A late-night song.', lyrics: 'City lights, night drive...' },
    stores: ['spotify', 'apple_music', 'tidal'],
    ...extra,
  };
}

export async function waitUntil<T>(
  fn: () => Promise<T | undefined>,
  ms = 5000,
  what = 'condition',
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
