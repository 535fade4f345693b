import { api, Card, formatDate, type DataOf, type ResourceSpec } from '@platform/ui';
import { nameOf, NameLink, namespaceField, namespaceFilter, RecordLinks } from './refs';

type Owner = DataOf<'catalog.getOwner'>;

/** The owners (groups and users): list, detail with their services and child groups, CRUD. */
export const owners: ResourceSpec<Owner> = {
  path: 'owners',
  singular: 'owner',
  plural: 'owners',
  key: (o) => o.id,
  title: (o) => nameOf(o),
  list: (query) => api.catalog.listOwners({ query }) as Promise<Owner[]>,
  get: (idOrName) => api.catalog.getOwner({ path: { idOrName } }),
  create: (body) => api.catalog.createOwner({ body: body as { name: string } }) as Promise<Owner>,
  update: (idOrName, body) => api.catalog.updateOwner({ path: { idOrName }, body }),
  remove: (idOrName) => api.catalog.deleteOwner({ path: { idOrName } }),
  // An owner is a team: its creator and its members (by email or groups claim) manage it.
  access: {
    service: 'catalog',
    create: 'createOwner',
    update: 'updateOwner',
    remove: 'deleteOwner',
    ownership: (o) => ({ createdBy: o.createdBy, team: nameOf(o), collaborators: o.members }),
  },
  description: 'Groups and users that own services, systems and APIs.',
  filters: [
    { name: 'kind', label: 'Kind', options: ['group', 'user'] },
    { name: 'parent', label: 'Parent group', type: 'text' },
    namespaceFilter,
  ],
  columns: [
    { header: 'Name', cell: (o) => nameOf(o) },
    { header: 'Kind', cell: (o) => o.kind },
    { header: 'Type', cell: (o) => o.type ?? '—' },
    { header: 'Parent', cell: (o) => o.parent ?? '—' },
    { header: 'Email', cell: (o) => o.email ?? '—' },
    { header: 'Team', cell: (o) => o.team ?? '—' },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    namespaceField,
    { name: 'kind', label: 'Kind', kind: 'select', options: ['group', 'user'] },
    { name: 'type', label: 'Group type', hint: 'team, department ... (groups)' },
    { name: 'description', label: 'Description', kind: 'textarea' },
    { name: 'picture', label: 'Picture', hint: 'An http(s) URL of the profile picture' },
    { name: 'email', label: 'Email', kind: 'email' },
    { name: 'team', label: 'Team' },
    { name: 'parent', label: 'Parent group', hint: 'The name of a group (groups only)' },
    {
      name: 'members',
      label: 'Members',
      kind: 'list',
      hint: 'Emails, comma-separated: the people of this team, who may change what it owns',
    },
  ],
  details: (o) => [
    ['Id', <code key="id">{o.id}</code>],
    ['Namespace', o.namespace],
    ['Kind', o.kind],
    ['Type', o.type],
    ['Description', o.description],
    // A link, not an image: the platform's pages load no third-party image (CSP img-src 'self').
    [
      'Picture',
      o.picture && (
        <a key="picture" href={o.picture}>
          {o.picture}
        </a>
      ),
    ],
    ['Parent group', <NameLink key="parent" to="owners" name={o.parent} />],
    ['Email', o.email && <a href={`mailto:${o.email}`}>{o.email}</a>],
    ['Display name', o.team],
    ['Members', o.members.join(', ')],
    ['Created by', o.createdBy],
    ['Created', formatDate(o.createdAt)],
    ['Updated', formatDate(o.updatedAt)],
  ],
  more: (o) => (
    <div className="ui-grid">
      <Card title="Services">
        <RecordLinks to="services" records={o.services} empty={`${o.name} owns no service.`} />
      </Card>
      <Card title="Child groups">
        <RecordLinks to="owners" records={o.children} empty={`${o.name} has no child group.`} />
      </Card>
      {o.kind === 'group' ? (
        <Card title="Members">
          <RecordLinks to="owners" records={o.users} empty={`${o.name} has no member.`} />
        </Card>
      ) : (
        <Card title="Member of">
          <RecordLinks to="owners" records={o.memberOf} empty={`${o.name} is in no group.`} />
        </Card>
      )}
    </div>
  ),
};
