import { z } from 'zod';
import { formatDate } from './dates.ts';

/**
 * Receipts anyone can verify (issue 18): every receipt carries a QR code of `{PUBLIC_URL}/r/{code}`,
 * the payment's `receipt_code` (64 hex digits, random, given by the database). `/r/{code}` is a
 * public page, backed by `GET /public/receipts/{code}`, that shows what the receipt says and whether
 * it still holds.
 */

/** The path of a receipt's public page. */
export const receiptPath = (code: string) => `/r/${encodeURIComponent(code)}`;

/** A receipt's public address: `{PUBLIC_URL}/r/{code}` (the base without its trailing slash). */
export const receiptUrl = (publicUrl: string, code: string) =>
  `${publicUrl.replace(/\/+$/, '')}${receiptPath(code)}`;

/**
 * What the public page says of a receipt: its payment's status (`void` once it was voided), or
 * `revoked` once it was deleted.
 */
export const publicReceiptStatus = ['completed', 'pending', 'failed', 'void', 'revoked'] as const;
export type PublicReceiptStatus = (typeof publicReceiptStatus)[number];

export const RECEIPT_REVOKED_MESSAGE = 'This receipt is no longer valid.';

export const publicReceiptMessages: Record<PublicReceiptStatus, string> = {
  completed: 'This receipt is valid: the payment was received.',
  pending: 'This payment is pending: it has not been confirmed yet.',
  failed: 'This payment failed: it was not received.',
  void: 'This receipt was voided.',
  revoked: RECEIPT_REVOKED_MESSAGE,
};

/** A voided receipt's message: 'This receipt was voided on Nov 22, 2026.' (the company's day it was voided). */
export const receiptVoidedMessage = (day: string | null) =>
  day ? `This receipt was voided on ${formatDate(day)}.` : publicReceiptMessages.void;

/** The page's heading of each status. */
export const publicReceiptTitles: Record<PublicReceiptStatus, string> = {
  completed: 'Receipt verified',
  pending: 'Payment pending',
  failed: 'Payment failed',
  void: 'Receipt voided',
  revoked: 'Receipt not valid',
};

/** 'Grace Namuli' → 'G. N.': all the public page shows of a tenant. */
export const initialsOf = (...names: (string | null | undefined)[]): string =>
  names
    .map((n) => Array.from((n ?? '').trim())[0])
    .filter((c): c is string => !!c)
    .map((c) => `${c.toLocaleUpperCase('en-US')}.`)
    .join(' ');

/**
 * `GET /public/receipts/{code}`: no ids, no tenant's name (initials only). A deleted payment's code
 * answers its company and receipt number with status `revoked` and the rest null.
 */
export const publicReceiptSchema = z.object({
  status: z
    .enum(publicReceiptStatus)
    .describe(
      'The payment’s status (void once voided: its amount is not confirmed), or revoked once it was deleted',
    ),
  title: z.string().describe('The page’s heading'),
  message: z.string().describe('What the status means, in a sentence'),
  company: z.object({
    name: z.string(),
    logo_url: z.string().nullable().describe('The company’s logo for this receipt (no session needed)'),
  }),
  receipt_number: z.string().nullable(),
  date: z.iso.date().nullable().describe('The payment date'),
  amount: z.number().nullable().describe('What was paid; null once voided or deleted'),
  voided_on: z.iso
    .date()
    .nullable()
    .describe('The day the payment was voided (the company’s day), else null'),
  currency: z.string().nullable().describe('ISO 4217 code of the company’s currency'),
  currency_decimals: z.int32().nullable().describe('Digits after the decimal point of that currency'),
  unit_name: z.string().nullable(),
  tenant_initials: z.string().nullable().describe('The tenant’s initials only: "G. N."'),
});
export type PublicReceipt = z.infer<typeof publicReceiptSchema>;

/** `GET /payments/{id}/receipt-link`: what staff print and share of one payment's receipt. */
export const receiptLinkSchema = z.object({
  receipt_code: z.string().describe('The unguessable code of the receipt’s public page'),
  receipt_url: z.string().describe('{PUBLIC_URL}/r/{code}: what the QR code holds'),
  qr: z
    .object({
      size: z.int32().positive().describe('Modules per side (the quiet zone not included)'),
      path: z.string().describe('An SVG path of the dark modules, one unit per module'),
    })
    .describe('The QR code of receipt_url'),
});
export type ReceiptLink = z.infer<typeof receiptLinkSchema>;
