import type { KodiModule } from '../kodi-module.ts';

/** The history: audit entries of records' changes, sign-ins and other events. */
export const auditModule: KodiModule = {
  name: 'audit',
  owns: ['audit_entries'],
  tableLabels: { audit_entries: 'history entries' },
};
