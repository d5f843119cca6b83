export * from './bus';
export * from './config';
export * from './db/database';
export * from './db/outbox';
export { logger, type Logger } from './logger';
export { Mutex } from './mutex';
export * from './service';
export * from './safety/content-policy';
