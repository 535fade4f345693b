export { mountApp } from './app';
export { api, errorMessage, fieldOf, platformFetch, PlatformError, ConnectionError } from './api';
export type { DataOf, ArgsOf, BodyOf, OperationId } from './api';
export { Shell, PageHeader, NotFound, useEnabledServices, useSignOut, type NavItem } from './shell';
export { Form, TextField, SelectField, CheckboxField, TeamField, splitList } from './forms';
export {
  useMe,
  useCan,
  whoMay,
  type Me,
  type Owned,
  type AccessService,
  type AccessOperation,
  type OperationRef,
} from './access';
export { Allowed } from './allowed';
export {
  DataTable,
  Pager,
  FilterBar,
  FilterInput,
  FilterSelect,
  useListParams,
  type Column,
} from './table';
export { ConfirmButton } from './dialog';
export {
  ErrorBanner,
  Notice,
  Loading,
  Empty,
  Badge,
  Status,
  Card,
  Details,
  JsonBlock,
  type Tone,
} from './feedback';
export { TrendChart, BreakdownChart, type Series, type Datum } from './charts';
export { formatDate, formatCents, formatMicros, formatNumber } from './format';
export { SERVICES, type ServiceName } from './services';
export { useQuery, useMutation, useQueryClient, keepPreviousData } from '@tanstack/react-query';
export {
  Routes,
  Route,
  Link,
  Navigate,
  NavLink,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
export { QueryList } from './query-list';
export {
  resourceRoutes,
  type ResourceSpec,
  type ResourceAccess,
  type FilterSpec,
} from './resource';
export { ResourceForm, type FieldSpec } from './resource-form';
