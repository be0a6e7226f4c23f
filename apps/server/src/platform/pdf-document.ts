/**
 * Drawing helpers the PDFs share (receipts, tenant statements, exported tables): PDFKit documents of real
 * text on the page's content box, between its left and right margins.
 */

type Doc = PDFKit.PDFDocument;

/** A millimetre in PDF points. */
export const MM = 72 / 25.4;

/** The left edge of the content box and its width. */
export const contentBox = (doc: Doc): { left: number; width: number } => {
  const left = doc.page.margins.left;
  return { left, width: doc.page.width - left - doc.page.margins.right };
};

export type BannerStyle = { height: number; titleSize: number; inset: number };

/**
 * A blue band across the top of the content box: `title` in bold white `titleSize` points, `subtitle` under it,
 * both `inset` from the band's left edge and the title `inset - 2` from its top. Leaves the fill black.
 */
export const drawBanner = (
  doc: Doc,
  {
    title,
    subtitle,
    height,
    titleSize,
    inset,
    logo,
  }: BannerStyle & { title: string; subtitle: string; logo?: { data: Buffer; type: string } | null },
): void => {
  const { left, width } = contentBox(doc);
  const top = doc.y;
  doc.rect(left, top, width, height).fill('#1565c0');
  // the company's logo at the band's right end, on a white tile (PDFKit draws PNG and JPEG, not WebP)
  let logoWidth = 0;
  if (logo && (logo.type === 'image/png' || logo.type === 'image/jpeg')) {
    const box = height - 8;
    try {
      doc.rect(left + width - box - 4, top + 4, box, box).fill('#ffffff');
      doc.image(logo.data, left + width - box - 2, top + 6, {
        fit: [box - 4, box - 4],
        align: 'center',
        valign: 'center',
      });
      logoWidth = box + 8;
    } catch {
      logoWidth = 0; // an image PDFKit cannot read leaves the band as it is
    }
    doc.y = top;
  }
  doc
    .fillColor('#ffffff')
    .font('Helvetica-Bold')
    .fontSize(titleSize)
    .text(title, left + inset, top + inset - 2, { width: width - 2 * inset - logoWidth });
  doc
    .font('Helvetica')
    .fontSize(12)
    .text(subtitle, left + inset, doc.y + 2, { width: width - 2 * inset - logoWidth });
  doc.fillColor('#000000');
};

/**
 * Label and value lines: the label bold and grey in a column `labelWidth` wide, the value 10 points after it,
 * `spacing` lines between them.
 */
export const drawDetails = (
  doc: Doc,
  rows: readonly (readonly [string, string])[],
  { fontSize, labelWidth, spacing }: { fontSize: number; labelWidth: number; spacing: number },
): void => {
  const { left, width } = contentBox(doc);
  const valueX = labelWidth + 10;
  for (const [label, value] of rows) {
    const y = doc.y;
    doc
      .font('Helvetica-Bold')
      .fontSize(fontSize)
      .fillColor('#555555')
      .text(label, left, y, { width: labelWidth });
    doc
      .font('Helvetica')
      .fillColor('#000000')
      .text(value, left + valueX, y, { width: width - valueX });
    doc.moveDown(spacing);
  }
};

/** A bold total: `label` on the left, `value` on the right of the same line. */
export const drawTotal = (doc: Doc, label: string, value: string, fontSize: number): void => {
  const { left, width } = contentBox(doc);
  const y = doc.y;
  doc.font('Helvetica-Bold').fontSize(fontSize).fillColor('#000000').text(label, left, y);
  doc.text(value, left, y, { width, align: 'right' });
};

export type TableStyle = {
  /** the columns' widths, in points, left to right across the content box. */
  widths: readonly number[];
  fontSize: number;
  /** the space around a cell's text. */
  pad: number;
  aligns?: readonly ('left' | 'right' | 'center')[];
};

/**
 * The rows of a table across the content box: each cell's text wrapped in its column, the row as tall as its
 * tallest cell, a hairline under it; the next row starts below.
 */
export const pdfTable = (doc: Doc, { widths, fontSize, pad, aligns = [] }: TableStyle) => {
  const { left, width } = contentBox(doc);
  const xs = widths.map((_, i) => left + widths.slice(0, i).reduce((a, b) => a + b, 0));
  const textWidth = (i: number) => (widths[i] ?? 0) - 2 * pad;
  const rowHeight = (cells: readonly string[], font: string): number => {
    doc.font(font).fontSize(fontSize);
    return Math.max(...cells.map((t, i) => doc.heightOfString(t || ' ', { width: textWidth(i) }))) + 2 * pad;
  };
  const drawRow = (
    cells: readonly string[],
    font: string,
    { fill, color }: { fill?: string; color?: string } = {},
  ) => {
    const h = rowHeight(cells, font);
    const y = doc.y;
    if (fill) doc.rect(left, y, width, h).fill(fill);
    doc
      .fillColor(color ?? '#000000')
      .font(font)
      .fontSize(fontSize);
    cells.forEach((t, i) =>
      doc.text(t, (xs[i] ?? left) + pad, y + pad, { width: textWidth(i), align: aligns[i] ?? 'left' }),
    );
    doc
      .moveTo(left, y + h)
      .lineTo(left + width, y + h)
      .lineWidth(0.3)
      .strokeColor('#cccccc')
      .stroke();
    doc.x = left;
    doc.y = y + h;
  };
  return { rowHeight, drawRow };
};

/**
 * A small grey line right-aligned in the bottom margin, `offset` points below the margin's top edge (page
 * numbers). The margin is lifted while it is written, or PDFKit would start a new page.
 */
export const writeInBottomMargin = (doc: Doc, text: string, offset: number): void => {
  const { left, width } = contentBox(doc);
  const margin = doc.page.margins.bottom;
  doc.page.margins.bottom = 0;
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor('#666666')
    .text(text, left, doc.page.height - margin + offset, { width, align: 'right', lineBreak: false });
  doc.page.margins.bottom = margin;
};

/**
 * A text as the PDF's standard fonts can write it (their WinAnsi encoding): French's narrow no-break
 * space (U+202F: thousands, before '!' and '?') becomes a no-break space.
 */
export const pdfSafe = (text: string): string => text.replaceAll('\u202f', '\u00a0');
