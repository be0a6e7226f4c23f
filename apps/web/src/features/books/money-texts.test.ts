import { describe, expect, it } from 'vitest';
import {
  chargeCategory,
  expenseCategory,
  payoutMethod,
  paymentMethod,
  paymentStatus,
  reportItemKeys,
  reportLineLabel,
} from '@kodi/domain';
import { catalogues } from '@kodi/domain/i18n';
import { accountTypeLabels, accountTypes, journalSources, roleLabel, sourceLabel } from './books-rules.ts';

const en = catalogues.en;

/**
 * The money pages' derived keys (issue 30: `books.type.<type>`, `reports.item.<key>`, ...): English
 * shows the catalogue's words once the group is in, so they must be the code's own, byte for byte.
 */
describe('the money pages’ derived keys say the code’s English', () => {
  it('books: types, default accounts, sources', () => {
    for (const type of accountTypes) expect(en[`books.type.${type}`]).toBe(accountTypeLabels[type]);
    const roles = Object.keys(en)
      .filter((k) => k.startsWith('books.role.'))
      .map((k) => k.slice('books.role.'.length));
    for (const role of roles) expect(en[`books.role.${role}`]).toBe(roleLabel(role));
    for (const c of chargeCategory.values)
      expect(en[`books.chargeCategory.${c}`]).toBe(chargeCategory.labels[c]);
    for (const c of expenseCategory.values)
      expect(en[`books.expenseCategory.${c}`]).toBe(expenseCategory.labels[c]);
    expect(en['books.roleCharges']?.replace('{category}', 'Utility')).toBe(
      roleLabel('charge_income:utility'),
    );
    expect(en['books.roleExpenses']?.replace('{category}', 'Plumbing')).toBe(roleLabel('expense:plumbing'));
    for (const s of journalSources) expect(en[`books.source.${s}`]).toBe(sourceLabel(s));
  });

  it('reports: every item of a line', () => {
    for (const item of reportItemKeys()) expect(en[`reports.item.${item}`]).toBe(reportLineLabel(item));
  });

  it('payouts, leases and the receipt: methods, categories, statuses', () => {
    for (const m of payoutMethod.values) expect(en[`payouts.method.${m}`]).toBe(payoutMethod.labels[m]);
    for (const m of paymentMethod.values) {
      expect(en[`receiptPrint.method.${m}`]).toBe(paymentMethod.labels[m]);
    }
    for (const c of chargeCategory.values)
      expect(en[`lease.chargeCategory.${c}`]).toBe(chargeCategory.labels[c]);
    for (const s of paymentStatus.values)
      expect(en[`receiptPrint.status.${s}`]).toBe(paymentStatus.labels[s]);
  });
});
