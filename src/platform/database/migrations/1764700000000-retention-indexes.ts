import { MigrationInterface, QueryRunner } from 'typeorm';

/** What pruning past retention looks rows up by (see Retention): their age. */
export class RetentionIndexes1764700000000 implements MigrationInterface {
  name = 'RetentionIndexes1764700000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`CREATE INDEX idx_a2a_tasks_updated ON a2a_tasks (updated_at)`);
    await runner.query(`CREATE INDEX idx_a2a_push_deliveries_created ON a2a_push_deliveries (created_at)`);
    await runner.query(`CREATE INDEX idx_task_push_deliveries_created ON task_push_deliveries (created_at)`);
    await runner.query(
      `CREATE INDEX idx_tasks_roots_finished ON tasks (COALESCE(completed_at, updated_at)) WHERE parent_id IS NULL`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP INDEX idx_tasks_roots_finished`);
    await runner.query(`DROP INDEX idx_task_push_deliveries_created`);
    await runner.query(`DROP INDEX idx_a2a_push_deliveries_created`);
    await runner.query(`DROP INDEX idx_a2a_tasks_updated`);
  }
}
