import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import 'virtual:platform-tokens.css';
import './styles/base.css';
import './styles/layout.css';
import './styles/controls.css';
import { PlatformError } from './api';
import { Shell, type NavItem } from './shell';

/**
 * Starts a web UI: the client's cache, routing under `/<service>/`, the platform's frame.
 * Errors of the API are not retried when they are the caller's (4xx).
 */
export function mountApp({
  service,
  title,
  nav = [],
  children,
}: {
  service: string | null;
  title: string;
  nav?: readonly NavItem[];
  children: ReactNode;
}) {
  const queryClient = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5_000,
        refetchOnWindowFocus: false,
        retry: (count, error) =>
          !(error instanceof PlatformError && error.status < 500) && count < 2,
      },
    },
  });
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter basename={service ? `/${service}` : '/'}>
          <Shell service={service} title={title} nav={nav}>
            {children}
          </Shell>
        </BrowserRouter>
      </QueryClientProvider>
    </StrictMode>,
  );
}
