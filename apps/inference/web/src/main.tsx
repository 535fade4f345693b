import { mountApp, Navigate, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import './inference.css';
import { KeysPage } from './keys';
import { ModelsPage } from './models';
import { PlaygroundPage } from './playground';
import { providers } from './providers';
import { RequestPage } from './request';
import { UsagePage } from './usage';

mountApp({
  service: 'inference',
  title: 'Inference',
  nav: [
    { to: '/playground', label: 'Playground' },
    { to: '/usage', label: 'Usage' },
    { to: '/keys', label: 'Keys' },
    { to: '/providers', label: 'Providers' },
    { to: '/models', label: 'Models' },
  ],
  children: (
    <Routes>
      <Route index element={<Navigate to="/playground" replace />} />
      <Route path="playground" element={<PlaygroundPage />} />
      <Route path="usage" element={<UsagePage />} />
      <Route path="keys" element={<KeysPage />} />
      <Route path="requests/:id" element={<RequestPage />} />
      <Route path="models" element={<ModelsPage />} />
      {resourceRoutes(providers)}
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
