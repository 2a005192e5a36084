import { startTracing } from './tracing';

// Imported first by main.ts: instrumentation must patch http, undici, pg and grpc before they load.
startTracing();
