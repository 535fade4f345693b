import { mountApp, Navigate, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import './billing.css';
import { budgetRoutes, BudgetsPage } from './budgets';
import { categories } from './categories';
import { items } from './items';
import { jobs } from './jobs';
import { OwnersPage } from './owners';
import { ReportsPage } from './reports';
import { SyncPage } from './sync';

mountApp({
  service: 'billing',
  title: 'Billing',
  nav: [
    { to: '/reports', label: 'Reports' },
    { to: '/items', label: 'Items' },
    { to: '/categories', label: 'Categories' },
    { to: '/budgets', label: 'Budgets' },
    { to: '/owners', label: 'Owners' },
    { to: '/jobs', label: 'Sync jobs', requires: ['billing', 'listSyncJobs'] },
  ],
  children: (
    <Routes>
      <Route index element={<Navigate to="/reports" replace />} />
      <Route path="reports" element={<ReportsPage />} />
      {resourceRoutes(items)}
      {resourceRoutes(categories)}
      <Route path="budgets" element={<BudgetsPage />} />
      <Route path="owners" element={<OwnersPage />} />
      {budgetRoutes()}
      <Route path="jobs/new" element={<SyncPage />} />
      {resourceRoutes(jobs)}
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
