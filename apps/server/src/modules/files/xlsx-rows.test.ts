import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '@kodi/domain';
import {
  headerRow,
  repeated,
  workbookParts,
  writeZip,
  type Part,
  type Segment,
} from '../../test/xlsx-files.ts';
import { fileRows, type FileRow } from './file-rows.ts';
import { SPREADSHEET_LIMITS, type SpreadsheetLimits } from './xlsx-rows.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kodi-xlsx-rows-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;

const write = (parts: Part[]) => {
  const file = path.join(dir, `w${++files}.xlsx`);
  writeZip(file, parts);
  return file;
};
const sheet = (xml: string, opts: Parameters<typeof workbookParts>[1] = {}) =>
  write(workbookParts([{ text: xml }], opts));

const rowsOf = async (file: string, limits?: Partial<SpreadsheetLimits>) => {
  const rows: FileRow[] = [];
  for await (const r of fileRows(file, 'xlsx', { ...SPREADSHEET_LIMITS, ...limits })) rows.push(r);
  return rows;
};

/** The error a read ends with: its code and message. */
const refusal = async (file: string, limits?: Partial<SpreadsheetLimits>) => {
  try {
    await rowsOf(file, limits);
  } catch (err) {
    if (err instanceof AppError) return { code: err.code, status: err.status, message: err.message };
    throw err;
  }
  throw new Error('the file was read');
};

/** A part's XML replaced (the workbook's, to declare 1904 dates or more sheets). */
const withPart = (parts: Part[], name: string, text: string): Part[] =>
  parts.map((p) => (p.name === name ? { ...p, segments: [{ text }] } : p));

describe('xlsx rows: what is read', () => {
  it('reads a workbook written by ExcelJS as ExcelJS did: text, numbers, dates, booleans, rich text, formulas, links', async () => {
    const workbook = new ExcelJS.Workbook();
    const ws = workbook.addWorksheet('Data');
    ws.addRow(['Name', 'Amount', 'Date', 'Flag', 'Rich', 'Formula', 'Link']);
    ws.addRow([
      'Jane & <Co>',
      1200.5,
      new Date(Date.UTC(2026, 1, 3)),
      true,
      { richText: [{ text: 'a' }, { text: 'b', font: { bold: true } }] },
      { formula: 'B2*2', result: 2401 },
      { text: 'site', hyperlink: 'http://x.test' },
    ]);
    ws.addRow([]);
    ws.addRow([null, null, 'x']);
    ws.addRow(['  spaced  ', -5, 46000, false, '=not a formula', { formula: 'A1', result: 'Name' }]);
    ws.getColumn(3).numFmt = 'dd/mm/yyyy';
    workbook.addWorksheet('Second').addRow(['not read']);
    const file = path.join(dir, 'exceljs.xlsx');
    await workbook.xlsx.writeFile(file);
    const rows = await rowsOf(file);
    expect(rows.map((r) => r.row)).toEqual([1, 2, 4, 5]);
    expect(rows[0]?.cells).toEqual(['Name', 'Amount', 'Date', 'Flag', 'Rich', 'Formula', 'Link']);
    expect(rows[1]?.cells).toEqual([
      'Jane & <Co>',
      1200.5,
      new Date(Date.UTC(2026, 1, 3)),
      true,
      'ab',
      2401,
      'site',
    ]);
    expect(rows[2]?.cells).toEqual([null, null, 'x']);
    // 46000 in a date column is a date (2025-12-09); '=not a formula' was written as text
    expect(rows[3]?.cells).toEqual([
      '  spaced  ',
      -5,
      new Date(Date.UTC(2025, 11, 9)),
      false,
      '=not a formula',
      'Name',
    ]);
  });

  it('reads shared strings (rich runs joined, phonetic runs left out), cells without a reference, prefixed elements and entities', async () => {
    const file = sheet(
      '<row r="1"><c t="s"><v>0</v></c><c t="s"><v>1</v></c><c r="E1" t="s"><v>2</v></c><c t="s"><v>9</v></c></row>' +
        '<x:row r="3"><x:c r="B3" t="inlineStr"><x:is><x:t>prefixed</x:t></x:is></x:c></x:row>' +
        '<row><c t="str"><f>A1&amp;"!"</f><v>formula &lt;text&gt;</v></c><c t="e"><v>#N/A</v></c>' +
        '<c t="b"><v>0</v></c><c t="d"><v>2026-03-04T00:00:00Z</v></c><c><v>1e3</v></c><c><v>abc</v></c></row>' +
        '<row r="6"><c r="A6" t="inlineStr"><is><t><![CDATA[<cdata> & more]]></t></is></c></row>',
      {
        sharedStrings: [
          {
            text:
              '<si><t>plain</t></si>' +
              '<si><r><t>ri</t></r><r><rPr><b/></rPr><t xml:space="preserve">ch </t></r><rPh sb="0" eb="1"><t>フリ</t></rPh></si>' +
              '<si><t>caf&#233; &amp; 𝕂</t></si>',
          },
        ],
      },
    );
    const rows = await rowsOf(file);
    expect(rows).toEqual([
      // index 9 is not a shared string: an empty cell
      { row: 1, cells: ['plain', 'rich ', null, null, 'café & 𝕂'] },
      { row: 3, cells: [null, 'prefixed'] },
      // a row without its number follows the last one
      {
        row: 4,
        cells: ['formula <text>', null, false, new Date(Date.UTC(2026, 2, 4)), 1000],
      },
      { row: 6, cells: ['<cdata> & more'] },
    ]);
  });

  it("reads dates by the cell's style (built-in and custom formats; the 1904 date system) and the workbook's first sheet", async () => {
    const styles =
      '<numFmts count="2"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/><numFmt numFmtId="165" formatCode="&quot;y&quot;#,##0.00"/></numFmts>' +
      '<cellStyleXfs count="1"><xf numFmtId="14"/></cellStyleXfs>' +
      '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/></cellXfs>';
    const xml =
      '<row r="1"><c><v>46000</v></c><c s="1"><v>46000</v></c><c s="2"><v>46000</v></c><c s="3"><v>46000</v></c></row>';
    const dec9 = new Date(Date.UTC(2025, 11, 9));
    expect(await rowsOf(sheet(xml, { styles }))).toEqual([{ row: 1, cells: [46000, dec9, dec9, 46000] }]);

    // 1904 dates; and two sheets whose zip order is not the workbook's: the workbook's first is read
    const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
    const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
    let parts = workbookParts([{ text: xml }], { styles });
    parts = withPart(
      parts,
      'xl/workbook.xml',
      `<workbook xmlns="${NS}" xmlns:r="${REL}"><workbookPr date1904="1"/><sheets>` +
        `<sheet name="First" sheetId="2" r:id="rId9"/><sheet name="Other" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    );
    parts = withPart(
      parts,
      'xl/_rels/workbook.xml.rels',
      `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
        `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
        `<Relationship Id="rId9" Type="${REL}/worksheet" Target="/xl/worksheets/first.xml"/>` +
        `<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    );
    parts.push({
      name: 'xl/worksheets/first.xml',
      segments: [{ text: `<worksheet xmlns="${NS}"><sheetData>${xml}</sheetData></worksheet>` }],
    });
    const dec10of2029 = new Date(Date.UTC(2029, 11, 10));
    expect(await rowsOf(write(parts))).toEqual([{ row: 1, cells: [46000, dec10of2029, dec10of2029, 46000] }]);
  });
});

describe('xlsx rows: the limits on what a workbook unpacks to', () => {
  const small: Partial<SpreadsheetLimits> = {
    unpackedBytes: 1024 * 1024,
    sharedStrings: 100,
    sharedStringBytes: 1024,
    columns: 10,
    cellChars: 50,
    rowChars: 120,
    rows: 20,
    entries: 12,
  };
  const tooLarge = (message: string) => ({ code: 'file_too_large', status: 413, message });

  it('counts the bytes as they inflate, whatever the zip declares; refuses at once what it declares too large', async () => {
    const bomb = (lie: boolean) =>
      write(workbookParts([repeated('<row><c><v>1</v></c></row>', 3 * 1024 * 1024)], { lie }));
    const lying = bomb(true);
    const honest = bomb(false);
    expect(fs.statSync(lying).size).toBeLessThan(100_000);
    expect(await refusal(lying, { unpackedBytes: 1024 * 1024 })).toEqual(
      tooLarge('The spreadsheet unpacks to more than 1 MB.'),
    );
    expect(await refusal(honest, { unpackedBytes: 1024 * 1024 })).toEqual(
      tooLarge('The spreadsheet unpacks to more than 1 MB.'),
    );
  });

  it('refuses shared strings past their count or their bytes, columns, cells and rows past theirs', async () => {
    const strings = (n: number, text: string) => ({
      sharedStrings: [{ text: `<si><t>${text}</t></si>`, times: n }] as Segment[],
    });
    expect(await refusal(sheet('<row/>', strings(101, 'x')), small)).toEqual(
      tooLarge('The spreadsheet has more than 100 shared strings.'),
    );
    expect(await refusal(sheet('<row/>', strings(30, 'x'.repeat(40))), small)).toEqual(
      tooLarge("The spreadsheet's shared strings hold more than 1 KB of text."),
    );
    expect(await refusal(sheet('<row/>', strings(1, 'x'.repeat(51))), small)).toEqual(
      tooLarge('A cell holds more than 50 characters.'),
    );
    const cells = (n: number) => '<c><v>1</v></c>'.repeat(n);
    expect(await rowsOf(sheet(`<row>${cells(10)}</row>`), small)).toHaveLength(1);
    expect(await refusal(sheet(`<row>${cells(11)}</row>`), small)).toEqual(
      tooLarge('The spreadsheet has more than 10 columns.'),
    );
    expect(await refusal(sheet('<row><c r="K1"><v>1</v></c></row>'), small)).toEqual(
      tooLarge('The spreadsheet has more than 10 columns.'),
    );
    // a reference of many letters is refused as it is read, not computed to a huge number
    expect(await refusal(sheet(`<row><c r="${'Z'.repeat(5000)}1"><v>1</v></c></row>`))).toEqual(
      tooLarge('The spreadsheet has more than 16,384 columns.'),
    );
    const inline = (text: string) => `<c t="inlineStr"><is><t>${text}</t></is></c>`;
    expect(await refusal(sheet(`<row>${inline('y'.repeat(51))}</row>`), small)).toEqual(
      tooLarge('A cell holds more than 50 characters.'),
    );
    expect(await refusal(sheet(`<row><c><v>${'9'.repeat(51)}</v></c></row>`), small)).toEqual(
      tooLarge('A cell holds more than 50 characters.'),
    );
    expect(await refusal(sheet(`<row>${inline('y'.repeat(50)).repeat(3)}</row>`), small)).toEqual(
      tooLarge('A row holds more than 120 characters.'),
    );
    const rowsRefused = {
      code: 'validation_failed',
      status: 400,
      message: 'The file has more than 100,000 rows.',
    };
    expect(await refusal(sheet('<row/>'.repeat(21)), small)).toEqual(rowsRefused);
    expect(await refusal(sheet('<row r="21"/>'), small)).toEqual(rowsRefused);
    const many: Part[] = [
      ...workbookParts([{ text: '<row/>' }]),
      ...Array.from({ length: 10 }, (_, i) => ({ name: `extra/${i}.xml`, segments: [{ text: '<a/>' }] })),
    ];
    expect(await refusal(write(many), small)).toEqual(
      tooLarge("The spreadsheet's zip holds more than 12 files."),
    );
  });

  it('refuses what is not a workbook: not a zip, no workbook or sheet, a DOCTYPE, deep nesting, endless attributes', async () => {
    const unsupported = {
      code: 'unsupported_file',
      status: 400,
      message: 'The file must be a CSV or an Excel workbook (.xlsx).',
    };
    const notZip = path.join(dir, 'not-a-zip.xlsx');
    fs.writeFileSync(notZip, 'PK\u0003\u0004 not really a zip');
    expect(await refusal(notZip)).toEqual(unsupported);
    expect(await refusal(write([{ name: 'hello.txt', segments: [{ text: 'hi' }] }]))).toEqual(unsupported);
    expect(
      await refusal(write(workbookParts([{ text: '<row/>' }]).filter((p) => !p.name.includes('sheet1')))),
    ).toEqual(unsupported);
    const doctype = workbookParts([{ text: '<row/>' }]).map((p) =>
      p.name.endsWith('sheet1.xml')
        ? {
            ...p,
            segments: [
              { text: '<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>' },
              {
                text: '<worksheet><sheetData><row><c t="inlineStr"><is><t>&b;</t></is></c></row></sheetData></worksheet>',
              },
            ],
          }
        : p,
    );
    expect(await refusal(write(doctype))).toEqual(unsupported);
    expect(await refusal(sheet(`<row>${'<a>'.repeat(100)}${'</a>'.repeat(100)}</row>`))).toEqual(unsupported);
    const attributes = Array.from({ length: 300 }, (_, i) => `a${i}="1"`).join(' ');
    expect(await refusal(sheet(`<row ${attributes}/>`))).toEqual(unsupported);
    // a name past sax's buffer (64 KB) is refused (text is handed over in pieces: the cell limit judges it)
    expect(await refusal(sheet(`<row><c r="A1" t="inlineStr" ${'x'.repeat(200_000)}="1"/></row>`))).toEqual(
      unsupported,
    );
  });

  it('holds no more than its limits: a header row of 10 columns, then a shared-strings bomb', async () => {
    const file = write(
      workbookParts([{ text: headerRow(['a', 'b']) }], {
        sharedStrings: [repeated(`<si><t>${'A'.repeat(30_000)}</t></si>`, 600 * 1024 * 1024)],
        lie: true,
      }),
    );
    expect(fs.statSync(file).size).toBeLessThan(2_000_000);
    const before = process.memoryUsage();
    let peak = before.rss;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const t0 = Date.now();
    const answer = await refusal(file);
    clearInterval(timer);
    const grew = (peak - before.rss) / 1024 / 1024;
    console.info(
      `[xlsx] 600 MB of shared strings refused in ${Date.now() - t0} ms, RSS +${grew.toFixed(0)} MB`,
    );
    expect(answer).toEqual(tooLarge("The spreadsheet's shared strings hold more than 50 MB of text."));
    expect(grew).toBeLessThan(200);
  });
});
