import {
  api,
  Card,
  Details,
  Empty,
  ErrorBanner,
  FilterBar,
  formatDate,
  JsonBlock,
  Link,
  Loading,
  PageHeader,
  useListParams,
  useQuery,
} from '@platform/ui';
import { Text } from './insights-controls';

/** A person found by any of their distinct ids (GET /persons/:distinctId): ids, properties. */
export function PersonsPage() {
  const params = useListParams();
  const distinctId = params.get('distinctId').trim();
  const person = useQuery({
    queryKey: ['person', distinctId],
    queryFn: () => api.pulse.getPerson({ path: { distinctId } }),
    enabled: distinctId !== '',
    retry: false,
  });
  const data = person.data;
  return (
    <>
      <PageHeader title="Persons">
        The person behind a distinct id: every id merged into them by identify and alias, and their
        properties.
      </PageHeader>
      <FilterBar>
        <Text params={params} name="distinctId" label="Distinct id" placeholder="user-42" />
      </FilterBar>
      <ErrorBanner error={person.error} />
      {distinctId === '' ? (
        <Empty>Enter a distinct id: a user id, or an anonymous id a browser sent.</Empty>
      ) : person.isPending ? (
        <Loading />
      ) : !data ? null : (
        <>
          <Card title="Person">
            <Details
              items={[
                ['Id', <code key="id">{data.id}</code>],
                ['Identified', data.identified ? 'yes' : 'no (anonymous)'],
                [
                  'Distinct ids',
                  <ul key="ids" className="pulse-ids">
                    {data.distinctIds.map((id) => (
                      <li key={id}>
                        <Link to={`/events?userId=${encodeURIComponent(id)}`}>{id}</Link>
                      </li>
                    ))}
                  </ul>,
                ],
                ['First seen', formatDate(data.createdAt)],
                ['Updated', formatDate(data.updatedAt)],
              ]}
            />
          </Card>
          <Card title="Properties">
            <JsonBlock value={data.properties} label="Person properties" />
          </Card>
        </>
      )}
    </>
  );
}
