import type { KodiModule } from '../../modules/kodi-module.ts';
import { collectionsRoutes } from './routes.ts';

/** Statements uploaded, money received matched to leases, the signed payment webhook. */
export const collectionsModule: KodiModule = {
  name: 'collections',
  owns: ['statements', 'statement_lines', 'statement_line_payments', 'match_memory'],
  tableLabels: { match_memory: 'matching memory' },
  // its own scope (multipart bodies); payments are made through the payments' server part
  routes: async (api, ctx, served) => {
    const payments = served.entities.find((e) => e.def.name === 'payments');
    if (payments) await api.register(async (scope) => collectionsRoutes(scope, ctx, payments));
  },
};
