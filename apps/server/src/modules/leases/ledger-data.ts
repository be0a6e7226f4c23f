import { buildLedger, type Ledger } from '@kodi/domain';
import type { Database } from '../../db/client.ts';
import { loadLeaseBook, type BookLease } from './lease-book.ts';

/** A lease as the ledger and the statement need it: money as exact NUMERIC text, dates as YYYY-MM-DD. */
export type LeaseForLedger = BookLease;

/**
 * The lease and its ledger on `asOf`: rent at the rate in force on each period's first day, late
 * fees, charges and their waivers, payments, the deposit and its settlement.
 */
export const leaseLedger = async (
  database: Database,
  companyId: number,
  id: number,
  asOf: string,
): Promise<{ lease: LeaseForLedger; ledger: Ledger }> => {
  const book = await loadLeaseBook(database, companyId, id, asOf);
  return { lease: book.lease, ledger: buildLedger(book.lease, book.payments, asOf, book.extras) };
};
