import { AppError, MAX_LEASE_DOC_BYTES, occupancy } from '@kodi/domain';
import type { ServerEntity } from '../../crud/server-entity.ts';
import { TENANT_JOIN, TENANT_NAMES } from '../../crud/sql.ts';
import { sniffImage } from '../../platform/image-sniffing.ts';
import { leasePosted } from '../../modules/books/hooks.ts';

/** PDF, PNG or JPEG by content. */
export const sniffDocument = (bytes: Buffer): string | undefined =>
  bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? 'application/pdf' : sniffImage(bytes);

const docError = (message: string) => new AppError('validation_failed', message, { lease_doc: message });

/** The lease document: base64 (or a data URL) of a PDF, PNG or JPEG up to 5 MB; '' or null removes it. */
const prepareLeaseDoc = (values: Record<string, unknown>): Record<string, unknown> => {
  const out = { ...values };
  const doc = out.lease_doc;
  if (doc === undefined) {
    delete out.lease_doc;
    delete out.lease_doc_name;
    return out;
  }
  if (doc === null || doc === '')
    return { ...out, lease_doc: null, lease_doc_name: null, lease_doc_type: null };
  const base64 = String(doc)
    .replace(/^data:[^;,]*;base64,/, '')
    .replace(/\s/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(base64))
    throw docError('The lease document must be a PDF, PNG or JPEG file.');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length > MAX_LEASE_DOC_BYTES) throw docError('The lease document must be at most 5 MB.');
  const type = sniffDocument(bytes);
  if (!type || type === 'image/webp') throw docError('The lease document must be a PDF, PNG or JPEG file.');
  return { ...out, lease_doc: base64, lease_doc_type: type, lease_doc_name: out.lease_doc_name ?? 'lease' };
};

export const occupancyServer: ServerEntity = {
  def: occupancy,
  sql: {
    table: 'occupancy',
    joins: TENANT_JOIN,
    expressions: { ...TENANT_NAMES, has_lease_doc: '(t.lease_doc IS NOT NULL)' },
  },
  bodyLimit: 8 * 1024 * 1024,
  prepare: async ({ values }) => prepareLeaseDoc(values),
  posted: leasePosted,
};
