import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Component, useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useCan, useMe, type OperationRef } from './access';
import { api, errorMessage, PlatformError } from './api';
import { ErrorBanner } from './feedback';
import { InboxBell } from './inbox';
import { SERVICES } from './services';
import { FilterSelect } from './table';

type Theme = 'system' | 'light' | 'dark';

/** Light, dark, or the system's: the token stylesheet reads `data-theme` on <html>. */
function ThemeToggle() {
  const [theme, setTheme] = useState<Theme>(
    () => (localStorage.getItem('platform-theme') as Theme | null) ?? 'system',
  );
  useEffect(() => {
    if (theme === 'system') document.documentElement.removeAttribute('data-theme');
    else document.documentElement.setAttribute('data-theme', theme);
    localStorage.setItem('platform-theme', theme);
  }, [theme]);
  return (
    <FilterSelect
      label="Theme"
      value={theme}
      onChange={(value) => setTheme(value as Theme)}
      any={null}
      options={[
        { value: 'system', label: 'System' },
        { value: 'light', label: 'Light' },
        { value: 'dark', label: 'Dark' },
      ]}
    />
  );
}

/** Signs out (the session ends at once) and goes to the dashboard; a failure is returned, shown. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.passport.logout(),
    onSuccess: () => {
      queryClient.clear();
      location.assign('/');
    },
  });
}

/**
 * The signed-in user and sign-out when authentication is on; "Sign in" when it is on and nobody
 * is; nothing when it is off (everyone is anonymous).
 */
function UserMenu() {
  const signOut = useSignOut();
  const me = useMe();
  if (me.error instanceof PlatformError && me.error.status === 401) {
    const returnTo = encodeURIComponent(location.pathname + location.search);
    return (
      <a
        className="ui-button ui-button-primary"
        href={`/api/v1/passport/login?returnTo=${returnTo}`}
      >
        Sign in
      </a>
    );
  }
  const who = me.data as { kind: string; email?: string; name?: string } | undefined;
  if (!who || who.kind === 'anonymous') return null;
  return (
    <div className="ui-user">
      <span title={who.email}>{who.email ?? who.name ?? who.kind}</span>
      {who.kind === 'user' && (
        <button
          type="button"
          className="ui-button"
          disabled={signOut.isPending}
          title={signOut.error ? errorMessage(signOut.error) : undefined}
          onClick={() => signOut.mutate()}
        >
          {signOut.error ? 'Sign out failed: retry' : 'Sign out'}
        </button>
      )}
    </div>
  );
}

/**
 * The services whose flag is on, known ones in their order and with their titles, a service the
 * kit does not list yet (a newly generated one) after them under its name; every known one while
 * the flags cannot be read.
 */
export function useEnabledServices(): { name: string; title: string }[] {
  const features = useQuery({
    queryKey: ['gateway.features'],
    queryFn: () => api.gateway.listFeatures(),
  });
  const flags = features.data as { name: string; enabled: boolean }[] | undefined;
  if (!flags) return [...SERVICES];
  const enabled = flags.filter((f) => f.enabled).map((f) => f.name);
  return [
    ...SERVICES.filter((s) => enabled.includes(s.name)),
    ...enabled
      .filter((name) => !SERVICES.some((s) => s.name === name))
      .map((name) => ({ name, title: name[0].toUpperCase() + name.slice(1) })),
  ];
}

export interface NavItem {
  to: string;
  label: string;
  /** Shown only to whom may call this operation (a page of admins' only). */
  requires?: OperationRef;
}

/** Every page's frame: the platform's bar, the app's own navigation, the page. */
export function Shell({
  service,
  title,
  nav,
  children,
}: {
  service: string | null;
  title: string;
  nav: readonly NavItem[];
  children: ReactNode;
}) {
  const services = useEnabledServices();
  const can = useCan() as (service: string, operation: string) => boolean;
  const location = useLocation();
  const first = useRef(true);
  // After a navigation, focus goes to the new page's heading (a screen reader announces it,
  // the keyboard starts from it); not on the first load, where the browser's order applies.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = document.querySelector<HTMLElement>('main h1');
    if (heading) {
      heading.tabIndex = -1;
      heading.focus({ preventScroll: false });
    }
  }, [location.pathname]);
  useEffect(() => {
    document.title = service ? `${title} · Platform` : 'Platform';
  }, [service, title]);
  return (
    <>
      <a className="ui-skip" href="#main">
        Skip to content
      </a>
      <header className="ui-topbar">
        <a className="ui-brand" href="/">
          Platform
        </a>
        <nav aria-label="Services" className="ui-services">
          {services.map((s) => (
            <a
              key={s.name}
              href={`/${s.name}/`}
              aria-current={s.name === service ? 'page' : undefined}
            >
              {s.title}
            </a>
          ))}
        </nav>
        <div className="ui-topbar-end">
          <ThemeToggle />
          {services.some((s) => s.name === 'communication') && <InboxBell />}
          <UserMenu />
        </div>
      </header>
      <div className="ui-layout">
        {nav.length > 0 && (
          <nav aria-label={title} className="ui-sidenav">
            {nav
              .filter((item) => !item.requires || can(item.requires[0], item.requires[1]))
              .map((item) => (
                <NavLink key={item.to} to={item.to} end={item.to === '/'}>
                  {item.label}
                </NavLink>
              ))}
          </nav>
        )}
        <main id="main" className="ui-main">
          {/* A new page starts without the last one's failure. */}
          <ErrorBoundary key={location.pathname}>{children}</ErrorBoundary>
        </main>
      </div>
    </>
  );
}

/** A page that throws shows what went wrong, never a blank page. */
class ErrorBoundary extends Component<{ children: ReactNode }, { error: unknown }> {
  state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  render() {
    if (this.state.error) return <ErrorBanner title="This page failed" error={this.state.error} />;
    return this.props.children;
  }
}

/** A page's title and its main actions. */
export function PageHeader({
  title,
  actions,
  children,
}: {
  title: ReactNode;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <div className="ui-page-header">
      <div>
        <h1>{title}</h1>
        {children && <div className="ui-muted ui-lead">{children}</div>}
      </div>
      {actions && <div className="ui-actions">{actions}</div>}
    </div>
  );
}

/** What an app shows for a path it has no page for: `<Route path="*" element={<NotFound />} />`. */
export function NotFound() {
  return (
    <>
      <PageHeader title="Page not found" />
      <p>
        Nothing here. <Link to="/">Back to the start</Link> or pick a page in the menu.
      </p>
    </>
  );
}
