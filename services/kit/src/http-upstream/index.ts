export * from './upstream-error';
export * from './upstream-exchange';
export * from './upstream-text';
export * from './upstream-settings';
