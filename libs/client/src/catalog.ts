import { endpoint, type Transport } from './transport.js';

export interface CatalogService {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  system: string | null;
  owner: string | null;
  /** Ids of the services it depends on. */
  dependencies: string[];
  createdAt: string;
  updatedAt: string;
}

export interface CatalogServiceInput {
  name: string;
  description?: string | null;
  tags?: string[];
  /** Name or id of an existing system. */
  system?: string | null;
  /** Name or id of an existing owner. */
  owner?: string | null;
}

export interface CatalogServiceUpdate extends Partial<CatalogServiceInput> {
  /** Replaces the dependencies: ids or names. */
  dependencies?: string[];
}

export interface ServiceRef {
  id: string;
  name: string;
}

export interface CatalogSystem {
  id: string;
  name: string;
  description: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface CatalogOwner {
  id: string;
  name: string;
  email: string | null;
  team: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface DependencyGraph {
  root: ServiceRef;
  direction: 'down' | 'up';
  depth: number | null;
  nodes: Array<ServiceRef & { depth: number }>;
  /** `from` depends on `to` (ids). */
  edges: Array<{ from: string; to: string }>;
}

export interface SearchHit {
  id: string;
  name: string;
  description: string | null;
  tags: string[];
  match: 'name' | 'name-prefix' | 'name-contains' | 'tag' | 'tag-contains' | 'description';
}

type Page = { limit?: number; offset?: number };

/** Service catalog (spec 4.4). */
export class CatalogClient {
  private readonly send;

  constructor(transport: Transport) {
    this.send = endpoint(transport, '/api/v1/catalog');
  }

  listServices(filter: { system?: string; owner?: string; tag?: string } & Page = {}) {
    return this.send<CatalogService[]>('GET', ['services'], { query: filter });
  }
  createService(service: CatalogServiceInput) {
    return this.send<CatalogService>('POST', ['services'], { body: service });
  }
  getService(idOrName: string) {
    return this.send<CatalogService>('GET', ['services', idOrName]);
  }
  updateService(idOrName: string, changes: CatalogServiceUpdate) {
    return this.send<CatalogService>('PUT', ['services', idOrName], { body: changes });
  }
  deleteService(idOrName: string) {
    return this.send<CatalogService>('DELETE', ['services', idOrName]);
  }
  addDependency(idOrName: string, dependsOn: string) {
    return this.send<string[]>('POST', ['services', idOrName, 'dependencies'], {
      body: { dependsOn },
    });
  }
  removeDependency(idOrName: string, dependsOn: string) {
    return this.send<string[]>('DELETE', ['services', idOrName, 'dependencies', dependsOn]);
  }
  dependencies(idOrName: string, options: { direction?: 'down' | 'up'; depth?: number } = {}) {
    return this.send<DependencyGraph>('GET', ['deps', idOrName], { query: options });
  }
  search(q: string, limit?: number) {
    return this.send<SearchHit[]>('GET', ['search'], { query: { q, limit } });
  }

  listSystems(page: Page = {}) {
    return this.send<CatalogSystem[]>('GET', ['systems'], { query: page });
  }
  createSystem(system: { name: string; description?: string | null }) {
    return this.send<CatalogSystem>('POST', ['systems'], { body: system });
  }
  getSystem(idOrName: string) {
    return this.send<CatalogSystem & { services: ServiceRef[] }>('GET', ['systems', idOrName]);
  }
  updateSystem(idOrName: string, changes: { name?: string; description?: string | null }) {
    return this.send<CatalogSystem & { services: ServiceRef[] }>('PUT', ['systems', idOrName], {
      body: changes,
    });
  }
  deleteSystem(idOrName: string) {
    return this.send<CatalogSystem>('DELETE', ['systems', idOrName]);
  }

  listOwners(page: Page = {}) {
    return this.send<CatalogOwner[]>('GET', ['owners'], { query: page });
  }
  createOwner(owner: { name: string; email?: string | null; team?: string | null }) {
    return this.send<CatalogOwner>('POST', ['owners'], { body: owner });
  }
  getOwner(idOrName: string) {
    return this.send<CatalogOwner & { services: ServiceRef[] }>('GET', ['owners', idOrName]);
  }
  updateOwner(
    idOrName: string,
    changes: { name?: string; email?: string | null; team?: string | null },
  ) {
    return this.send<CatalogOwner & { services: ServiceRef[] }>('PUT', ['owners', idOrName], {
      body: changes,
    });
  }
  deleteOwner(idOrName: string) {
    return this.send<CatalogOwner>('DELETE', ['owners', idOrName]);
  }
}
