/**
 * xlsx workbooks written part by part from their XML, for the tests of the xlsx reader and the
 * spreadsheet bombs of the hostile-input suite (issue 23): files of a few hundred KB may unpack to
 * gigabytes without the test ever holding what they unpack to. A part is a list of segments, each
 * deflated once on its own (a full flush ends it: no back-reference reaches before it) and its
 * compressed bytes written as many times as the segment repeats: repeated text deflates by hundreds
 * to one, and the concatenation is one valid deflate stream.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';

/** Text written `times` times (once by default). */
export type Segment = { text: string; times?: number };
/** A file of the zip: its segments, and whether the zip tells its real size or a small lie. */
export type Part = { name: string; segments: Segment[]; lie?: boolean };

const MB = 1024 * 1024;

/** `unit` repeated to about 1 MB, and how many of those make `bytes`. */
export const repeated = (unit: string, bytes: number): Segment => {
  const chunk = unit.repeat(Math.max(1, Math.floor(MB / unit.length)));
  return { text: chunk, times: Math.max(1, Math.round(bytes / chunk.length)) };
};

type Deflated = { name: Buffer; crc: number; size: number; declared: number; pieces: [Buffer, number][] };

const deflatePart = (part: Part): Deflated => {
  let crc = 0;
  let size = 0;
  const pieces: [Buffer, number][] = [];
  for (const { text, times = 1 } of part.segments) {
    const raw = Buffer.from(text, 'utf8');
    for (let i = 0; i < times; i++) crc = zlib.crc32(raw, crc);
    size += raw.length * times;
    pieces.push([zlib.deflateRawSync(raw, { level: 9, finishFlush: zlib.constants.Z_FULL_FLUSH }), times]);
  }
  pieces.push([zlib.deflateRawSync(Buffer.alloc(0)), 1]); // the final (empty) block
  const first = Buffer.byteLength(part.segments[0]?.text ?? '', 'utf8');
  return { name: Buffer.from(part.name), crc: crc >>> 0, size, declared: part.lie ? first : size, pieces };
};

/** Writes a zip of these parts (deflated, sizes in the headers: no zip64, so under 4 GB each). */
export const writeZip = (file: string, parts: Part[]) => {
  const fd = fs.openSync(file, 'w');
  try {
    let offset = 0;
    const write = (b: Buffer) => {
      fs.writeSync(fd, b);
      offset += b.length;
    };
    const central: Buffer[] = [];
    for (const part of parts) {
      const d = deflatePart(part);
      if (d.size >= 2 ** 32) throw new Error(`${part.name}: 4 GB or more needs zip64`);
      const compressed = d.pieces.reduce((s, [b, times]) => s + b.length * times, 0);
      const local = Buffer.alloc(30);
      local.writeUInt32LE(0x04034b50, 0);
      local.writeUInt16LE(20, 4);
      local.writeUInt16LE(8, 8); // deflate
      local.writeUInt32LE(d.crc, 14);
      local.writeUInt32LE(compressed, 18);
      local.writeUInt32LE(d.declared, 22);
      local.writeUInt16LE(d.name.length, 26);
      const at = offset;
      write(Buffer.concat([local, d.name]));
      for (const [b, times] of d.pieces) {
        // written in batches of about 1 MB
        const batch = Math.max(1, Math.floor(MB / b.length));
        for (let left = times; left > 0; left -= batch)
          write(Buffer.concat(Array(Math.min(batch, left)).fill(b)));
      }
      const c = Buffer.alloc(46);
      c.writeUInt32LE(0x02014b50, 0);
      c.writeUInt16LE(20, 4);
      c.writeUInt16LE(20, 6);
      c.writeUInt16LE(8, 10);
      c.writeUInt32LE(d.crc, 16);
      c.writeUInt32LE(compressed, 20);
      c.writeUInt32LE(d.declared, 24);
      c.writeUInt16LE(d.name.length, 28);
      c.writeUInt32LE(at, 42);
      central.push(c, d.name);
    }
    const start = offset;
    const dir = Buffer.concat(central);
    write(dir);
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(parts.length, 8);
    end.writeUInt16LE(parts.length, 10);
    end.writeUInt32LE(dir.length, 12);
    end.writeUInt32LE(start, 16);
    write(end);
  } finally {
    fs.closeSync(fd);
  }
};

// ---------------------------------------------------------------- a workbook's parts

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';

export const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A header row of inline strings (row 1, columns A to Z). */
export const headerRow = (headers: readonly string[]) =>
  `<row r="1">${headers
    .map((h, i) => `<c r="${String.fromCharCode(65 + i)}1" t="inlineStr"><is><t>${xmlEscape(h)}</t></is></c>`)
    .join('')}</row>`;

/**
 * A workbook of one sheet whose `<sheetData>` content is `sheet`, with shared strings and styles (the
 * content of `<styleSheet>`) when given; `lie` makes the zip declare the sheet and the shared
 * strings as tiny.
 */
export const workbookParts = (
  sheet: Segment[],
  opts: { sharedStrings?: Segment[]; styles?: string; lie?: boolean } = {},
): Part[] => {
  const shared = opts.sharedStrings !== undefined;
  return [
    {
      name: '[Content_Types].xml',
      segments: [
        {
          text:
            `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
            '<Default Extension="xml" ContentType="application/xml"/>' +
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
            (shared
              ? '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>'
              : '') +
            '</Types>',
        },
      ],
    },
    {
      name: '_rels/.rels',
      segments: [
        {
          text: `${XML}<Relationships xmlns="${PKG}"><Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
        },
      ],
    },
    {
      name: 'xl/workbook.xml',
      segments: [
        {
          text: `${XML}<workbook xmlns="${NS}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`,
        },
      ],
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      segments: [
        {
          text:
            `${XML}<Relationships xmlns="${PKG}">` +
            `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
            (shared
              ? `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`
              : '') +
            (opts.styles !== undefined
              ? `<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/>`
              : '') +
            '</Relationships>',
        },
      ],
    },
    ...(opts.styles !== undefined
      ? [
          {
            name: 'xl/styles.xml',
            segments: [{ text: `${XML}<styleSheet xmlns="${NS}">${opts.styles}</styleSheet>` }],
          },
        ]
      : []),
    ...(opts.sharedStrings
      ? [
          {
            name: 'xl/sharedStrings.xml',
            lie: opts.lie,
            segments: [{ text: `${XML}<sst xmlns="${NS}">` }, ...opts.sharedStrings, { text: '</sst>' }],
          },
        ]
      : []),
    {
      name: 'xl/worksheets/sheet1.xml',
      lie: opts.lie,
      segments: [
        { text: `${XML}<worksheet xmlns="${NS}"><sheetData>` },
        ...sheet,
        { text: '</sheetData></worksheet>' },
      ],
    },
  ];
};
