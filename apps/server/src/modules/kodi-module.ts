import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import type { ServerEntity } from '../crud/server-entity.ts';

/** What a module's routes receive besides the API's scope and the context: every entity served. */
export type Served = {
  /** each entity of the list (and a test's extra ones) with its server parts, or plain */
  entities: readonly ServerEntity[];
};

/** A worker running beside the requests (the daily run's scheduler, the messages' sender). */
export type KodiWorker = {
  name: string;
  /** whether this server runs it (its switch in the configuration) */
  enabled: (ctx: AppContext) => boolean;
  /** started when the app is ready (Fastify's onReady), stopped when it closes (onClose) */
  start: (
    ctx: AppContext,
    log: (message: string, err?: unknown) => void,
    served: Served,
  ) => Promise<RunningWorker>;
};

export type RunningWorker = { stop: () => Promise<void> };

/**
 * One part of the server: a feature (`features/<name>/module.ts`) or a shared module
 * (`modules/<name>/module.ts`). The composition root (`src/modules.ts`) lists them once; app.ts
 * registers their routes and workers and builds the entities' registry from their `entities`.
 */
export type KodiModule = {
  name: string;
  /**
   * The tables only this module's code inserts into or updates (`writers.test.ts` scans the
   * sources); each table has one owner.
   */
  owns?: readonly string[];
  /** how an error names an owned table that is no entity's ('still used by history entries') */
  tableLabels?: Readonly<Record<string, string>>;
  /** the server parts of the entities that have some of their own (the others are served plain) */
  entities?: readonly ServerEntity[];
  /** registers its routes in the API's scope (`/rentapi/api`) */
  routes?: (api: FastifyInstance, ctx: AppContext, served: Served) => void | Promise<void>;
  workers?: readonly KodiWorker[];
};
