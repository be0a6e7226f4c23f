import QRCode from 'qrcode';

/** A QR code's modules: `dark[row][col]`, `size` modules a side (without the quiet zone). */
export type QrMatrix = { size: number; dark: boolean[][] };

/** The QR code of `text` (error correction M), as the `qrcode` library makes it. */
export const qrMatrix = (text: string): QrMatrix => {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const dark = Array.from({ length: modules.size }, (_, row) =>
    Array.from({ length: modules.size }, (_, col) => modules.get(row, col) === 1),
  );
  return { size: modules.size, dark };
};

/**
 * The dark modules as rectangles, one per horizontal run of a row: [col, row, width] in modules.
 * What the PDF draws and what the SVG path says, fewer shapes than one square per module.
 */
export const qrRuns = (m: QrMatrix): [number, number, number][] => {
  const runs: [number, number, number][] = [];
  m.dark.forEach((cells, row) => {
    let col = 0;
    while (col < m.size) {
      if (!cells[col]) {
        col += 1;
        continue;
      }
      const start = col;
      while (col < m.size && cells[col]) col += 1;
      runs.push([start, row, col - start]);
    }
  });
  return runs;
};

/** An SVG path of the dark modules, one unit per module (draw it in a `0 0 size size` viewBox). */
export const qrSvgPath = (m: QrMatrix): string =>
  qrRuns(m)
    .map(([x, y, w]) => `M${x} ${y}h${w}v1h-${w}z`)
    .join('');

/** The PDF side: a vector QR code, `side` points wide (quiet zone included), its top left at x, y. */
export type QrDrawing = {
  rect: (x: number, y: number, w: number, h: number) => unknown;
  fill: (color: string) => unknown;
  save: () => unknown;
  restore: () => unknown;
};

/**
 * Draws the QR code as filled rectangles (vectors: sharp at any zoom and on any printer), with the
 * four-module quiet zone the standard asks for left white around it.
 */
export const drawQr = (doc: QrDrawing, m: QrMatrix, x: number, y: number, side: number) => {
  const quiet = 4;
  const unit = side / (m.size + 2 * quiet);
  doc.save();
  doc.rect(x, y, side, side);
  doc.fill('#ffffff');
  for (const [col, row, w] of qrRuns(m)) {
    doc.rect(x + (quiet + col) * unit, y + (quiet + row) * unit, w * unit, unit);
  }
  doc.fill('#000000');
  doc.restore();
};
