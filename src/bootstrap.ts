import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { A2aHttpLane } from './a2a/http/a2a-http-lane';
import { a2aOpenApiPaths } from './a2a/http/a2a-openapi';
import { AppModule } from './app.module';
import { VERSION } from './paths';
import { AppConfig } from './platform/config/app-config';
import { GrpcRuntime } from './platform/grpc/grpc-runtime';
import { HttpEdge } from './platform/http/http-edge';
import { PinoNestLogger } from './platform/logging/pino-nest-logger';

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
  app.useLogger(app.get(PinoNestLogger));
  app.disable('x-powered-by');
  mountBeforeRoutes(app);
  app.connectMicroservice(app.get(GrpcRuntime).options(), { inheritAppConfig: true });
  setUpOpenApi(app);
  return app;
}

/**
 * What every HTTP request meets before Nest's router, in this order: HttpEdge (its id, and its
 * metrics and log line when it ends), then the A2A lane, which answers the agents' JSON-RPC and
 * HTTP+JSON endpoints itself (with the same auth, rate limit and error shapes as Nest's guards
 * and filter) and hands every other request on. Mounted before Nest registers its middleware and
 * routes, so it runs first.
 */
function mountBeforeRoutes(app: NestExpressApplication): void {
  app.use(app.get(HttpEdge).middleware, app.get(A2aHttpLane).middleware);
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
  const build = () => {
    const generated = SwaggerModule.createDocument(app, document);
    return { ...generated, paths: { ...generated.paths, ...a2aOpenApiPaths() } };
  };
  SwaggerModule.setup('docs', app, build, {
    jsonDocumentUrl: 'docs-json',
  });
}
