import { Inject, Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { ContactMessageEntity } from './entities/contact-message.entity';

/** Messages agents pass on to the shop, stored for its staff. */
@Injectable()
export class ContactService {
  private readonly messages: Repository<ContactMessageEntity>;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.messages = dataSource.getRepository(ContactMessageEntity);
  }

  async send(message: { name: string; email: string; message: string }, sessionId?: string): Promise<void> {
    await this.messages.insert({ id: randomUUID(), sessionId: sessionId ?? null, ...message, createdAt: new Date() });
  }
}
