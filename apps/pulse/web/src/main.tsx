import { mountApp, Navigate, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import { events } from './events';
import { FunnelsPage } from './funnels';
import { PersonsPage } from './persons';
import './pulse.css';
import { RetentionPage } from './retention';
import { TimelinePage } from './timeline';
import { TopEventsPage } from './top-events';
import { TrendsPage } from './trends';

mountApp({
  service: 'pulse',
  title: 'Analytics',
  nav: [
    { to: '/events', label: 'Events' },
    { to: '/top', label: 'Top events' },
    { to: '/timeline', label: 'Timeline' },
    { to: '/trends', label: 'Trends' },
    { to: '/funnels', label: 'Funnels' },
    { to: '/retention', label: 'Retention' },
    { to: '/persons', label: 'Persons' },
  ],
  children: (
    <Routes>
      <Route index element={<Navigate to="/events" replace />} />
      {resourceRoutes(events)}
      <Route path="top" element={<TopEventsPage />} />
      <Route path="timeline" element={<TimelinePage />} />
      <Route path="trends" element={<TrendsPage />} />
      <Route path="funnels" element={<FunnelsPage />} />
      <Route path="retention" element={<RetentionPage />} />
      <Route path="persons" element={<PersonsPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
