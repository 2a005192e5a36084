import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A catalog item. Prices are integer minor units (cents) with an ISO 4217 currency: never floats. */
@Entity({ name: 'products' })
export class ProductEntity {
  /** `prod_…` */
  @PrimaryColumn('text')
  id: string;

  @Column('text')
  name: string;

  @Column('text')
  description: string;

  /** bigint comes back from pg as a string; the transformer makes it a number (prices stay < 2^53). */
  @Column('bigint', { name: 'price_minor', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  priceMinor: number;

  @Column('char', { length: 3 })
  currency: string;

  @Column('text')
  category: string;

  @Column('integer')
  stock: number;

  @Column('jsonb')
  attributes: Record<string, unknown>;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
