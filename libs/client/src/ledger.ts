import { call, type Transport } from './transport.js';

export interface AuditEvent {
  id: string;
  action: string;
  actor: string | null;
  resource: string | null;
  service: string | null;
  metadata: Record<string, unknown>;
  details: Record<string, unknown>;
  timestamp: string;
  seq: number;
  hash: string;
  prevHash: string;
  anonymized: boolean;
}

export interface AuditEventInput {
  action: string;
  actor?: string;
  resource?: string;
  service?: string;
  metadata?: Record<string, unknown>;
  details?: Record<string, unknown>;
  /** When it happened, if not now. */
  timestamp?: string;
}

export interface AuditEventFilter {
  action?: string;
  actor?: string;
  resource?: string;
  service?: string;
  from?: string;
  to?: string;
  limit?: number;
  offset?: number;
}

export interface ChainVerification {
  valid: boolean;
  checked: number;
  firstInvalidId: string | null;
  reason: string | null;
  checkpoints: number;
  head: { seq: number; hash: string };
}

export type PolicyAction = 'delete' | 'anonymize';

export interface RetentionPolicy {
  id: string;
  name: string;
  retentionDays: number;
  scope: string;
  service: string | null;
  action: PolicyAction;
  createdAt: string;
  updatedAt: string;
  lastAppliedAt: string | null;
  lastAffected: number | null;
}

export interface RetentionPolicyInput {
  name: string;
  retentionDays: number;
  /** `all`, `service:<service>` or `action:<action>` (trailing `*` for a prefix). */
  scope?: string;
  service?: string;
  action?: PolicyAction;
}

export interface RetentionRun {
  policy: string;
  action: PolicyAction;
  cutoff: string;
  deleted: number;
  anonymized: number;
}

export type ClassificationLevel = 'public' | 'internal' | 'confidential' | 'pii' | 'restricted';

export interface Classification {
  id: string;
  serviceId: string;
  service: string;
  field: string;
  level: ClassificationLevel;
  justification: string;
  ppiCategory: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ClassificationInput {
  serviceId?: string;
  service?: string;
  field: string;
  level: ClassificationLevel;
  justification: string;
  ppiCategory?: string;
}

type Page = { limit?: number; offset?: number };

const BASE = '/api/v1/ledger';
const path = (...parts: string[]) => [BASE, ...parts.map(encodeURIComponent)].join('/');

/** Audit (spec 4.3). */
export class LedgerClient {
  constructor(private readonly transport: Transport) {}

  record(event: AuditEventInput) {
    return call<AuditEvent>(this.transport, { method: 'POST', path: path('events'), body: event });
  }

  listEvents(filter: AuditEventFilter = {}) {
    return call<AuditEvent[]>(this.transport, {
      method: 'GET',
      path: path('events'),
      query: { ...filter },
    });
  }

  getEvent(id: string) {
    return call<AuditEvent>(this.transport, { method: 'GET', path: path('events', id) });
  }

  verify() {
    return call<ChainVerification>(this.transport, {
      method: 'GET',
      path: path('events', 'verify'),
    });
  }

  createPolicy(policy: RetentionPolicyInput) {
    return call<RetentionPolicy>(this.transport, {
      method: 'POST',
      path: path('policies'),
      body: policy,
    });
  }

  listPolicies(filter: { service?: string; action?: PolicyAction } & Page = {}) {
    return call<RetentionPolicy[]>(this.transport, {
      method: 'GET',
      path: path('policies'),
      query: { ...filter },
    });
  }

  getPolicy(idOrName: string) {
    return call<RetentionPolicy>(this.transport, {
      method: 'GET',
      path: path('policies', idOrName),
    });
  }

  deletePolicy(idOrName: string) {
    return call<RetentionPolicy>(this.transport, {
      method: 'DELETE',
      path: path('policies', idOrName),
    });
  }

  applyPolicy(idOrName: string) {
    return call<RetentionRun>(this.transport, {
      method: 'POST',
      path: path('policies', idOrName, 'apply'),
    });
  }

  classify(classification: ClassificationInput) {
    return call<Classification>(this.transport, {
      method: 'POST',
      path: path('classifications'),
      body: classification,
    });
  }

  listClassifications(filter: { service?: string; level?: ClassificationLevel } & Page = {}) {
    return call<Classification[]>(this.transport, {
      method: 'GET',
      path: path('classifications'),
      query: { ...filter },
    });
  }

  getClassification(id: string) {
    return call<Classification>(this.transport, {
      method: 'GET',
      path: path('classifications', id),
    });
  }

  deleteClassification(id: string) {
    return call<Classification>(this.transport, {
      method: 'DELETE',
      path: path('classifications', id),
    });
  }
}
