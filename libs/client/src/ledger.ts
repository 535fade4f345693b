import { endpoint, type Transport } from './transport.js';

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

/** Audit (spec 4.3). */
export class LedgerClient {
  private readonly send;

  constructor(transport: Transport) {
    this.send = endpoint(transport, '/api/v1/ledger');
  }

  record(event: AuditEventInput) {
    return this.send<AuditEvent>('POST', ['events'], { body: event });
  }

  listEvents(filter: AuditEventFilter = {}) {
    return this.send<AuditEvent[]>('GET', ['events'], { query: { ...filter } });
  }

  getEvent(id: string) {
    return this.send<AuditEvent>('GET', ['events', id]);
  }

  verify() {
    return this.send<ChainVerification>('GET', ['events', 'verify']);
  }

  createPolicy(policy: RetentionPolicyInput) {
    return this.send<RetentionPolicy>('POST', ['policies'], { body: policy });
  }

  listPolicies(filter: { service?: string; action?: PolicyAction } & Page = {}) {
    return this.send<RetentionPolicy[]>('GET', ['policies'], { query: filter });
  }

  getPolicy(idOrName: string) {
    return this.send<RetentionPolicy>('GET', ['policies', idOrName]);
  }

  deletePolicy(idOrName: string) {
    return this.send<RetentionPolicy>('DELETE', ['policies', idOrName]);
  }

  applyPolicy(idOrName: string) {
    return this.send<RetentionRun>('POST', ['policies', idOrName, 'apply']);
  }

  classify(classification: ClassificationInput) {
    return this.send<Classification>('POST', ['classifications'], { body: classification });
  }

  listClassifications(filter: { service?: string; level?: ClassificationLevel } & Page = {}) {
    return this.send<Classification[]>('GET', ['classifications'], { query: filter });
  }

  getClassification(id: string) {
    return this.send<Classification>('GET', ['classifications', id]);
  }

  deleteClassification(id: string) {
    return this.send<Classification>('DELETE', ['classifications', id]);
  }
}
