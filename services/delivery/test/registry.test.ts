// The store registry: the simulator's covers every platform key with sane defaults; a registry file is
// loaded only when every key is there once with a valid endpoint, and a broken entry is named.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PLATFORM_KEYS } from '@omni/proto/api';
import {
  openStoreRegistry,
  openTransport,
  parseRegistry,
  StoreRegistryError,
  simulatorRegistry,
} from '../src/providers/stores';

const DPID = /^PADPIDA[a-zA-Z0-9]+$/;

describe('simulator registry', () => {
  const registry = simulatorRegistry('/srv/omni-data');

  test('covers all 142 platform keys, in order, each with a local folder of its own', () => {
    expect(registry.mode).toBe('simulator');
    const all = registry.all();
    expect(all).toHaveLength(142);
    expect(all.map((s) => s.key)).toEqual(PLATFORM_KEYS);
    for (const store of all) {
      expect(store.endpoint).toEqual({
        protocol: 'local',
        root: `/srv/omni-data/delivery/stores/${store.key}`,
      });
      expect(store.ackFolder).toBe('acknowledgements');
      expect(store.partyId).toMatch(DPID);
      expect(store.audio.accepts).toEqual(['wav', 'flac']);
    }
    expect(new Set(all.map((s) => s.partyId)).size).toBe(142);
    // Stable across starts: a store keeps its party id.
    expect(simulatorRegistry('/elsewhere').get('spotify')?.partyId).toBe(registry.get('spotify')?.partyId);
  });

  test('streaming stores get streaming deals, download shops sell downloads', () => {
    expect(registry.get('spotify')?.deals).toEqual([
      {
        territories: ['Worldwide'],
        commercialModels: ['SubscriptionModel', 'AdvertisementSupportedModel'],
        useTypes: ['OnDemandStream', 'NonInteractiveStream'],
      },
    ]);
    for (const key of ['beatport', 'traxsource', 'junodownload', '7digital']) {
      expect(registry.get(key)?.deals).toEqual([
        {
          territories: ['Worldwide'],
          commercialModels: ['PayAsYouGoModel'],
          useTypes: ['PermanentDownload'],
        },
      ]);
    }
    expect(registry.get('qobuz')?.deals.map((d) => d.useTypes[0])).toEqual([
      'OnDemandStream',
      'PermanentDownload',
    ]);
    expect(registry.get('nope')).toBeUndefined();
  });

  test('openStoreRegistry picks by STORES', async () => {
    const registry = await openStoreRegistry({ env: { STORES: 'simulator' } as never }, '/d');
    expect(registry.mode).toBe('simulator');
    expect(openTransport(registry.get('tidal')!).kind).toBe('local');
  });
});

describe('registry file', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'omni-registry-'));
  const file = path.join(dir, 'stores.json');
  const goodStores = () =>
    PLATFORM_KEYS.map((key, i) => {
      if (key === 'spotify') {
        return {
          key,
          partyId: 'PADPIDA2011072101T',
          endpoint: {
            protocol: 'sftp',
            host: 'sftp.example.com',
            username: 'omni',
            root: 'inbox',
            privateKeyFile: '/run/secrets/spotify_key',
            hostKeySha256: 'SHA256:nThbg6kXUpJWGl7E1IGOCspRomTxdCARLviKw6E5SY8',
          },
        };
      }
      if (key === 'deezer') {
        return {
          key,
          partyId: 'PADPIDA2013020802I',
          messageControl: 'TestMessage',
          endpoint: {
            protocol: 's3',
            endPoint: 's3.example.com',
            region: 'eu-west-1',
            bucket: 'deezer-ingest',
            accessKeyEnv: 'DEEZER_ACCESS_KEY',
            secretKeyEnv: 'DEEZER_SECRET_KEY',
          },
        };
      }
      return { key, partyId: `PADPIDA20260000${i}`, endpoint: { protocol: 'local', root: `stores/${key}` } };
    });
  const load = (stores: unknown[]) => parseRegistry(JSON.stringify({ stores }), file);

  test('a good file loads, with defaults for the rules it leaves out', async () => {
    writeFileSync(file, JSON.stringify({ stores: goodStores() }));
    const registry = await openStoreRegistry(
      { env: { STORES: 'registry', STORE_REGISTRY_FILE: file } as never },
      '/ignored',
    );
    expect(registry.mode).toBe('registry');
    expect(registry.all()).toHaveLength(142);
    expect(registry.get('spotify')).toMatchObject({
      name: 'Spotify',
      partyName: 'Spotify',
      endpoint: { protocol: 'sftp', port: 22, host: 'sftp.example.com' },
      ackFolder: 'acknowledgements',
      messageControl: 'LiveMessage',
    });
    expect(registry.get('deezer')).toMatchObject({
      messageControl: 'TestMessage',
      endpoint: { protocol: 's3', useSSL: true, prefix: '' },
    });
    expect(registry.get('tidal')?.endpoint).toEqual({
      protocol: 'local',
      root: path.join(dir, 'stores/tidal'),
    });
    expect(registry.get('beatport')?.deals[0]?.useTypes).toEqual(['PermanentDownload']);
  });

  test('a file missing a key is refused, naming it', () => {
    const stores = goodStores().filter((s) => s.key !== 'tidal');
    expect(() => load(stores)).toThrow(StoreRegistryError);
    expect(() => load(stores)).toThrow(`store registry ${file}: has no entry for 1 platform key(s): tidal`);
  });

  test('a bad endpoint is refused, naming the entry and the field', () => {
    const stores = goodStores();
    const spotify = stores[0] as { endpoint: Record<string, unknown> };
    delete spotify.endpoint.host;
    expect(() => load(stores)).toThrow(/stores\[0\] \(spotify\): endpoint\.host: /);

    const noCredentials = goodStores();
    delete (noCredentials[0] as { endpoint: Record<string, unknown> }).endpoint.privateKeyFile;
    expect(() => load(noCredentials)).toThrow(
      /stores\[0\] \(spotify\): endpoint: needs exactly one of privateKeyFile/,
    );
  });

  test('secrets typed into the file are refused without repeating them', () => {
    const stores = goodStores();
    const deezer = stores.find((s) => s.key === 'deezer') as { endpoint: Record<string, unknown> };
    deezer.endpoint.secretKey = 'wJalrXUtnFEMI/K7MDENG';
    let message = '';
    try {
      load(stores);
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toMatch(/stores\[5\] \(deezer\): endpoint: Unrecognized key: "secretKey"/);
    expect(message).not.toContain('wJalrXUtnFEMI');
  });

  test('unknown, duplicate and malformed entries are refused, naming them', () => {
    expect(() =>
      load([
        ...goodStores(),
        { key: 'myspace', partyId: 'PADPIDA1', endpoint: { protocol: 'local', root: 'x' } },
      ]),
    ).toThrow(/stores\[142\] \(myspace\): "myspace" is not a platform key/);
    expect(() => load([...goodStores(), goodStores()[3]])).toThrow(
      /stores\[142\] \(youtube_content_id\): "youtube_content_id" is already stores\[3\]/,
    );
    const badDpid = goodStores();
    (badDpid[1] as { partyId: string }).partyId = 'APPLE';
    expect(() => load(badDpid)).toThrow(/stores\[1\] \(apple_music\): partyId: must be a DDEX party id/);
    expect(() => parseRegistry('{"stores": [', file)).toThrow(/is not JSON/);
    expect(() => parseRegistry('[]', file)).toThrow(/must be an object \{"stores": \[ … \]\}/);
  });

  test('opening a store whose credentials are missing names the variable, not a value', () => {
    const registry = load(goodStores());
    expect(() => openTransport(registry.get('deezer')!, {})).toThrow(
      'store deezer: environment variable DEEZER_ACCESS_KEY is not set',
    );
    expect(() => openTransport(registry.get('spotify')!, {})).toThrow(
      /store spotify: private key file \/run\/secrets\/spotify_key cannot be read \(ENOENT\)/,
    );
    expect(
      openTransport(registry.get('deezer')!, { DEEZER_ACCESS_KEY: 'a', DEEZER_SECRET_KEY: 'b' }).kind,
    ).toBe('s3');
  });
});
