import { mountApp, Navigate, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import { components } from './components';
import { ContrastChecker } from './contrast';
import { ExportPage } from './export';
import { Gallery } from './gallery';
import { ImportPage } from './import';
import './palette.css';
import { patterns } from './patterns';
import { rules } from './rules';
import { Search } from './search';
import { standards } from './standards';
import { tokens } from './tokens';

mountApp({
  service: 'palette',
  title: 'Design system',
  nav: [
    { to: '/gallery', label: 'Gallery' },
    { to: '/tokens', label: 'Tokens' },
    { to: '/contrast', label: 'Contrast' },
    { to: '/components', label: 'Components' },
    { to: '/patterns', label: 'Patterns' },
    { to: '/standards', label: 'Standards' },
    { to: '/rules', label: 'Accessibility' },
    { to: '/search', label: 'Search' },
    { to: '/import', label: 'Import' },
    { to: '/export', label: 'Export' },
  ],
  children: (
    <Routes>
      <Route index element={<Navigate to="/gallery" replace />} />
      <Route path="gallery" element={<Gallery />} />
      <Route path="contrast" element={<ContrastChecker />} />
      <Route path="search" element={<Search />} />
      <Route path="export" element={<ExportPage />} />
      <Route path="import" element={<ImportPage />} />
      {resourceRoutes(tokens)}
      {resourceRoutes(components)}
      {resourceRoutes(patterns)}
      {resourceRoutes(standards)}
      {resourceRoutes(rules)}
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
