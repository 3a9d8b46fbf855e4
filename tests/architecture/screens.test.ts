// The gateway knows every screen of the spec without running the shell: which remote renders it (for
// the 200/404 answer) and which of that remote's modules it shows (for the scripts its first response
// preloads). The shell's route table is where the screens are defined; the two must say the same.

import { adminChildren, adminLayout, remoteRoutes } from '../../frontends/shell/src/routes/route-table';
import { screenOf } from '../../services/gateway/src/http/web/frontends';

/** A path the route matches (route parameters filled in). */
const concrete = (path: string) => path.replace(/:[a-z]+/gi, 'some-id');

it("names each of the shell's routes with the remote and module the shell renders there", () => {
  const shell = [
    ...remoteRoutes.map((r) => ({ path: concrete(r.path), remote: r.remote, exposes: [r.expose] })),
    ...adminChildren.map((r) => ({
      path: `/admin/${r.path}`,
      remote: r.remote,
      exposes: [adminLayout.expose, r.expose],
    })),
  ];
  const gateway = shell.map(({ path }) => ({ path, ...screenOf(path) }));
  expect(gateway).toEqual(shell);
  expect(shell.length).toBeGreaterThan(30);
});

it('knows no screen the shell does not have', () => {
  expect(screenOf('/nowhere')).toBeUndefined();
  expect(screenOf('/app/extra')).toBeUndefined();
});
