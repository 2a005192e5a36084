import { Module } from '@nestjs/common';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeyService } from './api-key.service';

/** Key storage and verification, shared by the server and the `keys` CLI. */
@Module({
  providers: [ApiKeyRepository, ApiKeyService],
  exports: [ApiKeyService],
})
export class AuthCoreModule {}
