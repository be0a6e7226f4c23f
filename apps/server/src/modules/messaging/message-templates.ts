import {
  resolveLanguage,
  type Language,
  defaultTemplate,
  defaultTemplates,
  renderTemplate,
  type TemplateKind,
  type TemplateText,
  type TemplateValues,
  type MessageTemplate,
} from '@kodi/domain';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { recordColumns } from '../../crud/record-columns.ts';
import { auditEntriesFrom } from '../audit/audit.ts';

/**
 * A company's message templates (issue 17; docs/decisions.md, 'Messages'): each company starts with
 * the built-in ones (`defaultTemplates`), written once when its templates are first needed (its
 * `templates_seeded` flag, claimed in the transaction that writes them: two servers never write them
 * twice, and templates a company deleted never come back).
 */

export type StoredTemplate = TemplateText & { id: number };

/** Writes the built-in templates of a company that never had them. */
export const ensureTemplates = async (database: Database, companyId: number): Promise<void> => {
  await database.db.transaction(async (tx) => {
    // the flag claimed first: a second server waits for this transaction, then finds it set
    const [first] = await recordColumns.flag(tx, 'companies', [companyId], 'templates_seeded', {
      onlyUnset: true,
    });
    if (first === undefined) return;
    await tx.execute(
      sql`INSERT INTO message_templates (company_id, name, channel, kind, subject, body, language)
          SELECT ${first}, d.name, d.channel, d.kind, d.subject, d.body, d.language
            FROM jsonb_to_recordset(${JSON.stringify(defaultTemplates)}::jsonb)
                 AS d(name text, channel text, kind text, subject text, body text, language text)`,
    );
  });
};

/** The columns a template is answered with (its times as ISO text), of the row `a.` (a list's `t.`) or unqualified. */
export const templateColumns = (
  a = '',
) => `${a}id, ${a}name, ${a}channel, ${a}kind, ${a}subject, ${a}body, ${a}language, ${a}version,
  to_char(${a}created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS created_at,
  to_char(${a}updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') AS updated_at`;
export const TEMPLATE_COLUMNS = templateColumns();

/** A template as `TEMPLATE_COLUMNS` read it. */
export type TemplateRow = Omit<MessageTemplate, 'warnings'>;

/**
 * What a person writes of a template (the subject null but for an e-mail); its language left out:
 * English for a new one, as it was for a change.
 */
export type TemplateInput = Pick<MessageTemplate, 'name' | 'channel' | 'kind' | 'subject' | 'body'> & {
  language?: Language | undefined;
};

/** A new template of the company and its audit entry (by `userId`), in one statement: the template. */
export const createTemplate = async (
  database: Database,
  companyId: number,
  userId: number,
  t: TemplateInput,
): Promise<TemplateRow | undefined> => {
  const rows = await database.query<TemplateRow>(
    `WITH t AS (
       INSERT INTO message_templates (company_id, name, channel, kind, subject, body, language)
       VALUES ($1, $2, $3, $4, $5, $6, $8) RETURNING *
     ), a AS (
       ${auditEntriesFrom('t', {
         companyId: '$1',
         entity: 'message_templates',
         recordId: 't.id',
         action: 'create',
         userId: '$7',
         before: 'NULL',
         after: 'to_jsonb(t)',
       })}
     )
     SELECT ${TEMPLATE_COLUMNS} FROM t`,
    [companyId, t.name, t.channel, t.kind, t.subject, t.body, userId, t.language ?? 'en'],
  );
  return rows[0];
};

/**
 * A template of the company changed, if it is at `version` still, and its audit entry (the template
 * before and after), in one statement: the template, or undefined (none of that id and version).
 */
export const updateTemplate = async (
  database: Database,
  companyId: number,
  id: number,
  version: number,
  userId: number,
  t: TemplateInput,
): Promise<TemplateRow | undefined> => {
  const rows = await database.query<TemplateRow>(
    `WITH old AS (
       SELECT * FROM message_templates WHERE company_id = $1 AND id = $2 AND version = $8
     ), t AS (
       UPDATE message_templates m SET name = $3, channel = $4, kind = $5, subject = $6, body = $7,
              language = COALESCE($10::text, m.language), version = m.version + 1, updated_at = now()
         FROM old WHERE m.company_id = old.company_id AND m.id = old.id AND m.version = old.version
       RETURNING m.*
     ), a AS (
       ${auditEntriesFrom('old, t', {
         companyId: '$1',
         entity: 'message_templates',
         recordId: 't.id',
         action: 'update',
         userId: '$9',
         before: 'to_jsonb(old)',
         after: 'to_jsonb(t)',
       })}
     )
     SELECT ${TEMPLATE_COLUMNS} FROM t`,
    [companyId, id, t.name, t.channel, t.kind, t.subject, t.body, version, userId, t.language ?? null],
  );
  return rows[0];
};

/** A template of the company deleted, and its audit entry, in one statement: whether there was one. */
export const deleteTemplate = async (
  database: Database,
  companyId: number,
  id: number,
  userId: number,
): Promise<boolean> => {
  const rows = await database.query(
    `WITH t AS (DELETE FROM message_templates WHERE company_id = $1 AND id = $2 RETURNING *),
          a AS (${auditEntriesFrom('t', {
            companyId: '$1',
            entity: 'message_templates',
            recordId: 't.id',
            action: 'delete',
            userId: '$3',
            before: 'to_jsonb(t)',
            after: 'NULL',
          })})
     SELECT id FROM t`,
    [companyId, id, userId],
  );
  return rows.length > 0;
};

/** The company's templates (seeded first if they never were), by id. */
export const loadTemplates = async (
  database: Database,
  companyId: number,
): Promise<Map<number, StoredTemplate>> => {
  await ensureTemplates(database, companyId);
  const rows = await database.query<StoredTemplate>(
    `SELECT id, name, channel, kind, subject, body, language FROM message_templates WHERE company_id = $1 ORDER BY id`,
    [companyId],
  );
  return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id) }]));
};

/** Whom a message goes to, for its language (issue 30): the recipient's own, and the company's default. */
export type Readers = { recipient: Language; company: Language };
const ENGLISH: Readers = { recipient: 'en', company: 'en' };

/**
 * The languages of a company's tenants (issue 30): each tenant's own, else the company's default
 * (`Readers` of a tenant by its id). One read for a run or a batch of messages.
 */
export const tenantReaders = async (
  database: Database,
  companyId: number,
): Promise<(tenantId: number) => Readers> => {
  const rows = await database.query<{ default_language: string; id: number | null; language: string | null }>(
    `SELECT c.default_language, t.id, t.language
       FROM companies c LEFT JOIN tenants t ON t.company_id = c.id AND t.language IS NOT NULL
      WHERE c.id = $1`,
    [companyId],
  );
  const company = resolveLanguage(rows[0]?.default_language);
  const own = new Map(
    rows.filter((r) => r.id !== null).map((r) => [Number(r.id), resolveLanguage(r.language, company)]),
  );
  return (tenantId) => ({ recipient: own.get(Number(tenantId)) ?? company, company });
};

/**
 * The template a message uses (issue 30: in its reader's language): of the recipient's language, else
 * of the company's default language, else English, the one named (a reminder's `template_id`) when it
 * is of that channel and language, else the company's first of that kind, channel and language; else
 * the one named in another language; else the built-in one in the recipient's language.
 */
export const pickTemplate = (
  templates: ReadonlyMap<number, StoredTemplate>,
  kind: TemplateKind,
  channel: 'email' | 'sms',
  named: number | null = null,
  readers: Readers = ENGLISH,
): { template: TemplateText; id: number | null } => {
  const found = named === null ? undefined : templates.get(named);
  const chosen = found && found.channel === channel ? found : undefined;
  for (const language of new Set<Language>([readers.recipient, readers.company, 'en'])) {
    if (chosen && chosen.language === language) return { template: chosen, id: chosen.id };
    for (const t of templates.values()) {
      if (t.kind === kind && t.channel === channel && t.language === language)
        return { template: t, id: t.id };
    }
  }
  if (chosen) return { template: chosen, id: chosen.id };
  return { template: defaultTemplate(kind, channel, readers.recipient), id: null };
};

/** A template's subject (e-mail only) and text with the message's values. */
export const renderMessage = (
  template: Pick<TemplateText, 'channel' | 'subject' | 'body'>,
  values: TemplateValues,
): { subject: string | null; body: string } => ({
  subject: template.channel === 'email' && template.subject ? renderTemplate(template.subject, values) : null,
  body: renderTemplate(template.body, values),
});
