import { Global, Module } from '@nestjs/common';
import { ConfigModule as NestConfigModule } from '@nestjs/config';
import { AppConfig } from './app-config';
import { validateEnvironment } from './environment';

/**
 * Loads `.env` (if present; the real environment wins), validates every variable once at boot -
 * a bad variable stops the process with its name, never its value - and provides AppConfig.
 */
@Global()
@Module({
  imports: [NestConfigModule.forRoot({ cache: true, ignoreEnvFile: process.env.NODE_ENV === 'test' })],
  providers: [{ provide: AppConfig, useFactory: () => new AppConfig(validateEnvironment(process.env)) }],
  exports: [AppConfig],
})
export class ConfigModule {}
