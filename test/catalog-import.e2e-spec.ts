import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCatalog } from '../src/commerce/catalog/catalog-import';
import { provisionBackends, TestBackends } from './support/backends';
import { runCliScript } from './support/server-process';
import { startTestApp } from './support/test-app';

const CSV = [
  'id,name,description,price,currency,category,stock,attributes',
  'prod_lantern,Camping Lantern,"A bright lantern, 300 lumen",24.50,USD,outdoor,12,"{""lumen"": 300}"',
  'prod_bad price,Broken,,12.999,USD,outdoor,1,',
  'prod_tent,Two Person Tent,Light and quick to pitch,199,USD,outdoor,4,',
  'prod_stove,Gas Stove,,abc,USD,outdoor,-2,',
].join('\n');

describe('catalog import: npm run catalog -- import (e2e)', () => {
  let backends: TestBackends;
  let dir: string;

  beforeAll(async () => {
    backends = await provisionBackends();
    dir = mkdtempSync(join(tmpdir(), 'sb-catalog-'));
  });

  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await backends?.cleanup();
  });

  it('checks every row, reports bad ones by line and field, and imports the rest', () => {
    const { products, problems } = parseCatalog('catalog.csv', CSV);
    expect(products.map((p) => [p.id, p.priceMinor, p.stock])).toEqual([
      ['prod_lantern', 2450, 12],
      ['prod_tent', 19900, 4],
    ]);
    expect(products[0].attributes).toEqual({ lumen: 300 });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ line: 3, field: 'id' }),
        expect.objectContaining({ line: 3, field: 'price' }),
        expect.objectContaining({ line: 5, field: 'stock' }),
      ]),
    );
    const json = parseCatalog(
      'c.json',
      JSON.stringify([{ id: 'prod_a', name: 'A', price_minor: 100, currency: 'JPY', stock: 1 }, 'junk']),
    );
    expect(json.products.map((p) => p.priceMinor)).toEqual([100]);
    expect(json.problems[0]).toMatchObject({ line: 2 });
    expect(() => parseCatalog('c.json', '{not json')).toThrow(/not valid JSON/);
  });

  it('imports through the CLI in one transaction, and --strict imports nothing when a row is bad', async () => {
    const file = join(dir, 'catalog.csv');
    writeFileSync(file, CSV);
    const strict = await runCliScript('catalog', ['import', file, '--strict'], backends.env);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toMatch(/Imported 0 product\(s\); rejected 2 row\(s\) \(--strict: nothing imported\)/);
    expect(strict.stderr).toMatch(/line 3: price /);

    const lenient = await runCliScript('catalog', ['import', file], backends.env);
    expect(lenient.code).toBe(1);
    expect(lenient.stdout).toMatch(/Imported 2 product\(s\); rejected 2 row\(s\)/);

    const usage = await runCliScript('catalog', ['export'], backends.env);
    expect(usage.code).toBe(2);

    const t = await startTestApp({}, backends);
    try {
      const res = await t.http().get('/.well-known/agents/api/search').query({ q: 'lantern' }).expect(200);
      expect(res.body.data[0]).toMatchObject({ id: 'prod_lantern', price: 2450, currency: 'USD', stock: 12 });
      // An imported catalog is not replaced by the demo one.
      await t.http().get('/.well-known/agents/api/detail/prod_mug_blue').expect(404);
    } finally {
      await t.close();
    }
  });
});
