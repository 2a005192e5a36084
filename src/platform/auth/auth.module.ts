import { Inject, Module, OnApplicationBootstrap } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AppConfig } from '../config/app-config';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeyService } from './api-key.service';
import { ApiKeysController } from './api-keys.controller';
import { AuthCoreModule } from './auth-core.module';
import { ConsoleAuthModule } from './console-auth.module';

/**
 * API-key authentication for the server: the global guard, the admin REST endpoints and the
 * first-start admin key. The rate-limit guard is registered after this one (see AppModule).
 */
@Module({
  imports: [AuthCoreModule, ConsoleAuthModule],
  controllers: [ApiKeysController],
  providers: [{ provide: APP_GUARD, useClass: ApiKeyGuard }],
  exports: [AuthCoreModule],
})
export class AuthModule implements OnApplicationBootstrap {
  constructor(
    @Inject(ApiKeyService) private readonly keys: ApiKeyService,
    @Inject(AppConfig) private readonly config: AppConfig,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const created = await this.keys.ensureAdminKey(this.config.auth.adminApiKey);
    if (created) printOnce(created);
  }
}

/** Straight to stdout, outside the JSON logs: the one time this key is ever shown. */
function printOnce(key: string): void {
  process.stdout.write(
    [
      '',
      '==================================================================================',
      ' No admin API key existed, so Switchboard created one. It is shown only this once:',
      '',
      `   ${key}`,
      '',
      ' Send it as "X-Api-Key: <key>" (or "Authorization: Bearer <key>"). Create narrower',
      ' keys with it: POST /api/keys, or `npm run keys -- create --name <n> --scopes <s>`.',
      '==================================================================================',
      '',
      '',
    ].join('\n'),
  );
}
