export * from './deps.ts';
export * from './routes.ts';
export * from './projections/insights.ts';
export * from './projections/insight-lead.ts';
export * from './projections/insight-seats.ts';
export * from './queries/seat-insights.ts';
export { replayInWorker, type WhatIfRequest } from './queries/what-if.ts';
export type { WhatIfStats } from './queries/what-if-worker.ts';
