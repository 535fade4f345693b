import { mountApp, Route, Routes } from '@platform/ui';
import { Dashboard } from './dashboard';

mountApp({
  service: null,
  title: 'Platform',
  children: (
    <Routes>
      <Route path="*" element={<Dashboard />} />
    </Routes>
  ),
});
