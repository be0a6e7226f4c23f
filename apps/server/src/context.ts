import type { SecretBox } from './platform/secrets.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import type { Sessions } from './plugins/session.ts';

/** What every feature's routes receive (built once by app.ts). */
export type AppContext = {
  config: Config;
  database: Database;
  sessions: Sessions;
  /** seals and opens the secrets kept in the database (lib/secrets.ts) */
  secrets: SecretBox;
};
