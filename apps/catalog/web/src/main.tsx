import { mountApp, Navigate, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import { apis } from './apis';
import './catalog.css';
import { domains } from './domains';
import { GraphPage } from './graph';
import { owners } from './owners';
import { scorecards } from './scorecards';
import { SearchPage } from './search';
import { services } from './services';
import { systems } from './systems';
import { templates } from './templates';

mountApp({
  service: 'catalog',
  title: 'Catalog',
  nav: [
    { to: '/services', label: 'Services' },
    { to: '/domains', label: 'Domains' },
    { to: '/systems', label: 'Systems' },
    { to: '/owners', label: 'Owners' },
    { to: '/apis', label: 'APIs' },
    { to: '/templates', label: 'Templates' },
    { to: '/scorecards', label: 'Scorecards' },
    { to: '/graph', label: 'Dependency graph' },
    { to: '/search', label: 'Search' },
  ],
  children: (
    <Routes>
      <Route index element={<Navigate to="/services" replace />} />
      {resourceRoutes(services)}
      {resourceRoutes(systems)}
      {resourceRoutes(owners)}
      {resourceRoutes(apis)}
      {resourceRoutes(domains)}
      {resourceRoutes(templates)}
      {resourceRoutes(scorecards)}
      <Route path="graph" element={<GraphPage />} />
      <Route path="graph/:key" element={<GraphPage />} />
      <Route path="search" element={<SearchPage />} />
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
