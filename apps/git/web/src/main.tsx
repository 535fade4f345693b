import { mountApp, Navigate, NotFound, resourceRoutes, Route, Routes } from '@platform/ui';
import './git.css';
import { NewCommitPage } from './commit-form';
import { CommitPage } from './commits';
import { providers } from './providers';
import { PullPage } from './pull';
import { NewPullPage } from './pull-form';
import { repos } from './repos';

mountApp({
  service: 'git',
  title: 'Git',
  nav: [
    { to: '/repos', label: 'Repositories' },
    { to: '/providers', label: 'Providers' },
  ],
  children: (
    <Routes>
      <Route index element={<Navigate to="/repos" replace />} />
      {resourceRoutes(repos)}
      <Route path="repos/:id/commits/new" element={<NewCommitPage />} />
      <Route path="repos/:id/commits/:sha" element={<CommitPage />} />
      <Route path="repos/:id/pulls/new" element={<NewPullPage />} />
      <Route path="repos/:id/pulls/:number" element={<PullPage />} />
      {resourceRoutes(providers)}
      <Route path="*" element={<NotFound />} />
    </Routes>
  ),
});
