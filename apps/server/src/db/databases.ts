/** One statement on the server of `baseUrl`, on a connection of its own (CREATE/DROP DATABASE). */
const onServer = async (baseUrl: string, statements: readonly string[]): Promise<void> => {
  const { default: pg } = await import('pg');
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    for (const s of statements) await admin.query(s);
  } finally {
    await admin.end();
  }
};

/** The URL of database `name` on the server of `baseUrl`. */
export const databaseUrl = (baseUrl: string, name: string): string => {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
};

/** A fresh, empty PostgreSQL database `name` on the server of `baseUrl`; answers its URL. */
export const freshPostgresDatabase = async (baseUrl: string, name: string): Promise<string> => {
  await onServer(baseUrl, [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `CREATE DATABASE ${name}`]);
  return databaseUrl(baseUrl, name);
};

export const dropPostgresDatabase = (baseUrl: string, name: string): Promise<void> =>
  onServer(baseUrl, [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`]);
