import { loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { bootstrap } from './modules/first-run.ts';
import { buildApp } from './app.ts';
import { StartRefusedError } from './db/sealed-secrets.ts';
import { postBooksHistory } from './modules/books/history.ts';

const config = loadConfig();
const database = await openDatabase(config);
const { createdAdmin } = await bootstrap(database, config);
// the books of the companies that had records before them (the upgrade, issue 25): posted once
await postBooksHistory(database);
// the modules' workers (the daily run's scheduler, the messages' sender) run in the app's life cycle:
// started when it is ready, stopped when it closes
const app = await buildApp(config, database, { workers: true }).catch(async (err: unknown) => {
  // what an operator must fix (stored secrets sealed with a key the server does not hold): the message alone
  if (!(err instanceof StartRefusedError)) throw err;
  console.error(`Kodi did not start.\n${err.message}`);
  await database.close();
  process.exit(1);
});

const shutdown = async () => {
  await app.close();
  await database.close();
  process.exit(0);
};
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());

await app.listen({ port: config.port, host: config.host });
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
