export * from './lexicons';
export * from './normalise';
export * from './automaton';
export * from './lexical-stage';
export * from './model-stage';
export * from './content-policy';
export * from './policy.environment';
