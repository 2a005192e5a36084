import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity({ name: 'contact_messages' })
export class ContactMessageEntity {
  @PrimaryColumn('uuid')
  id: string;

  @Column('uuid', { name: 'session_id', nullable: true })
  sessionId: string | null;

  @Column('text')
  name: string;

  @Column('text')
  email: string;

  @Column('text')
  message: string;

  @Column('timestamptz', { name: 'created_at' })
  createdAt: Date;
}
