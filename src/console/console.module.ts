import { Module } from '@nestjs/common';
import { ConsoleSessionController } from './console-session.controller';
import { ConsoleStaticController } from './console-static.controller';

/**
 * The operator console's server side: sign-in sessions (their checks are the auth layer's,
 * ConsoleAuthModule) and the built app's static files at /console.
 */
@Module({
  controllers: [ConsoleSessionController, ConsoleStaticController],
})
export class ConsoleModule {}
