import type { ProductEntity } from '../entities/product.entity';

type DemoProduct = Pick<
  ProductEntity,
  'id' | 'name' | 'description' | 'priceMinor' | 'category' | 'stock' | 'attributes'
>;

/** What the embedded quick start sells, so the shop works out of the box. Prices in cents (USD). */
export const DEMO_PRODUCTS: DemoProduct[] = [
  {
    id: 'prod_mug_blue',
    name: 'Blue Ceramic Mug',
    description: 'A 350 ml stoneware mug in deep blue glaze, dishwasher safe.',
    priceMinor: 1299,
    category: 'kitchen',
    stock: 40,
    attributes: { color: 'blue', capacity_ml: 350 },
  },
  {
    id: 'prod_mug_white',
    name: 'White Espresso Cup',
    description: 'A small porcelain cup for espresso, with saucer.',
    priceMinor: 899,
    category: 'kitchen',
    stock: 25,
    attributes: { color: 'white', capacity_ml: 90 },
  },
  {
    id: 'prod_teapot',
    name: 'Cast Iron Teapot',
    description: 'A 1 litre cast iron teapot with a stainless steel infuser.',
    priceMinor: 4999,
    category: 'kitchen',
    stock: 8,
    attributes: { capacity_ml: 1000 },
  },
  {
    id: 'prod_kettle',
    name: 'Electric Kettle',
    description: 'A 1.7 litre kettle with temperature control for tea and coffee.',
    priceMinor: 5999,
    category: 'kitchen',
    stock: 12,
    attributes: { capacity_ml: 1700, watts: 2200 },
  },
  {
    id: 'prod_beans',
    name: 'Single Origin Coffee Beans',
    description: 'Whole beans from Ethiopia, light roast, notes of blueberry.',
    priceMinor: 1599,
    category: 'pantry',
    stock: 60,
    attributes: { weight_g: 250 },
  },
  {
    id: 'prod_tea_green',
    name: 'Green Tea Leaves',
    description: 'Loose sencha green tea from Japan.',
    priceMinor: 1199,
    category: 'pantry',
    stock: 30,
    attributes: { weight_g: 100 },
  },
  {
    id: 'prod_lamp',
    name: 'Smart Desk Lamp',
    description: 'A dimmable LED desk lamp that works with Home Assistant.',
    priceMinor: 3999,
    category: 'home',
    stock: 15,
    attributes: { color: 'black', smart: true },
  },
  {
    id: 'prod_bulb',
    name: 'Smart Light Bulb',
    description: 'A colour LED bulb (E27) with Zigbee, warm to cool white.',
    priceMinor: 1999,
    category: 'home',
    stock: 100,
    attributes: { socket: 'E27', protocol: 'zigbee' },
  },
  {
    id: 'prod_speaker',
    name: 'Bluetooth Speaker',
    description: 'A portable speaker for music, 12 hours of battery.',
    priceMinor: 6999,
    category: 'audio',
    stock: 10,
    attributes: { battery_hours: 12 },
  },
  {
    id: 'prod_headphones',
    name: 'Noise Cancelling Headphones',
    description: 'Over-ear wireless headphones with active noise cancelling.',
    priceMinor: 14999,
    category: 'audio',
    stock: 5,
    attributes: { wireless: true },
  },
  {
    id: 'prod_notebook',
    name: 'Dotted Notebook',
    description: 'An A5 notebook with 160 dotted pages, blue linen cover.',
    priceMinor: 1499,
    category: 'office',
    stock: 50,
    attributes: { color: 'blue', pages: 160 },
  },
  {
    id: 'prod_pen',
    name: 'Fountain Pen',
    description: 'A steel nib fountain pen with a converter and blue ink.',
    priceMinor: 2499,
    category: 'office',
    stock: 20,
    attributes: { color: 'black' },
  },
];

export function demoProducts(now = new Date()): ProductEntity[] {
  return DEMO_PRODUCTS.map((product) => ({ ...product, currency: 'USD', createdAt: now }));
}
