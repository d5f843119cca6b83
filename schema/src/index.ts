export * from './errors';
export * from './bus/contract';
export * from './bus/access-tokens';
export * from './bus/identity';
export * from './bus/chat';
export * from './bus/media';
export * from './bus/moderation';
export * from './bus/permissions';
