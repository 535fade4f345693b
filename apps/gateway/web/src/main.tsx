import { mountApp, NotFound, Route, Routes } from '@platform/ui';
import { Dashboard } from './dashboard';

mountApp({
  service: null,
  title: 'Platform',
  children: (
    <Routes>
      <Route index element={<Dashboard />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
