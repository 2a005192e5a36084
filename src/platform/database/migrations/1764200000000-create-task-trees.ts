import { MigrationInterface, QueryRunner } from 'typeorm';

/** apflow task trees: tasks, their executions (with leases) and the push-delivery log; a2a_tasks by id. */
export class CreateTaskTrees1764200000000 implements MigrationInterface {
  name = 'CreateTaskTrees1764200000000';

  async up(runner: QueryRunner): Promise<void> {
    // The internal A2A task-record routes look tasks up by id alone.
    await runner.query(`CREATE INDEX idx_a2a_tasks_task ON a2a_tasks (task_id)`);
    await runner.query(`
      CREATE TABLE tasks (
        id            uuid PRIMARY KEY,
        root_id       uuid NOT NULL,
        parent_id     uuid REFERENCES tasks (id),
        user_id       text NOT NULL,
        name          text NOT NULL,
        priority      smallint NOT NULL DEFAULT 2 CHECK (priority BETWEEN 0 AND 3),
        inputs        jsonb NOT NULL DEFAULT '{}',
        params        jsonb NOT NULL DEFAULT '{}',
        schemas       jsonb NOT NULL DEFAULT '{}',
        dependencies  jsonb NOT NULL DEFAULT '[]',
        status        text NOT NULL DEFAULT 'pending'
                      CHECK (status IN ('pending', 'in_progress', 'completed', 'failed', 'cancelled')),
        result        jsonb,
        error         text,
        progress      real NOT NULL DEFAULT 0 CHECK (progress BETWEEN 0 AND 1),
        attempt       integer NOT NULL DEFAULT 0,
        execution_id  uuid,
        version       integer NOT NULL DEFAULT 1,
        created_at    timestamptz NOT NULL,
        updated_at    timestamptz NOT NULL,
        started_at    timestamptz,
        completed_at  timestamptz
      )`);
    await runner.query(`CREATE INDEX idx_tasks_root ON tasks (root_id)`);
    await runner.query(`CREATE INDEX idx_tasks_parent ON tasks (parent_id)`);
    await runner.query(`CREATE INDEX idx_tasks_user_created ON tasks (user_id, created_at DESC, id)`);
    await runner.query(`CREATE INDEX idx_tasks_status_created ON tasks (status, created_at DESC, id)`);
    await runner.query(`CREATE INDEX idx_tasks_roots_created ON tasks (created_at DESC, id) WHERE parent_id IS NULL`);
    await runner.query(`CREATE INDEX idx_tasks_dependencies ON tasks USING gin (dependencies jsonb_path_ops)`);

    await runner.query(`
      CREATE TABLE task_executions (
        id                uuid PRIMARY KEY,
        root_id           uuid NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
        user_id           text NOT NULL,
        status            text NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled')),
        lease_owner       text,
        lease_expires_at  timestamptz,
        push_config       jsonb,
        created_at        timestamptz NOT NULL,
        updated_at        timestamptz NOT NULL,
        finished_at       timestamptz
      )`);
    await runner.query(
      `CREATE UNIQUE INDEX idx_task_executions_one_running ON task_executions (root_id) WHERE status = 'running'`,
    );
    await runner.query(
      `CREATE INDEX idx_task_executions_claimable ON task_executions (lease_expires_at) WHERE status = 'running'`,
    );
    await runner.query(`CREATE INDEX idx_task_executions_root ON task_executions (root_id, created_at DESC)`);

    await runner.query(`
      CREATE TABLE task_push_deliveries (
        id            uuid PRIMARY KEY,
        execution_id  uuid NOT NULL,
        task_id       uuid NOT NULL,
        target        text NOT NULL,
        status        text NOT NULL,
        outcome       text NOT NULL CHECK (outcome IN ('delivered', 'failed')),
        attempts      integer NOT NULL,
        http_status   integer,
        error         text,
        created_at    timestamptz NOT NULL
      )`);
    await runner.query(
      `CREATE INDEX idx_task_push_deliveries_execution ON task_push_deliveries (execution_id, created_at)`,
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query(`DROP TABLE task_push_deliveries`);
    await runner.query(`DROP TABLE task_executions`);
    await runner.query(`DROP TABLE tasks`);
    await runner.query(`DROP INDEX idx_a2a_tasks_task`);
  }
}
