import { z } from 'zod';

/** The mobile-money providers a company can take payments through (issue 29). */
export const paymentProviderNames = ['mpesa', 'mtn_momo', 'airtel_money'] as const;
export type PaymentProviderName = (typeof paymentProviderNames)[number];

export const paymentProviderLabels: Record<PaymentProviderName, string> = {
  mpesa: 'M-Pesa',
  mtn_momo: 'MTN MoMo',
  airtel_money: 'Airtel Money',
};

/** The credentials each provider issues, with their labels: all sealed, never answered back. */
export const providerCredentialFields: Record<PaymentProviderName, Record<string, string>> = {
  mpesa: {
    shortcode: 'Business shortcode (paybill or store number)',
    till_number: 'Till number (Buy Goods only)',
    consumer_key: 'Consumer key',
    consumer_secret: 'Consumer secret',
    passkey: 'Lipa na M-Pesa passkey',
  },
  mtn_momo: {
    subscription_key: 'Collections subscription key',
    api_user: 'API user',
    api_key: 'API key',
    target_environment: 'Target environment (sandbox, mtnuganda, …)',
  },
  airtel_money: {
    client_id: 'Client id',
    client_secret: 'Client secret',
    country: 'Country (ISO code, e.g. UG)',
  },
};

/** What each callback URL is for, by provider (Kodi answers the URLs to paste in the provider's portal). */
export const providerCallbackLabels: Record<PaymentProviderName, Record<string, string>> = {
  mpesa: {
    validation: 'C2B validation URL',
    confirmation: 'C2B confirmation URL',
    stk: 'STK push callback URL',
  },
  mtn_momo: { callback: 'Request-to-pay callback URL' },
  airtel_money: { callback: 'Payments callback URL' },
};

/**
 * Words Daraja refuses in a callback URL (its C2B URL registration rejects them): Kodi's callback
 * paths never hold one.
 */
export const DARAJA_FORBIDDEN_URL_WORDS = [
  'mpesa',
  'm-pesa',
  'safaricom',
  'exe',
  'exec',
  'cmd',
  'sql',
  'query',
];

const credential = z.string().trim().max(500).nullable().optional();

/** `PUT /payment-providers/{provider}`: a credential left out is kept, null or '' clears it. */
export const paymentProviderBody = z.object({
  enabled: z.boolean(),
  credentials: z.record(z.string(), credential).default({}),
  refuse_unknown_accounts: z.boolean().optional(),
  version: z.number().int().positive().optional(),
});
export type PaymentProviderBody = z.infer<typeof paymentProviderBody>;

export const paymentProviderSchema = z.object({
  provider: z.enum(paymentProviderNames),
  enabled: z.boolean(),
  /** whether each credential is set (never its value) */
  credentials_set: z.record(z.string(), z.boolean()),
  refuse_unknown_accounts: z.boolean(),
  /** the URLs to paste in the provider's portal (null until the provider is first saved) */
  callback_urls: z.record(z.string(), z.string()).nullable(),
  /** the provider's API Kodi calls (MPESA_BASE_URL, MTN_MOMO_BASE_URL, AIRTEL_BASE_URL) */
  base_url: z.string(),
  version: z.number().int(),
});
export type PaymentProvider = z.infer<typeof paymentProviderSchema>;

export const paymentRequestStatuses = ['pending', 'completed', 'failed', 'cancelled'] as const;
export type PaymentRequestStatus = (typeof paymentRequestStatuses)[number];

/** `POST /occupancy/{id}/payment-requests` and `POST /portal/payments/request`. */
export const paymentRequestBody = z.object({
  amount: z.number().positive().max(1e11),
  phone: z.string().trim().min(6).max(20),
  provider: z.enum(paymentProviderNames),
});
export type PaymentRequestBody = z.infer<typeof paymentRequestBody>;

export const paymentRequestSchema = z.object({
  id: z.number().int(),
  occupancy_id: z.number().int(),
  provider: z.enum(paymentProviderNames),
  amount: z.string(),
  phone: z.string(),
  status: z.enum(paymentRequestStatuses),
  reason: z.string().nullable(),
  transaction_id: z.string().nullable(),
  received_amount: z.string().nullable(),
  flagged: z.boolean(),
  payment_id: z.number().int().nullable(),
  receipt_number: z.string().nullable(),
  receipt_url: z.string().nullable(),
  created_at: z.string(),
});
export type PaymentRequest = z.infer<typeof paymentRequestSchema>;

/** The network of a phone number by its prefix (docs/decisions.md, issue 29): the provider to prompt. */
export const providerOfPhone = (e164: string): PaymentProviderName | null => {
  const n = e164.replace(/[^\d]/g, '');
  // Kenya: Safaricom 0700-0729, 0740-0743, 0745, 0746, 0748, 0757-0759, 0768, 0769, 0790-0799, 0110-0115; Airtel 0730-0739, 0750-0756, 0762, 0780-0789, 0100-0102
  if (n.startsWith('254')) {
    const local = n.slice(3);
    if (/^(7[01]\d|74[0-35-68]|75[7-9]|76[89]|79\d|11[0-5])/.test(local)) return 'mpesa';
    if (/^(73\d|75[0-6]|762|78\d|10[0-2])/.test(local)) return 'airtel_money';
    return null;
  }
  // Uganda: MTN 076, 077, 078, 039; Airtel 070, 074, 075, 020
  if (n.startsWith('256')) {
    const local = n.slice(3);
    if (/^(7[678]|39)/.test(local)) return 'mtn_momo';
    if (/^(7[045]|20)/.test(local)) return 'airtel_money';
    return null;
  }
  // Rwanda: MTN 078, 079; Airtel 072, 073
  if (n.startsWith('250')) {
    const local = n.slice(3);
    if (/^7[89]/.test(local)) return 'mtn_momo';
    if (/^7[23]/.test(local)) return 'airtel_money';
    return null;
  }
  // Tanzania: Airtel 068, 069, 078
  if (n.startsWith('255')) return /^(6[89]|78)/.test(n.slice(3)) ? 'airtel_money' : null;
  return null;
};
