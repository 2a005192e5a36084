import type { ProductEntity } from '../entities/product.entity';

/** Minor units per major unit for the currencies that are not cents-based (ISO 4217 exponent). */
const EXPONENTS: Record<string, number> = {
  JPY: 0,
  KRW: 0,
  CLP: 0,
  ISK: 0,
  VND: 0,
  BHD: 3,
  KWD: 3,
  OMR: 3,
  TND: 3,
  JOD: 3,
};

/** "12.99" for 1299 USD, "1299" for 1299 JPY: a display string, never used for arithmetic. */
export function formatMinor(minor: number, currency: string): string {
  const exponent = EXPONENTS[currency] ?? 2;
  if (exponent === 0) return String(minor);
  const sign = minor < 0 ? '-' : '';
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  return `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** A catalog item as the agents.json API shows it. `price` is in minor units (cents). */
export function toItem(product: ProductEntity) {
  return {
    id: product.id,
    name: product.name,
    description: product.description,
    price: product.priceMinor,
    currency: product.currency,
    price_display: `${formatMinor(product.priceMinor, product.currency)} ${product.currency}`,
    category: product.category,
    in_stock: product.stock > 0,
    stock: product.stock,
    attributes: product.attributes,
  };
}
