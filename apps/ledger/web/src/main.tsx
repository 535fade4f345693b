import { mountApp, Navigate, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import { classifications } from './classifications';
import { events, SignedHeads } from './events';
import { policies } from './policies';

mountApp({
  service: 'ledger',
  title: 'Audit',
  nav: [
    { to: '/events', label: 'Events', requires: ['ledger', 'listEvents'] },
    { to: '/heads', label: 'Signed heads', requires: ['ledger', 'listSignedHeads'] },
    { to: '/policies', label: 'Retention policies', requires: ['ledger', 'listPolicies'] },
    { to: '/classifications', label: 'Classifications' },
  ],
  children: (
    <Routes>
      <Route index element={<Navigate to="/events" replace />} />
      {resourceRoutes(events)}
      <Route path="heads" element={<SignedHeads />} />
      {resourceRoutes(policies)}
      {resourceRoutes(classifications)}
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
