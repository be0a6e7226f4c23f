import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorCodes } from '@kodi/domain';
import { setupApp, testDriver, type TestContext } from '../test/harness.ts';
import type { TestClient } from '../test/client.ts';
import { buildUser } from '../test/factories.ts';
import {
  ENTITY_NAMES,
  buildWorld,
  created,
  editOf,
  nextN,
  signIn,
  validBody,
  type Body,
  type CompanyWorld,
} from './world.ts';

/** Races per entity: two saves of the same version sent at once, this many times. */
const ROUNDS = 5;

describe(
  `no lost update: two saves of one version, for every entity (${testDriver})`,
  { timeout: 120_000 },
  () => {
    let t: TestContext;
    let A: CompanyWorld;
    let second: TestClient;

    beforeAll(async () => {
      t = await setupApp();
      A = await buildWorld(t, 'Alpha');
      second = await signIn(t, await buildUser(t.database, { company_id: A.id, roles: ['admin'] }));
    }, 120_000);
    afterAll(async () => {
      await t?.app.close();
    });

    it('answers exactly one 200 and one 409 conflict, and keeps the winner', async () => {
      let races = 0;
      for (const entity of ENTITY_NAMES) {
        const id = Number(
          (await created(A.clients.admin, `/${entity}`, validBody(entity, A.refs, A.marker))).id,
        );
        for (let round = 0; round < ROUNDS; round++) {
          const read = (await A.clients.admin.get(`/${entity}/${id}`)).json() as Body;
          const bodies = [
            { ...read, ...editOf(entity, nextN()) },
            { ...read, ...editOf(entity, nextN()) },
          ];
          const [one, two] = await Promise.all([
            A.clients.admin.put(`/${entity}/${id}`, bodies[0]),
            second.put(`/${entity}/${id}`, bodies[1]),
          ]);
          races++;
          const answers = [one, two];
          const statuses = answers.map((r) => r?.statusCode).sort();
          expect(statuses, `${entity} round ${round}: ${one?.body} ${two?.body}`).toEqual([200, 409]);
          const winner = answers.find((r) => r?.statusCode === 200);
          const loser = answers.find((r) => r?.statusCode === 409);
          expect(loser?.json()).toEqual({ error: errorCodes.conflict.message, code: 'conflict' });
          expect(loser?.json().error).toBe(
            'This record was changed by someone else. Reload to see the latest version.',
          );
          const stored = (await A.clients.admin.get(`/${entity}/${id}`)).json() as Body;
          // what a save answers beyond the record (a lease's back rent) is not stored
          const { back_rent: backRent, ...answered } = winner?.json() as Body;
          expect(backRent === undefined, entity).toBe(entity !== 'occupancy');
          expect(stored, entity).toEqual(answered);
          expect(stored.version).toBe(Number(read.version) + 1);
          const winnerBody = bodies[answers.indexOf(winner as (typeof answers)[number])] ?? {};
          for (const [field, value] of Object.entries(editOf(entity, 0))) {
            expect(typeof stored[field]).toBe(typeof value);
            expect(stored[field]).toEqual(winnerBody[field]);
          }
        }
        const audit = await t.database.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM audit_entries WHERE entity = $1 AND record_id = $2 AND action = 'update'`,
          [entity, id],
        );
        expect(Number(audit[0]?.n), `${entity}: one history entry per won race`).toBe(ROUNDS);
      }
      console.info(`[reliability] lost update (${testDriver}): ${races} races, ${races} conflicts refused`);
      expect(races).toBe(ENTITY_NAMES.length * ROUNDS);
    });
  },
);
