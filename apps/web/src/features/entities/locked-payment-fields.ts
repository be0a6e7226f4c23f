import { RECEIPT_FIELDS } from '@kodi/domain';
import type { RecordOf } from '../../lib/resources.ts';

export const RECEIPT_LOCKED_NOTE =
  'This payment has a receipt: its amount, date, tenant, unit, method and status cannot change. Void it and record a new one.';

type Payment = RecordOf<'payments'>;

/** A completed payment's form: its receipt fields are shown, not changed (issue 25). */
export const lockedPaymentFields = (p: Payment) =>
  p.status === 'completed' || p.status === 'void'
    ? { names: [...RECEIPT_FIELDS], note: RECEIPT_LOCKED_NOTE }
    : undefined;
