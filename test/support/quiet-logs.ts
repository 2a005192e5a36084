import { Logger } from '@nestjs/common';

// Nest's console logger is silent in tests unless TEST_LOG_LEVEL asks for logs; apps booted by
// tests log through pino at LOG_LEVEL (silent by default, see test-app.ts).
if (!process.env.TEST_LOG_LEVEL) Logger.overrideLogger(false);
