export * from './environment';
export * from './kit.environment';
export * from './configuration-table';
