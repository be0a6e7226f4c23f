import os from 'node:os';
import type { Database } from '../db/client.ts';

export type Machine = {
  cpu: string;
  cores: number;
  memoryGb: number;
  postgres: string;
  node: string;
  date: string;
  /** the 1-minute load average when the run started: other work on the machine skews the figures. */
  loadAverage: number;
};

export const describeMachine = async (database: Database | undefined): Promise<Machine> => {
  const version = database
    ? ((await database.query<{ v: string }>(`SELECT current_setting('server_version') AS v`))[0]?.v ??
      'unknown')
    : 'not used';
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.cpus().length,
    memoryGb: Math.round(os.totalmem() / 1024 ** 3),
    postgres: `PostgreSQL ${version}`,
    node: process.version,
    date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
    loadAverage: Math.round((os.loadavg()[0] ?? 0) * 100) / 100,
  };
};
