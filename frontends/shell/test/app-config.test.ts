import { parseAppConfig } from '../src/federation/app-config';

describe('parseAppConfig', () => {
  it('accepts the gateway shape and keeps every remote', () => {
    const config = parseAppConfig({
      remotes: {
        marketing: '/remotes/marketing/mf-manifest.json',
        admin: 'https://cdn.example/admin/mf-manifest.json',
      },
    });
    expect(config.remotes).toEqual({
      marketing: '/remotes/marketing/mf-manifest.json',
      admin: 'https://cdn.example/admin/mf-manifest.json',
    });
  });

  it.each([
    ['not an object', 'hello'],
    ['no remotes', {}],
    ['remotes as an array', { remotes: ['/remotes/marketing/mf-manifest.json'] }],
    ['a remote without a URL', { remotes: { marketing: '' } }],
    ['a remote URL that is not a string', { remotes: { marketing: 42 } }],
  ])('rejects %s with a message naming the problem', (_case, raw) => {
    expect(() => parseAppConfig(raw)).toThrow(/app-config\.json/);
  });
});
