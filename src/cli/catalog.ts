import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { CatalogRepository } from '../commerce/catalog/catalog.repository';
import { parseCatalog } from '../commerce/catalog/catalog-import';
import { AppConfig } from '../platform/config/app-config';
import { runCli, UsageError } from './run-cli';

const USAGE = `Usage:
  npm run catalog -- import <file.json|file.csv> [--strict]

Every row is checked. Bad rows are listed with their line (CSV; JSON: their position) and field;
the good rows are imported in one transaction (products with an existing id are replaced). With
--strict nothing is imported when any row is bad. Exit code 0: all rows imported; 1: some or all
rows rejected; 2: bad usage.`;

runCli(
  USAGE,
  async (app) => {
    const { positionals, values } = parseArgs({
      allowPositionals: true,
      options: { strict: { type: 'boolean', default: false } },
    });
    const [command, file, ...extra] = positionals;
    if (command !== 'import') throw new UsageError(command ? `Unknown command: ${command}` : 'No command given');
    if (!file || extra.length > 0) throw new UsageError('import needs exactly one file');
    let content: string;
    try {
      content = readFileSync(file, 'utf8');
    } catch (error) {
      throw new UsageError(`Cannot read ${file}: ${(error as Error).message}`);
    }
    const { products, problems } = parseCatalog(file, content);
    for (const problem of problems) process.stderr.write(`line ${problem.line}: ${problem.field} ${problem.reason}\n`);
    const importing = problems.length > 0 && values.strict ? [] : products;
    if (importing.length > 0) await new CatalogRepository(app.get(DataSource), app.get(AppConfig)).upsertAll(importing);
    const rejectedLines = new Set(problems.map((p) => p.line)).size;
    process.stdout.write(
      `Imported ${importing.length} product(s)` +
        (rejectedLines > 0
          ? `; rejected ${rejectedLines} row(s)${values.strict ? ' (--strict: nothing imported)' : ''}`
          : '') +
        '\n',
    );
    if (rejectedLines > 0) process.exitCode = 1;
  },
  { runMigrations: true },
);
