import { mountApp, Navigate, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import { classifications } from './classifications';
import { events, SignedHeads } from './events';
import { policies } from './policies';

mountApp({
  service: 'ledger',
  title: 'Audit',
  nav: [
    { to: '/events', label: 'Events' },
    { to: '/heads', label: 'Signed heads' },
    { to: '/policies', label: 'Retention policies' },
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
