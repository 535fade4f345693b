import type { CommunicationDb } from '../../database.js';
import { markDelivery, suppress } from '../../repositories/suppressions.js';

/** A provider's word on a delivery: from the signed webhook, or read from a DSN. */
export interface ProviderReport {
  type: 'bounce' | 'complaint' | 'delivered';
  address: string;
  /** A permanent bounce (5.x.x): the address is suppressed. */
  hard?: boolean;
  /** Why, as the provider said it (a DSN's status and diagnostic), for the delivery's error. */
  detail?: string;
}

/**
 * Records a report: a bounce marks the delivery `bounced`, a complaint `complained`; a hard
 * bounce or a complaint suppresses the address. Answers whether it suppressed it.
 */
export async function recordReport(
  db: CommunicationDb,
  deliveryId: string | null,
  report: ProviderReport,
): Promise<boolean> {
  const suppressing =
    report.type === 'complaint' || (report.type === 'bounce' && report.hard === true);
  if (deliveryId && report.type !== 'delivered') {
    const what = report.type === 'bounce' ? `${report.hard ? 'Hard' : 'Soft'} bounce` : 'Complaint';
    const detail = report.detail ? `: ${report.detail}` : '';
    await markDelivery(
      db,
      deliveryId,
      report.type === 'bounce' ? 'bounced' : 'complained',
      `${what} from ${report.address}${detail}`.slice(0, 1000),
    );
  }
  if (suppressing)
    await suppress(db, {
      address: report.address,
      reason: report.type === 'complaint' ? 'complaint' : 'hard bounce',
      delivery_id: deliveryId,
    });
  return suppressing;
}
