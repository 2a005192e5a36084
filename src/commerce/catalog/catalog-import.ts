import { parse as parseCsv } from 'csv-parse/sync';
import { IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { IsJsonObject } from '../../platform/validation/is-json-object';
import { FieldProblem } from '../../platform/errors/domain-error';
import { validateInput } from '../../platform/validation/validate-input';
import type { ProductEntity } from '../entities/product.entity';

/** One catalog row as a file gives it. `price` is a decimal string ("12.99") or `price_minor` an integer. */
class ProductRowDto {
  @Matches(/^prod_[A-Za-z0-9_-]{1,64}$/, { message: 'id must look like prod_<letters, digits, _ or ->' })
  id!: string;

  @IsString()
  @MinLength(1)
  @MaxLength(300)
  name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(10_000)
  description?: string;

  @Matches(/^[A-Z]{3}$/, { message: 'currency must be an ISO 4217 code such as USD' })
  currency!: string;

  @IsOptional()
  @IsString()
  @MaxLength(200)
  category?: string;

  @IsInt()
  @Min(0)
  @Max(1_000_000_000)
  stock!: number;

  @IsOptional()
  @IsJsonObject()
  attributes?: Record<string, unknown>;
}

export interface RowProblem extends FieldProblem {
  /** 1-based: the line in a CSV file (the header is line 1), the item's position in a JSON array. */
  line: number;
}

export interface ParsedCatalog {
  products: ProductEntity[];
  problems: RowProblem[];
}

const ZERO_DECIMAL = new Set(['JPY', 'KRW', 'CLP', 'ISK', 'VND']);
const THREE_DECIMAL = new Set(['BHD', 'KWD', 'OMR', 'TND', 'JOD']);

/**
 * Reads a catalog file (JSON: an array of products; CSV: a header row with id, name, description,
 * price or price_minor, currency, category, stock, attributes as JSON) and checks every row. Good
 * rows come back as products; each bad one as problems naming its line and field.
 */
export function parseCatalog(fileName: string, content: string): ParsedCatalog {
  const rows = fileName.toLowerCase().endsWith('.csv') ? csvRows(content) : jsonRows(content);
  const products: ProductEntity[] = [];
  const problems: RowProblem[] = [];
  const seen = new Map<string, number>();
  const now = new Date();
  for (const { line, row } of rows) {
    const rowProblems: FieldProblem[] = [];
    let dto: ProductRowDto | undefined;
    try {
      dto = validateInput(ProductRowDto, { ...row, stock: integer(row.stock) });
    } catch (error) {
      const fields = (error as { details?: { fields?: FieldProblem[] } }).details?.fields;
      if (!fields) throw error;
      rowProblems.push(...fields);
    }
    const currency = typeof row.currency === 'string' ? row.currency : '';
    const minor = priceMinor(row, currency, rowProblems);
    if (dto && seen.has(dto.id)) rowProblems.push({ field: 'id', reason: `repeats line ${seen.get(dto.id)}` });
    if (dto && minor !== undefined && rowProblems.length === 0) {
      seen.set(dto.id, line);
      products.push({
        id: dto.id,
        name: dto.name,
        description: dto.description ?? '',
        priceMinor: minor,
        currency: dto.currency,
        category: dto.category ?? '',
        stock: dto.stock,
        attributes: dto.attributes ?? {},
        createdAt: now,
      });
    }
    problems.push(...rowProblems.map((problem) => ({ line, ...problem })));
  }
  return { products, problems };
}

type CsvRecord = { record: Record<string, string>; info: { lines: number } };

function csvRows(content: string): { line: number; row: Record<string, unknown> }[] {
  const records = parseCsv<CsvRecord>(content, {
    columns: true,
    info: true,
    skip_empty_lines: true,
    trim: true,
    bom: true,
  });
  return records.map(({ record, info }) => {
    const row: Record<string, unknown> = Object.fromEntries(Object.entries(record).filter(([, v]) => v !== ''));
    if (typeof row.attributes === 'string') row.attributes = parseAttributes(row.attributes);
    return { line: info.lines, row };
  });
}

function jsonRows(content: string): { line: number; row: Record<string, unknown> }[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(content);
  } catch (error) {
    throw new Error(`The file is not valid JSON: ${(error as Error).message}`);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { products?: unknown })?.products;
  if (!Array.isArray(list)) throw new Error('A JSON catalog is an array of products (or {"products": [...]})');
  return list.map((row, index) => ({
    line: index + 1,
    row:
      typeof row === 'object' && row !== null && !Array.isArray(row) ? (row as Record<string, unknown>) : { id: row },
  }));
}

function parseAttributes(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text; // reported as "attributes must be an object"
  }
}

function integer(value: unknown): unknown {
  return typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
}

/** The price in minor units, from `price_minor` (integer) or `price` (decimal), exactly: no floats. */
function priceMinor(row: Record<string, unknown>, currency: string, problems: FieldProblem[]): number | undefined {
  const decimals = ZERO_DECIMAL.has(currency) ? 0 : THREE_DECIMAL.has(currency) ? 3 : 2;
  if (row.price_minor !== undefined) {
    const value = integer(row.price_minor);
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
    problems.push({ field: 'price_minor', reason: 'must be a non-negative integer (minor units)' });
    return undefined;
  }
  const text = typeof row.price === 'number' ? String(row.price) : row.price;
  const match = typeof text === 'string' ? /^(\d{1,12})(?:\.(\d+))?$/.exec(text.trim()) : null;
  if (!match || (match[2] ?? '').length > decimals) {
    problems.push({
      field: 'price',
      reason: `must be a non-negative amount with at most ${decimals} decimals (or give price_minor)`,
    });
    return undefined;
  }
  return Number(match[1]) * 10 ** decimals + Number((match[2] ?? '').padEnd(decimals, '0') || '0');
}
