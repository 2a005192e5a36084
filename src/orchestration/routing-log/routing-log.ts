import { Inject, Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, Repository } from 'typeorm';
import { RoutingDecisionEntity } from './routing-decision.entity';

const MAX_REQUEST_TEXT = 500;

export type RoutingRecord = Omit<RoutingDecisionEntity, 'id' | 'createdAt' | 'requestText'> & { requestText: string };

/**
 * Every routing decision, in Postgres. Writing the log never fails or delays an answer: a write
 * that fails is logged as a warning.
 */
@Injectable()
export class RoutingLog {
  private readonly logger = new Logger('RoutingLog');
  private readonly decisions: Repository<RoutingDecisionEntity>;

  constructor(@Inject(DataSource) dataSource: DataSource) {
    this.decisions = dataSource.getRepository(RoutingDecisionEntity);
  }

  record(decision: RoutingRecord): Promise<void> {
    const row: RoutingDecisionEntity = {
      ...decision,
      id: randomUUID(),
      createdAt: new Date(),
      requestText: truncate(decision.requestText),
      confidence: decision.confidence === null ? null : Math.round(decision.confidence * 1000) / 1000,
    };
    return this.decisions.insert(row).then(
      () => undefined,
      (error: Error) => this.logger.warn(`Could not record a routing decision: ${error.message}`),
    );
  }

  /** Newest first. */
  recent(owner: string, contextId: string, limit = 50): Promise<RoutingDecisionEntity[]> {
    return this.decisions.find({ where: { owner, contextId }, order: { createdAt: 'DESC' }, take: limit });
  }
}

function truncate(text: string): string {
  return text.length <= MAX_REQUEST_TEXT ? text : `${text.slice(0, MAX_REQUEST_TEXT - 1)}…`;
}
