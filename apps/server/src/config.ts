import path from 'node:path';
import { parseTrustProxy, type TrustProxy } from './platform/trust-proxy.ts';

/** Every setting comes from the environment once, here; the README lists them. */
export type Config = {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  nodeEnv: string;
  cookieSecure: boolean;
  captchaTestAnswer: string | undefined;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  demoData: boolean;
  sessionIdleMinutes: number;
  /** the reverse proxies believed (lib/trust-proxy.ts): none, a number in front, or their addresses */
  trustProxy: TrustProxy;
  supportEmail: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** PUBLIC_URL, or `http://localhost:$PORT` when it is unset (`publicUrlSet` false). */
  publicUrl: string;
  /**
   * Whether PUBLIC_URL is set. When it is not, links made while answering a request (a receipt's QR
   * code) use the request's own origin (lib/public-url.ts); links made without one use `publicUrl`.
   */
  publicUrlSet: boolean;
  /** Google sign-in: off while the client id is unset. */
  googleClientId: string | undefined;
  googleClientSecret: string | undefined;
  googleIssuer: string;
  logLevel: string;
  /** 0 disables the per-address rate limits (never in production). */
  rateLimits: boolean;
  /** The daily run's scheduler (features/rent-cycle): on unless RENT_CYCLE_SCHEDULER=0; how often it looks for companies due. */
  rentCycleScheduler: boolean;
  rentCycleTickSeconds: number;
  /** SMS through a provider: `africastalking+https://USER:KEY@host` or `twilio+https://SID:TOKEN@host` (lib/sms.ts). */
  smsUrl: string | undefined;
  /** The messages' sender (features/messages): on unless MESSAGES_SENDER=0; how often it looks for work. */
  messagesSender: boolean;
  messagesIntervalMs: number;
  /** the first retry's delay of a message (then doubling) */
  messageRetrySeconds: number;
  /** the key sealing stored secrets (lib/secrets.ts): 64 hex digits; required in production on PostgreSQL */
  secretKey: string | undefined;
  /** keys of before a rotation, still opening what they sealed */
  oldSecretKeys: string[];
  /** the mobile-money providers' APIs (features/payment-providers): their sandboxes unless set */
  mpesaBaseUrl: string;
  mtnMomoBaseUrl: string;
  airtelBaseUrl: string;
  /** the WhatsApp Business Cloud API (issue 29): Meta's Graph API unless set, and its version */
  whatsappBaseUrl: string;
  whatsappApiVersion: string;
  /** how long a payment request waits for its callback before Kodi asks the provider (seconds) */
  paymentRequestCheckSeconds: number;
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const databaseUrl = env.DATABASE_URL || undefined;
  const nodeEnv = env.NODE_ENV ?? 'development';
  const config: Config = {
    port: Number(env.PORT ?? 3000),
    host: env.HOST ?? '0.0.0.0',
    databaseUrl,
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    nodeEnv,
    cookieSecure: env.COOKIE_SECURE === '1',
    captchaTestAnswer: env.CAPTCHA_TEST_ANSWER || undefined,
    adminEmail: env.ADMIN_EMAIL || undefined,
    adminPassword: env.ADMIN_PASSWORD || undefined,
    // Embedded database: demo data unless DEMO_DATA=0. PostgreSQL: only with DEMO_DATA=1.
    demoData: databaseUrl ? env.DEMO_DATA === '1' : env.DEMO_DATA !== '0',
    sessionIdleMinutes: Number(env.SESSION_IDLE_MINUTES ?? 120),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    supportEmail: env.SUPPORT_EMAIL ?? 'support@kodi.local',
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Kodi <no-reply@kodi.local>',
    publicUrl: (env.PUBLIC_URL || `http://localhost:${env.PORT ?? 3000}`).replace(/\/$/, ''),
    publicUrlSet: !!env.PUBLIC_URL,
    googleClientId: env.GOOGLE_CLIENT_ID || undefined,
    googleClientSecret: env.GOOGLE_CLIENT_SECRET || undefined,
    googleIssuer: env.GOOGLE_ISSUER || 'https://accounts.google.com',
    logLevel: env.LOG_LEVEL ?? (nodeEnv === 'test' ? 'silent' : 'info'),
    rateLimits: env.RATE_LIMITS !== '0',
    rentCycleScheduler: env.RENT_CYCLE_SCHEDULER !== '0',
    rentCycleTickSeconds: Math.max(1, Number(env.RENT_CYCLE_TICK_SECONDS ?? 300) || 300),
    smsUrl: env.SMS_URL || undefined,
    messagesSender: env.MESSAGES_SENDER !== '0',
    messagesIntervalMs: Math.max(100, Number(env.MESSAGES_INTERVAL_MS ?? 5000) || 5000),
    messageRetrySeconds: Math.max(0, Number(env.MESSAGE_RETRY_SECONDS ?? 30) || 0),
    secretKey: env.SECRET_KEY || undefined,
    oldSecretKeys: (env.OLD_SECRET_KEYS ?? '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
    mpesaBaseUrl: (env.MPESA_BASE_URL || 'https://sandbox.safaricom.co.ke').replace(/\/$/, ''),
    mtnMomoBaseUrl: (env.MTN_MOMO_BASE_URL || 'https://sandbox.momodeveloper.mtn.com').replace(/\/$/, ''),
    airtelBaseUrl: (env.AIRTEL_BASE_URL || 'https://openapiuat.airtel.africa').replace(/\/$/, ''),
    whatsappBaseUrl: (env.WHATSAPP_BASE_URL || 'https://graph.facebook.com').replace(/\/$/, ''),
    whatsappApiVersion: env.WHATSAPP_API_VERSION || 'v21.0',
    paymentRequestCheckSeconds: Math.max(1, Number(env.PAYMENT_REQUEST_CHECK_SECONDS ?? 120) || 120),
  };
  if (config.captchaTestAnswer && nodeEnv === 'production') {
    throw new Error('CAPTCHA_TEST_ANSWER must not be set when NODE_ENV=production.');
  }
  if (!config.secretKey && databaseUrl && nodeEnv === 'production') {
    throw new Error(
      'SECRET_KEY is required when NODE_ENV=production with DATABASE_URL (64 hex digits: openssl rand -hex 32).',
    );
  }
  if (!config.rateLimits && nodeEnv === 'production') {
    throw new Error('RATE_LIMITS=0 must not be set when NODE_ENV=production.');
  }
  return config;
};
