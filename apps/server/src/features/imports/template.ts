import ExcelJS from 'exceljs';
import { importFields, todayIso, type EntityDefinition, type Field } from '@kodi/domain';
import { csvLine } from '../../platform/csv.ts';

/** Example values that read as real ones; other fields get an example of their kind. */
const examples: Record<string, string | number> = {
  name: 'Kololo Heights A1',
  address: 'Plot 5, Kololo Hill Drive, Kampala',
  first_name: 'Grace',
  last_name: 'Namuli',
  phone: '0772 123456',
  email: 'grace.namuli@example.com',
  date_of_birth: '1990-04-12',
  country_code: '+256',
  tenant_id: 'Grace Namuli',
  unit_id: 'Kololo Heights A1',
  vendor_id: 'Kampala Plumbers',
  property_id: 'Kololo Heights',
  emergency_contact_name: 'John Namuli',
  emergency_contact_phone: '0701 234567',
  id_or_passport_number: 'CM90012345ABCD',
  monthly_rate: 1200000,
  weekly_rate: 300000,
  daily_rate: 50000,
  bedrooms: 2,
  bathrooms: 1,
  size_sqft: 850,
  notice_period_days: 30,
  reference_number: 'MM-7781234',
  invoice_id: 'INV-0042',
  external_ref: 'REF-0001',
};

const exampleOf = (f: Field): string | number => {
  const known = examples[f.name];
  if (known !== undefined) return known;
  switch (f.kind) {
    case 'money':
      return 1200000;
    case 'number':
    case 'integer':
    case 'percent':
      return 1;
    case 'date':
      return todayIso();
    case 'boolean':
      return f.defaultValue === true ? 'yes' : 'no';
    case 'enum': {
      const value = typeof f.defaultValue === 'string' ? f.defaultValue : f.options?.values[0];
      return value ? (f.options?.labels[value] ?? value) : '';
    }
    default:
      return '';
  }
};

/** The template of an entity's import: its columns' headers (the fields' labels) and one example row. */
export const templateRows = (def: EntityDefinition): { headers: string[]; example: (string | number)[] } => {
  const fields = importFields(def);
  return { headers: fields.map((f) => f.label), example: fields.map(exampleOf) };
};

/** UTF-8 with a BOM, so that Excel reads its accents right. */
export const templateCsv = (def: EntityDefinition): string => {
  const { headers, example } = templateRows(def);
  return `\uFEFF${csvLine(headers)}${csvLine(example)}`;
};

export const templateXlsx = async (def: EntityDefinition): Promise<Buffer> => {
  const { headers, example } = templateRows(def);
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(def.name);
  sheet.addRow(headers).font = { bold: true };
  sheet.addRow(example);
  sheet.columns.forEach((c, i) => {
    c.width = Math.max(12, (headers[i] ?? '').length + 4);
  });
  sheet.views = [{ state: 'frozen', ySplit: 1 }];
  return Buffer.from(await workbook.xlsx.writeBuffer());
};
