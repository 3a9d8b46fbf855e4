// The part of react-router that Omni's frontends use, and the only router code that reaches the page.
//
// Every `import ... from 'react-router'` in the shell and the remotes is aliased to this file by the
// rspack config, and this file is what module federation shares as the 'react-router' singleton.
// Sharing react-router itself would ship all of it (a shared module cannot be tree-shaken, since any
// remote may use any export): ~60 KB gzipped, mostly server and framework-mode code we never run.
// Re-exporting a subset lets the bundler drop the rest. Need something else? Add it here. TypeScript
// sees 'react-router' as this file too (paths in frontends/tsconfig.json), so importing a name that
// is missing here fails `tsc -p frontends/tsconfig.json` instead of being undefined at run time.
export {
  createBrowserRouter,
  generatePath,
  isRouteErrorResponse,
  Link,
  type LinkProps,
  matchPath,
  Navigate,
  type NavigateFunction,
  NavLink,
  type NavLinkProps,
  Outlet,
  type RouteObject,
  RouterProvider,
  ScrollRestoration,
  useBlocker,
  useHref,
  useInRouterContext,
  useLocation,
  useMatch,
  useNavigate,
  useNavigation,
  useOutletContext,
  useParams,
  useResolvedPath,
  useRouteError,
  useSearchParams,
} from '@omni/react-router-impl';
