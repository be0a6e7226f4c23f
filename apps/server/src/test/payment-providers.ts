import { entityList } from '@kodi/domain';
import type { TestContext } from './harness.ts';
import { serverEntities } from '../modules.ts';
import { createSessions } from '../plugins/session.ts';
import { createSecretBox, loadSecretKeys } from '../platform/secrets.ts';
import type { AppContext } from '../context.ts';

/** What the payment providers' tests share (issue 29): a payment request as the API answers it. */
export type PaymentRequestAnswer = {
  id: number;
  status: string;
  reason: string | null;
  payment_id: number | null;
  receipt_number: string | null;
  transaction_id: string | null;
  flagged: boolean;
  received_amount: string | null;
};

/** What the app's routes receive, for calling the checker as its worker does. */
export const providerTestContext = async (t: TestContext): Promise<AppContext> => ({
  config: t.config,
  database: t.database,
  sessions: createSessions(t.database, t.config),
  secrets: createSecretBox(await loadSecretKeys(t.config)),
});

/** The payments' server part, as the wiring gives it to the module's worker. */
export const paymentsServerPart = () => serverEntities(entityList).find((e) => e.def.name === 'payments')!;
