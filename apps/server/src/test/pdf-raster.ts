import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** A page as grey pixels, one byte each (0 black, 255 white), row by row. */
export type GreyPage = { width: number; height: number; data: Uint8Array };

/** Page `page` of a PDF rasterised by poppler's pdftoppm at `dpi` (a binary PGM read back). */
export const pdfPageGrey = (buf: Buffer, dpi = 200, page = 1): GreyPage => {
  const file = path.join(os.tmpdir(), `kodi-raster-${process.pid}-${randomUUID()}.pdf`);
  fs.writeFileSync(file, buf);
  try {
    const pgm = execFileSync(
      'pdftoppm',
      ['-gray', '-r', String(dpi), '-f', String(page), '-l', String(page), file],
      { maxBuffer: 256 * 1024 * 1024 },
    );
    // "P5\n<width> <height>\n<max>\n" then the bytes
    let at = 0;
    const fields: string[] = [];
    while (fields.length < 4) {
      while (/\s/.test(String.fromCharCode(pgm[at] ?? 32))) at += 1;
      let token = '';
      while (at < pgm.length && !/\s/.test(String.fromCharCode(pgm[at] ?? 32)))
        token += String.fromCharCode(pgm[at++] ?? 32);
      fields.push(token);
    }
    at += 1;
    const [magic, w, h] = fields;
    if (magic !== 'P5') throw new Error(`pdftoppm answered ${magic}, not a PGM`);
    const width = Number(w);
    const height = Number(h);
    return { width, height, data: new Uint8Array(pgm.subarray(at, at + width * height)) };
  } finally {
    fs.rmSync(file, { force: true });
  }
};

/** The same page as RGBA (what image decoders such as jsQR take). */
export const greyToRgba = (page: GreyPage): Uint8ClampedArray => {
  const out = new Uint8ClampedArray(page.width * page.height * 4);
  page.data.forEach((v, i) => {
    out[i * 4] = v;
    out[i * 4 + 1] = v;
    out[i * 4 + 2] = v;
    out[i * 4 + 3] = 255;
  });
  return out;
};
