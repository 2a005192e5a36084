import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'cart_lines' })
export class CartLineEntity {
  @PrimaryColumn('uuid', { name: 'session_id' })
  sessionId: string;

  @PrimaryColumn('text', { name: 'product_id' })
  productId: string;

  @Column('integer')
  quantity: number;

  @Column('timestamptz', { name: 'added_at' })
  addedAt: Date;
}
