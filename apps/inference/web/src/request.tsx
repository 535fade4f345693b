import {
  api,
  Card,
  Details,
  ErrorBanner,
  formatDate,
  formatMicros,
  formatNumber,
  Link,
  Loading,
  PageHeader,
  Status,
  useParams,
  useQuery,
} from '@platform/ui';

/** One entry of the request log. */
export function RequestPage() {
  const id = useParams().id!;
  const request = useQuery({
    queryKey: ['requests', id],
    queryFn: () => api.inference.getRequest({ path: { id } }),
  });
  if (request.isPending) return <Loading />;
  const back = <Link to="/usage">All usage</Link>;
  if (request.error)
    return (
      <>
        <PageHeader title={`Request ${id}`}>{back}</PageHeader>
        <ErrorBanner error={request.error} />
      </>
    );
  const r = request.data;
  return (
    <>
      <PageHeader title={`${r.kind} request to ${r.model ?? r.provider ?? 'a provider'}`}>
        {back}
      </PageHeader>
      <Card>
        <Details
          items={[
            ['Id', <code key="id">{r.id}</code>],
            ['Status', <Status key="status" value={r.status} />],
            ['Error', r.error],
            [
              'Provider',
              r.providerId ? (
                <Link to={`/providers/${r.providerId}`}>{r.provider}</Link>
              ) : (
                r.provider
              ),
            ],
            ['Model', r.model && <code>{r.model}</code>],
            ['Kind', r.kind],
            ['Input tokens', formatNumber(r.inputTokens)],
            ['Output tokens', formatNumber(r.outputTokens)],
            [
              'Tokens estimated',
              r.estimated ? 'Yes (4 characters a token)' : 'No, as the provider counted',
            ],
            ['Attempts', formatNumber(r.attempts)],
            ['Duration', `${formatNumber(r.durationMs)} ms`],
            [
              'Time to first token',
              r.timeToFirstTokenMs === null ? null : `${formatNumber(r.timeToFirstTokenMs)} ms`,
            ],
            ['Cost', formatMicros(r.costMicros)],
            ['Request id', r.requestId && <code>{r.requestId}</code>],
            ['Calling app', r.app],
            ['When', formatDate(r.created)],
          ]}
        />
      </Card>
    </>
  );
}
