import type { KodiModule } from '../../modules/kodi-module.ts';
import { rentCycleRoutes } from './routes.ts';
import { startRentCycleScheduler } from './scheduler.ts';

/** The daily run: its route and its pg-boss scheduler. */
export const rentCycleModule: KodiModule = {
  name: 'rent-cycle',
  owns: ['rent_cycle_runs'],
  routes: (api, ctx) => rentCycleRoutes(api, ctx),
  workers: [
    {
      // the daily run of every company, at its hour in its time zone (RENT_CYCLE_SCHEDULER=0: off)
      name: 'rent-cycle scheduler',
      enabled: ({ config }) => config.rentCycleScheduler,
      start: ({ database, config }, log) =>
        startRentCycleScheduler(database, {
          tickSeconds: config.rentCycleTickSeconds,
          log,
          publicUrl: config.publicUrl,
        }),
    },
  ],
};
