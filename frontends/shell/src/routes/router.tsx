import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RemotePage } from '../components/remote-page';
import { ShellLayout } from '../components/shell-layout';
import { NotFoundPage } from '../pages/not-found-page';
import { RouteErrorPage } from '../pages/route-error-page';
import { keyInitialHistoryEntry } from './history-entry-key';
import { adminChildren, adminLayout, remoteRoutes } from './route-table';

export function buildRoutes(): RouteObject[] {
  return [
    {
      element: <ShellLayout />,
      errorElement: <RouteErrorPage />,
      children: [
        ...remoteRoutes.map(({ path, remote, expose }) => ({
          path,
          element: <RemotePage remote={remote} expose={expose} />,
        })),
        {
          path: '/admin',
          element: <RemotePage remote={adminLayout.remote} expose={adminLayout.expose} />,
          children: [
            { index: true, element: <Navigate to="uploads" replace /> },
            ...adminChildren.map(({ path, remote, expose }) => ({
              path,
              element: <RemotePage remote={remote} expose={expose} />,
            })),
          ],
        },
        { path: '*', element: <NotFoundPage /> },
      ],
    },
  ];
}

export function createRouter() {
  keyInitialHistoryEntry();
  return createBrowserRouter(buildRoutes());
}
