import { mountApp, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import { ConnectionsPage } from './connections';
import { NewKeyPage } from './key-new';
import { PeoplePage } from './people';
import { keys } from './keys';
import { MePage } from './me';
import { providers } from './providers';
import { SessionsPage } from './sessions';

mountApp({
  service: 'passport',
  title: 'Identity',
  nav: [
    { to: '/', label: 'Signed in' },
    { to: '/sessions', label: 'Sessions' },
    { to: '/keys', label: 'API keys' },
    { to: '/providers', label: 'Providers' },
    { to: '/connections', label: 'Connections' },
    { to: '/people', label: 'People', requires: ['passport', 'listUsers'] },
  ],
  children: (
    <Routes>
      <Route index element={<MePage />} />
      <Route path="sessions" element={<SessionsPage />} />
      <Route path="keys/new" element={<NewKeyPage />} />
      {resourceRoutes(keys)}
      {resourceRoutes(providers)}
      <Route path="connections" element={<ConnectionsPage />} />
      <Route path="people" element={<PeoplePage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
