import { createBrowserRouter, Navigate } from 'react-router';
import { PortalApp } from './PortalApp';
import { PackagesPage, PackagePage } from './Packages';
import { SetupPage } from './Setup';
import { TokensPage } from './Tokens';

export const router = createBrowserRouter(
  [
    {
      path: '/',
      element: <PortalApp />,
      children: [
        { index: true, element: <PackagesPage /> },
        { path: 'packages/:vendor/:name', element: <PackagePage /> },
        { path: 'setup', element: <SetupPage /> },
        { path: 'tokens', element: <TokensPage /> },
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ],
  { basename: '/portal' },
);
