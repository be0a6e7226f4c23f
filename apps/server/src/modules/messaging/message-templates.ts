import {
  defaultTemplate,
  defaultTemplates,
  renderTemplate,
  type TemplateKind,
  type TemplateText,
  type TemplateValues,
} from '@kodi/domain';
import type { Database } from '../../db/client.ts';

/**
 * A company's message templates (issue 17; docs/decisions.md, 'Messages'): each company starts with
 * the built-in ones (`defaultTemplates`), written once when its templates are first needed (its
 * `templates_seeded` flag, set in the same statement that writes them: two servers never write them
 * twice, and templates a company deleted never come back).
 */

export type StoredTemplate = TemplateText & { id: number };

/** Writes the built-in templates of a company that never had them. */
export const ensureTemplates = async (database: Database, companyId: number): Promise<void> => {
  await database.query(
    `WITH first AS (
       UPDATE companies SET templates_seeded = true WHERE id = $1 AND NOT templates_seeded RETURNING id
     )
     INSERT INTO message_templates (company_id, name, channel, kind, subject, body)
     SELECT first.id, d.name, d.channel, d.kind, d.subject, d.body
       FROM first, jsonb_to_recordset($2::jsonb) AS d(name text, channel text, kind text, subject text, body text)`,
    [companyId, JSON.stringify(defaultTemplates)],
  );
};

/** The company's templates (seeded first if they never were), by id. */
export const loadTemplates = async (
  database: Database,
  companyId: number,
): Promise<Map<number, StoredTemplate>> => {
  await ensureTemplates(database, companyId);
  const rows = await database.query<StoredTemplate>(
    `SELECT id, name, channel, kind, subject, body FROM message_templates WHERE company_id = $1 ORDER BY id`,
    [companyId],
  );
  return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id) }]));
};

/**
 * The template a message uses: the one named (a reminder's `template_id`) when it is of that
 * channel, else the company's first template of that kind and channel, else the built-in one.
 */
export const pickTemplate = (
  templates: ReadonlyMap<number, StoredTemplate>,
  kind: TemplateKind,
  channel: 'email' | 'sms',
  named: number | null = null,
): { template: TemplateText; id: number | null } => {
  const chosen = named === null ? undefined : templates.get(named);
  if (chosen && chosen.channel === channel) return { template: chosen, id: chosen.id };
  for (const t of templates.values()) {
    if (t.kind === kind && t.channel === channel) return { template: t, id: t.id };
  }
  return { template: defaultTemplate(kind, channel), id: null };
};

/** A template's subject (e-mail only) and text with the message's values. */
export const renderMessage = (
  template: Pick<TemplateText, 'channel' | 'subject' | 'body'>,
  values: TemplateValues,
): { subject: string | null; body: string } => ({
  subject: template.channel === 'email' && template.subject ? renderTemplate(template.subject, values) : null,
  body: renderTemplate(template.body, values),
});
