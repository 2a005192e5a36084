import 'reflect-metadata';
import { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigurationError } from '../platform/config/environment';
import { DataDirInUseError } from '../platform/database/embedded-postgres';
import { DomainError } from '../platform/errors/domain-error';
import { CliModule } from './cli.module';

/** Thrown for bad usage: printed with the usage text, exit code 2. */
export class UsageError extends Error {}

/**
 * Boots the CLI context, runs one command and exits: 0 on success (or the `process.exitCode` the
 * command set), 1 on failure, 2 on bad usage.
 * Messages go to stderr; results to stdout.
 */
export function runCli(
  usage: string,
  command: (app: INestApplicationContext) => Promise<void>,
  options: { runMigrations?: boolean } = {},
): void {
  (async () => {
    const app = await NestFactory.createApplicationContext(CliModule.forRoot(options), {
      logger: ['error', 'warn'],
      abortOnError: false,
    });
    try {
      await command(app);
    } finally {
      await app.close();
    }
  })().then(
    () => process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0),
    (error: unknown) => {
      if (error instanceof UsageError) {
        process.stderr.write(`${error.message}\n\n${usage}\n`);
        process.exit(2);
      }
      const known =
        error instanceof ConfigurationError || error instanceof DomainError || error instanceof DataDirInUseError;
      process.stderr.write(`${known ? (error as Error).message : ((error as Error)?.stack ?? String(error))}\n`);
      process.exit(1);
    },
  );
}
