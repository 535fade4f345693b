import { PagedQuery, Type } from '@platform/core';

/** Free text describing a service or a system. */
export const Description = Type.String({ maxLength: 2000 });

/** `limit` and `offset` alone (the shared, bounded paging): the lists of systems and owners. */
export const PageQuerySchema = PagedQuery({});
