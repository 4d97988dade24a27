import { lazy, Suspense } from 'react';
import type { ReactNode } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { App } from './App';
import { Loading } from './components/ui';
import { PackagesPage } from './pages/Packages';
import { PackagePage } from './pages/Package';
import { CustomersPage } from './pages/Customers';
import { CustomerPage } from './pages/Customer';
import { CollectionsPage } from './pages/Collections';
import { TeamPage } from './pages/Team';
import { VulnerabilitiesPage } from './pages/Vulnerabilities';
import { VulnerabilityPage } from './pages/Vulnerability';
import { AuditPage } from './pages/Audit';
import { TasksPage } from './pages/Tasks';
import { WebhooksPage } from './pages/Webhooks';
import { WebhookEndpointPage } from './pages/WebhooksEndpoint';
import { EventsPage } from './pages/WebhooksEvents';
import { SettingsPage } from './pages/Settings';

// The chart library loads only with the statistics page.
const StatisticsPage = lazy(() => import('./pages/Statistics'));

const later = (node: ReactNode) => <Suspense fallback={<Loading what="page" />}>{node}</Suspense>;

export const router = createBrowserRouter(
  [
    {
      path: '/',
      element: <App />,
      children: [
        { index: true, element: <Navigate to="/packages" replace /> },
        { path: 'packages', element: <PackagesPage /> },
        { path: 'packages/:vendor/:name', element: <PackagePage /> },
        { path: 'customers', element: <CustomersPage /> },
        { path: 'customers/:id', element: <CustomerPage /> },
        { path: 'collections', element: <CollectionsPage /> },
        { path: 'team', element: <TeamPage /> },
        { path: 'statistics', element: later(<StatisticsPage />) },
        { path: 'vulnerabilities', element: <VulnerabilitiesPage /> },
        { path: 'vulnerabilities/:id', element: <VulnerabilityPage /> },
        { path: 'audit', element: <AuditPage /> },
        { path: 'tasks', element: <TasksPage /> },
        { path: 'webhooks', element: <WebhooksPage /> },
        { path: 'webhooks/:id', element: <WebhookEndpointPage /> },
        { path: 'events', element: <EventsPage /> },
        { path: 'settings', element: <SettingsPage /> },
        { path: '*', element: <Navigate to="/packages" replace /> },
      ],
    },
  ],
  { basename: '/admin' },
);
