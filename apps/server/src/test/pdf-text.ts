import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The text of a PDF, laid out as on the page (poppler's pdftotext). */
export const pdfText = (buf: Buffer): string => {
  const file = path.join(os.tmpdir(), `kodi-pdf-${process.pid}-${randomUUID()}.pdf`);
  fs.writeFileSync(file, buf);
  try {
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(file, { force: true });
  }
};
