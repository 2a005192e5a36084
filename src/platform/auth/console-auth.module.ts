import { Global, Module } from '@nestjs/common';
import { AuthCoreModule } from './auth-core.module';
import { ConsoleSessions } from './console-sessions';
import { PresentedCredentials } from './presented-credentials';

/**
 * Console sessions as a credential, beside API keys, for the server's HTTP ways in (not the `keys`
 * CLI, which has no key-value store). Global, as ApiKeyGuard, A2aGate and the task WebSocket all
 * use PresentedCredentials.
 */
@Global()
@Module({
  imports: [AuthCoreModule],
  providers: [ConsoleSessions, PresentedCredentials],
  exports: [ConsoleSessions, PresentedCredentials],
})
export class ConsoleAuthModule {}
