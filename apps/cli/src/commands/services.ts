import { crudVerbs, type ServiceSpec } from '../generic.js';

/** Identity: API keys (the secret is shown once, at creation), providers, connections. */
export const passportSpec: ServiceSpec = {
  service: 'passport',
  describe: 'Identity: API keys, identity providers, connections',
  resources: {
    keys: {
      describe: 'API keys (sent as X-API-Key)',
      verbs: {
        list: {
          op: 'listKeys',
          columns: [
            'id',
            'name',
            'prefix',
            'scopes',
            'team',
            'lastUsedAt',
            'expiresAt',
            'revokedAt',
          ],
        },
        get: 'getKey',
        create: {
          op: 'createKey',
          args: ['name'],
          human: (data) => {
            const key = data as { id: string; name: string; key: string };
            return `Created key ${key.name} (${key.id})\n${key.key}\nStore it now: it is not shown again.`;
          },
        },
        revoke: {
          op: 'revokeKey',
          human: (data) => `Revoked key ${(data as { name: string }).name}`,
        },
      },
    },
    providers: {
      verbs: {
        list: { op: 'listProviders', columns: ['id', 'name', 'type'] },
        get: 'getProvider',
        create: { op: 'createProvider', args: ['name'] },
        delete: 'deleteProvider',
      },
    },
    users: {
      describe: "People and their roles (admins only); `users role <email> <role>` changes one's",
      verbs: {
        list: { op: 'listUsers', columns: ['email', 'role', 'source', 'lastSignInAt'] },
        role: {
          op: 'setUserRole',
          args: ['email', 'role'],
          human: (data) => {
            const user = data as { email: string; role: string };
            return `${user.email} is now ${user.role}`;
          },
        },
      },
    },
    connections: { verbs: { list: 'listConnections', delete: 'deleteConnection' } },
    sessions: { verbs: { list: 'listSessions', delete: 'deleteSession' } },
  },
  verbs: { me: { op: 'me', describe: 'Who the API key or session is' } },
};

export const communicationSpec: ServiceSpec = {
  service: 'communication',
  describe: 'Channels, app registrations, sending, deliveries',
  resources: {
    channels: {
      verbs: crudVerbs('Channel', 'Channels', ['id', 'name', 'provider', 'status', 'description']),
    },
    registrations: {
      describe: 'Channels registered for an app',
      verbs: {
        list: {
          op: 'listRegistrations',
          columns: ['id', 'channelId', 'target', 'enabled', 'createdAt'],
        },
        get: 'getRegistration',
        create: 'createRegistration',
        update: 'updateRegistration',
        delete: 'deleteRegistration',
      },
    },
    deliveries: {
      verbs: {
        list: {
          op: 'listDeliveries',
          columns: ['id', 'channelId', 'provider', 'target', 'status', 'createdAt'],
        },
        get: 'getDelivery',
      },
    },
  },
  verbs: {
    send: {
      op: 'send',
      describe: 'Send a message through a channel registered for the app',
      human: (data) => {
        const d = data as {
          delivery?: { id: string; status: string };
          provider?: string;
          live?: boolean;
        };
        return `Sent: delivery ${d.delivery?.id} ${d.delivery?.status} via ${d.provider}${d.live ? '' : ' (not live)'}`;
      },
    },
  },
};

export const gitSpec: ServiceSpec = {
  service: 'git',
  describe: 'Git providers, repositories, branches, commits, pull requests (experimental)',
  resources: {
    providers: {
      verbs: {
        list: { op: 'listProviders', columns: ['id', 'name', 'type', 'passportProviderId'] },
        get: 'getProvider',
        create: { op: 'createProvider', args: ['name'] },
        delete: 'deleteProvider',
      },
    },
    repos: {
      verbs: {
        list: {
          op: 'listRepos',
          columns: ['id', 'fullName', 'defaultBranch', 'status', 'private'],
        },
        get: 'getRepo',
        connect: 'connectRepo',
        delete: 'deleteRepo',
        sync: 'syncRepo',
        files: 'listFiles',
        file: 'getFile',
        compare: 'compare',
        webhook: 'createWebhook',
        'delete-webhooks': 'deleteWebhooks',
      },
    },
    branches: { verbs: { list: 'listBranches', create: 'createBranch', delete: 'deleteBranch' } },
    commits: { verbs: { list: 'listCommits', get: 'getCommit', create: 'createCommit' } },
    pulls: {
      verbs: {
        list: { op: 'listPulls', columns: ['number', 'title', 'state', 'head', 'base'] },
        get: 'getPull',
        create: 'createPull',
        merge: 'mergePull',
      },
    },
    webhooks: { verbs: { events: 'listWebhookEvents' } },
  },
};
