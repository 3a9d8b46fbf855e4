import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { adminChildren, adminLayout, remoteRoutes } from '../src/routes/route-table';

// The shell loads each screen by the name a remote exposes it under; a name that drifts shows the
// "remote unavailable" page in production. The remotes' exposes.mjs are plain ES modules (the rspack
// config imports them), so they are read here as text.
const frontends = join(__dirname, '../..');

function exposesOf(remote: string): Map<string, string> {
  const source = readFileSync(join(frontends, remote, 'src/exposes.mjs'), 'utf8');
  return new Map([...source.matchAll(/'(\.\/[A-Za-z]+)':\s*'([^']+)'/g)].map((m) => [m[1]!, m[2]!]));
}

it('every route names a module its remote exposes, and the module file exists', () => {
  const routes = [...remoteRoutes, ...adminChildren, { path: '(admin layout)', ...adminLayout }];
  const missing: string[] = [];
  for (const route of routes) {
    const file = exposesOf(route.remote).get(route.expose);
    if (!file) missing.push(`${route.path}: ${route.remote} does not expose ${route.expose}`);
    else if (!existsSync(join(frontends, route.remote, file)))
      missing.push(`${route.path}: ${file} is missing`);
  }
  expect(missing).toEqual([]);
  expect(routes.length).toBeGreaterThan(30);
});
