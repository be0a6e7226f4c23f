import type { AppContext } from '../../context.ts';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { startJobQueue } from '../../db/job-queue.ts';
import { checkPaymentRequest, overdueRequests } from './payment-requests.ts';

/**
 * The payment requests' checker: a request whose callback has not come within
 * PAYMENT_REQUEST_CHECK_SECONDS (two minutes) is asked of its provider by Kodi itself. Durable as the
 * daily run is (pg-boss, schema `pgboss`, the app's own database): each server's tick finds the
 * overdue requests (their state is in `payment_requests`) and queues one job per request (singleton
 * key: its id); any server's worker takes it and asks the provider; a job that failed (the provider
 * down) is retried with back-off, and a server started after downtime finds them at its first tick.
 */
export const PAYMENT_CHECK_QUEUE = 'payment-request-check';

type Job = { company_id: number; id: number };

export const startPaymentRequestChecker = async (
  ctx: AppContext,
  payments: ServerEntity,
  {
    tickSeconds,
    log = () => undefined,
  }: { tickSeconds: number; log?: (message: string, err?: unknown) => void },
): Promise<{ tick: () => Promise<number>; stop: () => Promise<void> }> => {
  const { database } = ctx;
  const boss = await startJobQueue(database, {
    name: PAYMENT_CHECK_QUEUE,
    retryDelay: 30,
    expireInSeconds: 5 * 60,
    label: 'payment requests',
    log,
  });
  await boss.work<Job>(
    PAYMENT_CHECK_QUEUE,
    { batchSize: 1, pollingIntervalSeconds: Math.max(0.5, Math.min(tickSeconds, 10)) },
    async ([job]) => {
      if (!job) return;
      await checkPaymentRequest(ctx, payments, job.data.company_id, job.data.id);
    },
  );
  let stopped = false;
  const tick = async (): Promise<number> => {
    if (stopped) return 0;
    const due = await overdueRequests(database.db, ctx.config.paymentRequestCheckSeconds);
    for (const d of due) await boss.send(PAYMENT_CHECK_QUEUE, d, { singletonKey: `${d.company_id}:${d.id}` });
    return due.length;
  };
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = tick().catch((err: unknown) => log('payment requests: tick failed', err));
  }, tickSeconds * 1000);
  timer.unref();
  return {
    tick,
    stop: async () => {
      stopped = true;
      clearInterval(timer);
      await running;
      await boss.stop({ graceful: true, wait: true, timeout: 20_000 });
    },
  };
};
