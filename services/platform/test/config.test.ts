import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, loadConfig, parseServices } from '../src/config/config';
import { PUBLISHED_SECRETS } from '../src/config/published-secrets';

describe('configuration', () => {
  it('runs every service by default, in dependency order', () => {
    const config = loadConfig({}, []);
    expect(config.services).toEqual([
      'identity',
      'catalog',
      'storage',
      'delivery',
      'billing',
      'cms',
      'finder',
      'royalties',
      'gateway',
    ]);
    expect(config.allInOne).toBe(true);
    expect(config.listen('gateway').http).toBe(8080);
    expect(config.env.EVENT_BUS).toBe('embedded');
  });

  it('takes --services from the command line over the environment', () => {
    const config = loadConfig({ OMNI_SERVICES: 'all' }, ['--services=gateway,cms']);
    expect(config.services).toEqual(['cms', 'gateway']);
  });

  it('runs one service on HTTP_PORT/GRPC_PORT and finds peers by <SERVICE>_GRPC_ADDR', () => {
    const config = loadConfig(
      { OMNI_SERVICES: 'gateway', HTTP_PORT: '8081', CMS_GRPC_ADDR: 'omni-cms:50051' },
      [],
    );
    expect(config.allInOne).toBe(false);
    expect(config.listen('gateway')).toEqual({ http: 8081, grpc: 50051 });
    expect(config.grpcAddress('cms')).toBe('omni-cms:50051');
  });

  it('names an unknown service and lists the known ones', () => {
    expect(() => parseServices('cms,payments')).toThrow(ConfigError);
    expect(() => parseServices('cms,payments')).toThrow(
      /Unknown service\(s\): payments\. Known: all, identity/,
    );
  });

  it('refuses a production adapter without its address, naming the variable', () => {
    expect(() => loadConfig({ EVENT_BUS: 'kafka' }, [])).toThrow(
      /KAFKA_BROKERS: is required when EVENT_BUS=kafka/,
    );
    expect(() => loadConfig({ DOCUMENT_STORE: 'mongodb' }, [])).toThrow(/MONGODB_URI/);
    expect(() => loadConfig({ OBJECT_STORE: 'minio', S3_ENDPOINT: 'minio' }, [])).toThrow(/S3_ACCESS_KEY/);
    expect(() => loadConfig({ EVENT_BUS: 'rabbit' }, [])).toThrow(/EVENT_BUS/);
  });

  it("takes the upload-link lifetime in whole seconds, 15 minutes by default, at most S3's 7 days", () => {
    expect(loadConfig({}, []).env.UPLOAD_LINK_SECONDS).toBe(900);
    expect(loadConfig({ UPLOAD_LINK_SECONDS: '60' }, []).env.UPLOAD_LINK_SECONDS).toBe(60);
    for (const bad of ['0', '1.5', 'soon', String(8 * 24 * 3600)])
      expect(() => loadConfig({ UPLOAD_LINK_SECONDS: bad }, [])).toThrow(/UPLOAD_LINK_SECONDS/);
  });

  it('refuses the store simulator in production, and a registry without its file', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' }, [])).toThrow(
      /STORES: must be registry in production/,
    );
    expect(() => loadConfig({ STORES: 'registry' }, [])).toThrow(/STORE_REGISTRY_FILE: is required/);
    expect(() => loadConfig({ STORES: 'registry' }, [])).toThrow(/DDEX_SENDER_PARTY_ID: is required/);
    expect(() => loadConfig({ DDEX_SENDER_PARTY_ID: 'omni' }, [])).toThrow(/must be a DDEX party id/);
  });

  it('refuses production without a URL-signing secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' }, [])).toThrow(/OBJECT_URL_SECRET/);
  });

  describe('secrets published in this repository', () => {
    const production = {
      NODE_ENV: 'production',
      MAIL: 'smtp',
      SMTP_URL: 'smtp://mail.example.com:587',
      OBJECT_URL_SECRET: 'a-secret-of-the-operators-own-0123456789',
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_live_the-operators-own-key',
      STRIPE_WEBHOOK_SECRET: 'whsec_the-operators-own-secret',
      STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_the-operators-connect-secret',
      STORES: 'registry',
      STORE_REGISTRY_FILE: '/etc/omni/stores.json',
      DDEX_SENDER_PARTY_ID: 'PADPIDA2014101001U',
    };

    it('lists every throwaway secret value the Tiltfile hands a kind cluster', () => {
      const tiltfile = readFileSync(join(__dirname, '../../../Tiltfile'), 'utf8');
      const values = [...tiltfile.matchAll(/'(omni-dev-[a-z-]+)'/g)].map((m) => m[1]!);
      expect(values.length).toBeGreaterThan(0);
      for (const value of values)
        expect({ value, listed: PUBLISHED_SECRETS.has(value) }).toEqual({ value, listed: true });
    });

    it('are refused in production, naming the variable', () => {
      expect(() =>
        loadConfig({ ...production, OBJECT_URL_SECRET: 'omni-dev-object-url-secret' }, []),
      ).toThrow(/OBJECT_URL_SECRET: is a development value published/);
      expect(() =>
        loadConfig(
          {
            ...production,
            IDENTITY_PROVIDER: 'keycloak',
            KEYCLOAK_URL: 'http://keycloak',
            KEYCLOAK_CLIENT_SECRET: 'omni-dev-services-client-secret',
          },
          [],
        ),
      ).toThrow(/KEYCLOAK_CLIENT_SECRET: is a development value published/);
      expect(() =>
        loadConfig(
          {
            ...production,
            DOCUMENT_STORE: 'mongodb',
            MONGODB_URI: 'mongodb://omni:omni-dev-password@db-0.db:27017,db-1.db:27017/omni?replicaSet=rs0',
          },
          [],
        ),
      ).toThrow(/MONGODB_URI: is a development value published/);
      expect(loadConfig(production, []).env.NODE_ENV).toBe('production');
    });

    it('are fine outside production (the kind cluster runs in development mode)', () => {
      expect(
        loadConfig(
          {
            OBJECT_URL_SECRET: 'omni-dev-object-url-secret',
            KEYCLOAK_CLIENT_SECRET: 'omni-dev-services-client-secret',
          },
          [],
        ).env.OBJECT_URL_SECRET,
      ).toBe('omni-dev-object-url-secret');
    });
  });

  it('refuses the dev mailbox in production, naming MAIL', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', OBJECT_URL_SECRET: 'x'.repeat(32) }, [])).toThrow(
      /MAIL: must be smtp in production/,
    );
  });

  it('refuses the checkout sandbox in production and Stripe without its keys, naming them', () => {
    const base = {
      NODE_ENV: 'production',
      OBJECT_URL_SECRET: 'x'.repeat(32),
      MAIL: 'smtp',
      SMTP_URL: 'smtp://m',
    };
    expect(() => loadConfig(base, [])).toThrow(/PAYMENTS: must be stripe in production/);
    expect(() => loadConfig({ ...base, PAYMENTS: 'stripe' }, [])).toThrow(/STRIPE_SECRET_KEY: is required/);
    expect(() => loadConfig({ ...base, PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_live_x' }, [])).toThrow(
      /STRIPE_WEBHOOK_SECRET: is required/,
    );
  });

  it('refuses the payout sandbox in production, and Stripe Connect without its endpoint secret', () => {
    const base = {
      NODE_ENV: 'production',
      OBJECT_URL_SECRET: 'x'.repeat(32),
      MAIL: 'smtp',
      SMTP_URL: 'smtp://m',
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_the-operators-own-secret',
    };
    expect(() => loadConfig({ ...base, PAYOUTS: 'embedded' }, [])).toThrow(
      /PAYOUTS: must be stripe in production/,
    );
    expect(() => loadConfig(base, [])).toThrow(/STRIPE_CONNECT_WEBHOOK_SECRET: is required/);
  });

  it('refuses an object store browsers cannot reach: no public URL in production, http under an https site', () => {
    const minio = {
      OBJECT_STORE: 'minio',
      S3_ENDPOINT: 'omni-s3-s3',
      S3_ACCESS_KEY: 'key',
      S3_SECRET_KEY: 'secret',
    };
    const production = {
      ...minio,
      NODE_ENV: 'production',
      OBJECT_URL_SECRET: 'x'.repeat(32),
      MAIL: 'smtp',
      SMTP_URL: 'smtp://m',
      PAYMENTS: 'stripe',
      STRIPE_SECRET_KEY: 'sk_live_x',
      STRIPE_WEBHOOK_SECRET: 'whsec_0123456789abcdef',
      STRIPE_CONNECT_WEBHOOK_SECRET: 'whsec_connect_0123456789abcdef',
      STORES: 'registry',
      STORE_REGISTRY_FILE: '/etc/omni/stores.json',
      DDEX_SENDER_PARTY_ID: 'PADPIDA2014120301X',
    };
    expect(() => loadConfig(production, [])).toThrow(/S3_PUBLIC_URL: is required in production/);
    expect(
      loadConfig({ ...production, S3_PUBLIC_URL: 'https://media.example.com' }, []).env.S3_PUBLIC_URL,
    ).toBe('https://media.example.com');
    // Outside production the endpoint itself stands in (the kind cluster, tests).
    expect(loadConfig(minio, []).env.S3_PUBLIC_URL).toBeUndefined();
    expect(() =>
      loadConfig(
        { ...minio, PUBLIC_URL: 'https://omni.example.com', S3_PUBLIC_URL: 'http://media.example.com' },
        [],
      ),
    ).toThrow(/S3_PUBLIC_URL: must be https when PUBLIC_URL is https/);
  });

  it('treats empty variables as unset, as Helm renders them', () => {
    expect(loadConfig({ KAFKA_BROKERS: '', HTTP_PORT: '' }, []).listen('gateway').http).toBe(8080);
  });
});
