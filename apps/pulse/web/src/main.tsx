import { mountApp, Navigate, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import { events } from './events';
import './pulse.css';
import { TimelinePage } from './timeline';
import { TopEventsPage } from './top-events';

mountApp({
  service: 'pulse',
  title: 'Analytics',
  nav: [
    { to: '/events', label: 'Events' },
    { to: '/top', label: 'Top events' },
    { to: '/timeline', label: 'Timeline' },
  ],
  children: (
    <Routes>
      <Route index element={<Navigate to="/events" replace />} />
      {resourceRoutes(events)}
      <Route path="top" element={<TopEventsPage />} />
      <Route path="timeline" element={<TimelinePage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
