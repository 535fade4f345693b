import type { ReactNode } from 'react';
import { useCan, useMe, whoMay, type Owned, type OperationRef } from './access';
import { Empty, Loading } from './feedback';
import { PageHeader } from './shell';

/**
 * Its children when the person may call the operation (on `record`), else a sentence saying who
 * may (`Only admins may start a sync.`): a page or form that could only answer 403 is not shown.
 */
export function Allowed({
  requires,
  record,
  what,
  title,
  children,
}: {
  requires: OperationRef;
  record?: Owned;
  /** What the children do, after "may": `start a sync`. */
  what: string;
  /** The page's title, shown with the sentence when the children are a whole page. */
  title?: string;
  children: ReactNode;
}) {
  const me = useMe();
  const can = useCan() as (service: string, operation: string, record?: Owned) => boolean;
  if (me.isPending) return <Loading />;
  if (can(requires[0], requires[1], record)) return <>{children}</>;
  const why = <Empty>{`Only ${whoMay(...(requires as [never, never]))} may ${what}.`}</Empty>;
  return title ? (
    <>
      <PageHeader title={title} />
      {why}
    </>
  ) : (
    why
  );
}
