export * from './bus';
export { InProcessBus } from './in-process-bus';
export { NatsBus } from './nats-bus';
