import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { bootstrap } from './db/bootstrap.ts';
import { buildApp } from './app.ts';
import { StartRefusedError } from './lib/secrets.ts';
import { startRentCycleScheduler, type RentCycleScheduler } from './features/rent-cycle/scheduler.ts';
import { createMessageSender, type MessageSender } from './features/messages/sender.ts';

const config = loadConfig();
const database = await openDatabase(config);
const { createdAdmin } = await bootstrap(database, config);
const app = await buildApp(config, database).catch(async (err: unknown) => {
  // what an operator must fix (stored secrets sealed with a key the server does not hold): the message alone
  if (!(err instanceof StartRefusedError)) throw err;
  console.error(`Kodi did not start.\n${err.message}`);
  await database.close();
  process.exit(1);
});

let scheduler: RentCycleScheduler | undefined;
let sender: MessageSender | undefined;

const shutdown = async () => {
  await scheduler?.stop().catch(() => undefined);
  await sender?.stop().catch(() => undefined);
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());

await app.listen({ port: config.port, host: config.host });
// the daily run of every company, at its hour in its time zone (RENT_CYCLE_SCHEDULER=0: off)
if (config.rentCycleScheduler) {
  scheduler = await startRentCycleScheduler(database, {
    tickSeconds: config.rentCycleTickSeconds,
    log: (message, err) => app.log.error({ err }, message),
  });
}
// the messages' sender: receipts queued, the outbox sent (MESSAGES_SENDER=0: off)
if (config.messagesSender) {
  sender = createMessageSender(database, config, {
    intervalMs: config.messagesIntervalMs,
    retryBaseSeconds: config.messageRetrySeconds,
    log: (message, err) => app.log.error({ err }, message),
  });
}
const where = `http://localhost:${config.port}`;
if (createdAdmin) {
  const line = '='.repeat(64);
  console.log(
    [
      line,
      ' Kodi is ready: ' + where,
      ` First administrator: ${createdAdmin.email}`,
      createdAdmin.generated
        ? ` Password (shown once, change it after signing in): ${createdAdmin.password}`
        : ' Password: the one in ADMIN_PASSWORD',
      line,
    ].join('\n'),
  );
} else {
  console.log(`Kodi is ready: ${where} (${database.driver === 'pg' ? 'PostgreSQL' : 'embedded database'})`);
}
