import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import type { TestClient } from '../../test/client.ts';

/** A file to upload: its name and bytes. */
export type Upload = { name: string; content: Buffer | string };

/** A multipart/form-data body of text fields and one file, as a browser sends it. */
export const multipartBody = (fields: Record<string, string>, file?: Upload) => {
  const boundary = `----kodiTest${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields))
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      typeof file.content === 'string' ? Buffer.from(file.content, 'utf8') : file.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
};

/** `POST /imports` with the entity, the file and the other fields given. */
export const upload = (
  client: TestClient,
  entity: string,
  file: Upload | undefined,
  fields: Record<string, string> = {},
): Promise<LightMyRequestResponse> => {
  const { body, contentType } = multipartBody({ entity, ...fields }, file);
  return client.post('/imports', body, { 'content-type': contentType });
};

/** CSV text from rows of cells (quoted when needed), lines ended by CRLF. */
export const csv = (rows: readonly (readonly (string | number)[])[], separator = ','): string =>
  rows
    .map((r) =>
      r
        .map((c) => {
          const s = String(c);
          return /[",;\t\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
        })
        .join(separator),
    )
    .join('\r\n');

/** An xlsx workbook of one sheet with these rows (cells keep their types: numbers, dates, text). */
export const xlsx = async (rows: readonly (readonly unknown[])[], dateColumns: readonly number[] = []) => {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Sheet1');
  for (const r of rows) sheet.addRow([...r]);
  for (const c of dateColumns) sheet.getColumn(c + 1).numFmt = 'dd/mm/yyyy';
  return Buffer.from(await workbook.xlsx.writeBuffer());
};
