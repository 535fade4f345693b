import { mountApp, Navigate, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import { apps } from './apps';
import { RunPage, RunsPage } from './runs';
import { SessionPage } from './session';
import { SessionsPage } from './sessions';
import './stage.css';

// Routes stay clear of what the sandbox serves under /stage/: /stage/<sid>/api is an app's
// backend, so no route here has `api` as its second segment.
mountApp({
  service: 'stage',
  title: 'Sandbox',
  nav: [
    { to: '/sessions', label: 'Sessions' },
    { to: '/apps', label: 'Apps' },
  ],
  children: (
    <Routes>
      <Route index element={<Navigate to="/sessions" replace />} />
      <Route path="sessions" element={<SessionsPage />} />
      <Route path="sessions/:id" element={<SessionPage />} />
      {resourceRoutes(apps)}
      <Route path="apps/:sid/runs" element={<RunsPage />} />
      <Route path="apps/:sid/runs/:runId" element={<RunPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
