import { mountApp, Navigate, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import { items } from './items';

mountApp({
  service: '{{name}}',
  title: '{{title}}',
  nav: [{ to: '/items', label: 'Items' }],
  children: (
    <Routes>
      <Route index element={<Navigate to="/items" replace />} />
      {resourceRoutes(items)}
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
