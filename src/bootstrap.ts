import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { VERSION } from './paths';
import { AppConfig } from './platform/config/app-config';
import { GrpcRuntime } from './platform/grpc/grpc-runtime';

/**
 * Builds the hybrid HTTP + gRPC application exactly as the server runs it; tests use it too.
 * Nest's body parser is off: JsonBodyMiddleware parses JSON (and later the A2A SDK its own
 * routes), so malformed bodies get our error shapes.
 */
export async function createApp(): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bodyParser: false,
    bufferLogs: true,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.disable('x-powered-by');
  app.connectMicroservice(app.get(GrpcRuntime).options(), { inheritAppConfig: true });
  setUpOpenApi(app);
  return app;
}

/** HTTP first, then gRPC: `listen()` before `startAllMicroservices()`. */
export async function startApp(app: NestExpressApplication): Promise<void> {
  const config = app.get(AppConfig);
  await app.listen(config.http.port, config.http.host);
  await app.startAllMicroservices();
}

function setUpOpenApi(app: NestExpressApplication): void {
  const document = new DocumentBuilder()
    .setTitle('Switchboard')
    .setDescription('A2A agent hub. Authenticate with `X-Api-Key: <key>` or `Authorization: Bearer <key>`.')
    .setVersion(VERSION)
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Api-Key' }, 'api-key')
    .addBearerAuth()
    .build();
  SwaggerModule.setup('docs', app, () => SwaggerModule.createDocument(app, document), {
    jsonDocumentUrl: 'docs-json',
  });
}
