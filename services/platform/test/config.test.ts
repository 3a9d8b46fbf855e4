import { ConfigError, loadConfig, parseServices } from '../src/config/config';

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

  it('refuses production without a URL-signing secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' }, [])).toThrow(/OBJECT_URL_SECRET/);
  });

  it('treats empty variables as unset, as Helm renders them', () => {
    expect(loadConfig({ KAFKA_BROKERS: '', HTTP_PORT: '' }, []).listen('gateway').http).toBe(8080);
  });
});
