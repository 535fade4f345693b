import { api, Card, formatDate, type DataOf, type ResourceSpec } from '@platform/ui';
import { NameLink, RecordLinks } from './refs';

type Owner = DataOf<'catalog.getOwner'>;

/** The owners (groups and users): list, detail with their services and child groups, CRUD. */
export const owners: ResourceSpec<Owner> = {
  path: 'owners',
  singular: 'owner',
  plural: 'owners',
  key: (o) => o.id,
  title: (o) => o.name,
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
    ownership: (o) => ({ createdBy: o.createdBy, team: o.name, collaborators: o.members }),
  },
  description: 'Groups and users that own services, systems and APIs.',
  filters: [
    { name: 'kind', label: 'Kind', options: ['group', 'user'] },
    { name: 'parent', label: 'Parent group', type: 'text' },
  ],
  columns: [
    { header: 'Name', cell: (o) => o.name },
    { header: 'Kind', cell: (o) => o.kind },
    { header: 'Parent', cell: (o) => o.parent ?? '—' },
    { header: 'Email', cell: (o) => o.email ?? '—' },
    { header: 'Team', cell: (o) => o.team ?? '—' },
  ],
  fields: [
    { name: 'name', label: 'Name', required: true },
    { name: 'kind', label: 'Kind', kind: 'select', options: ['group', 'user'] },
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
    ['Kind', o.kind],
    ['Parent group', <NameLink key="parent" to="owners" name={o.parent} />],
    ['Email', o.email && <a href={`mailto:${o.email}`}>{o.email}</a>],
    ['Team', o.team],
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
    </div>
  ),
};
