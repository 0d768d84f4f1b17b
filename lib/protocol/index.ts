export * from './config';
export * from './events';
export * from './faults';
export * from './messages';
export * from './presets';
export * from './recovery';
export * from './models';
export * from './sweeps';
