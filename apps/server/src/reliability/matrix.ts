import ExcelJS from 'exceljs';
import { allows, type Access, type EntityDefinition } from '@kodi/domain';
import type { TestClient } from '../test/client.ts';
import {
  ROLES,
  created,
  editOf,
  errorShapeProblem,
  nextN,
  recordId,
  validBody,
  type Body,
  type CompanyWorld,
} from './world.ts';

export type Verb = 'list' | 'get' | 'create' | 'update' | 'delete' | 'export';
type Side = 'own' | 'other';
export const VERBS: Verb[] = ['list', 'get', 'create', 'update', 'delete', 'export'];
const SIDES: Side[] = ['own', 'other'];

const accessOf = (def: EntityDefinition, verb: Verb): Access => {
  const a = def.access;
  return verb === 'list' || verb === 'get' || verb === 'export' ? a.read : a[verb];
};

const hasReferences = (def: EntityDefinition) =>
  def.scope === 'company' && def.fields.some((f) => f.kind === 'reference');

export const filterOf = (companyId: number) =>
  encodeURIComponent(JSON.stringify({ field: 'company_id', value: companyId }));

export const xlsxRows = async (payload: Buffer): Promise<string[][]> => {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(payload as unknown as ArrayBuffer);
  const rows: string[][] = [];
  wb.worksheets[0]?.eachRow((row) => {
    const values = Array.isArray(row.values) ? row.values.slice(1) : [];
    rows.push(values.map((v) => (v === null || v === undefined ? '' : String(v))));
  });
  return rows;
};

/**
 * Every entity of `defs` × verb × role × company, as A's users: each answer is the one its definition's
 * access rules say, and never shows B (a record of B is a 404, its marker never appears). Answers the
 * problems found and the number of cells checked.
 */
export const isolationMatrix = async (
  A: CompanyWorld,
  B: CompanyWorld,
  defs: readonly EntityDefinition[],
): Promise<{ problems: string[]; cells: number }> => {
  const problems: string[] = [];
  let cells = 0;
  const ownerOf = (side: Side) => (side === 'own' ? A : B);
  /** What the owner's admin reads of a record (404 once it is gone). */
  const ownerRead = (side: Side, entity: string, id: number) =>
    ownerOf(side).clients.admin.get(`/${entity}/${id}`);
  const fresh = async (side: Side, def: EntityDefinition) => {
    const owner = ownerOf(side);
    return Number(
      (await created(owner.clients.admin, `/${def.name}`, validBody(def, owner.refs, owner.marker))).id,
    );
  };

  for (const def of defs) {
    const entity = def.name;
    const scoped = def.scope === 'company';
    for (const role of ROLES) {
      const me: TestClient = A.clients[role];
      for (const side of SIDES) {
        for (const verb of VERBS) {
          cells++;
          const cell = `${entity} ${verb} ${role} ${side}`;
          const fail = (detail: string) => problems.push(`${cell}: ${detail}`);
          const allowed = allows(accessOf(def, verb), { roles: [role] });
          const visible = side === 'own' || (!scoped && (entity !== 'companies' || role === 'admin'));
          const expectStatus = (status: number, expected: number, body: string) => {
            if (status !== expected) fail(`status ${status}, expected ${expected}: ${body.slice(0, 200)}`);
            return status === expected;
          };
          const leaks = (text: string) => scoped && text.includes(B.marker);

          if (verb === 'list') {
            const url = `/${entity}?page_size=500${side === 'other' ? `&filter=${filterOf(B.id)}` : ''}`;
            const res = await me.get(url);
            if (!expectStatus(res.statusCode, allowed ? 200 : 403, res.body) || !allowed) continue;
            const rows = res.json() as Body[];
            const ids = rows.map((r) => Number(r.id));
            if (leaks(res.body)) fail('the list shows the other company');
            if (scoped) {
              if (rows.some((r) => r.company_id !== A.id)) fail('a row of another company');
              if (ids.includes(recordId(B, entity))) fail("the other company's record is listed");
              if (side === 'own' && !ids.includes(recordId(A, entity))) fail('its own record is missing');
              if (side === 'other' && (rows.length !== 0 || res.headers['x-total-count'] !== '0'))
                fail(`the company_id filter widened the scope: ${rows.length} rows`);
            } else if (entity === 'companies') {
              const expected = role === 'admin' ? [A.id, B.id] : [A.id];
              if (role !== 'admin' && ids.length !== 1) fail(`a non-admin sees ${ids.length} companies`);
              for (const id of expected) if (!ids.includes(id)) fail(`company ${id} is missing`);
            } else {
              for (const id of [recordId(A, entity), recordId(B, entity)])
                if (!ids.includes(id)) fail(`global record ${id} is missing`);
            }
          } else if (verb === 'get') {
            const id = recordId(ownerOf(side), entity);
            const res = await me.get(`/${entity}/${id}`);
            const expected = !allowed ? 403 : visible ? 200 : 404;
            if (!expectStatus(res.statusCode, expected, res.body)) continue;
            if (expected === 200 && scoped && res.json().company_id !== A.id) fail('wrong company_id');
            if (expected !== 200 && errorShapeProblem(res)) fail(`error shape: ${errorShapeProblem(res)}`);
            if (expected !== 200 && res.body.includes(B.marker)) fail('the error shows the other company');
          } else if (verb === 'create') {
            // "other": the body names the other company and, where it has references, the other company's records.
            const refs = side === 'other' && hasReferences(def) ? B.refs : A.refs;
            const body = {
              ...validBody(def, refs, A.marker),
              ...(side === 'other' ? { company_id: B.id } : {}),
            };
            const res = await me.post(`/${entity}`, body);
            const expected = !allowed ? 403 : side === 'other' && hasReferences(def) ? 400 : 201;
            if (!expectStatus(res.statusCode, expected, res.body)) continue;
            if (expected === 201 && scoped && res.json().company_id !== A.id)
              fail(`stored in company ${String(res.json().company_id)}`);
            if (expected === 400 && res.json().code !== 'validation_failed') fail(res.body);
          } else if (verb === 'update') {
            const id = recordId(ownerOf(side), entity);
            const before = (await ownerRead(side, entity, id)).json() as Body;
            const res = await me.put(`/${entity}/${id}`, { ...before, ...editOf(def, nextN()) });
            const expected = !allowed ? 403 : visible ? 200 : 404;
            if (!expectStatus(res.statusCode, expected, res.body)) continue;
            const after = (await ownerRead(side, entity, id)).json() as Body;
            if (expected === 200 && after.version !== Number(before.version) + 1) fail('not stored');
            if (expected !== 200 && JSON.stringify(after) !== JSON.stringify(before)) fail('changed anyway');
          } else if (verb === 'delete') {
            const id = await fresh(side, def);
            const res = await me.delete(`/${entity}/${id}`);
            const expected = !allowed ? 403 : visible ? 204 : 404;
            if (!expectStatus(res.statusCode, expected, res.body)) continue;
            const read = await ownerRead(side, entity, id);
            const still = read.statusCode;
            // a completed payment is voided, never deleted (issue 25): it stays, with status void
            if (entity === 'payments' && expected === 204) {
              if (still !== 200 || read.json().status !== 'void')
                fail(`afterwards the owner reads ${still} ${String(read.json().status)}`);
            } else if (still !== (expected === 204 ? 404 : 200)) fail(`afterwards the owner reads ${still}`);
          } else {
            const filter = side === 'other' ? `&filter=${filterOf(B.id)}` : '';
            const list = await me.get(`/${entity}?page_size=1${filter}`);
            const res = await me.get(`/${entity}/export?fmt=xlsx${filter}`);
            if (!expectStatus(res.statusCode, allowed ? 200 : 403, res.body) || !allowed) continue;
            const rows = await xlsxRows(res.rawPayload);
            const dataRows = rows.length - 1;
            if (leaks(rows.flat().join('\n'))) fail('the export shows the other company');
            if (dataRows !== Number(list.headers['x-total-count']))
              fail(`${dataRows} rows exported, the list counts ${String(list.headers['x-total-count'])}`);
            if (scoped && side === 'other' && dataRows !== 0)
              fail(`${dataRows} rows with the other company's filter`);
          }
        }
      }
    }
  }
  return { problems, cells };
};
