import { Column, Entity, PrimaryColumn } from 'typeorm';

export interface OrderLine {
  item_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  line_total: number;
  currency: string;
}

/** What the human confirmed on the checkout page: one per session (confirming twice is one order). */
@Entity({ name: 'orders' })
export class OrderEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'session_id' })
  sessionId: string;

  @Column('jsonb')
  lines: OrderLine[];

  @Column('bigint', { name: 'subtotal_minor', transformer: { to: (v: number) => v, from: (v: string) => Number(v) } })
  subtotalMinor: number;

  @Column('char', { length: 3 })
  currency: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
