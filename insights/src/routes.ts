import type { RouteDef } from '@rr/platform';
import type { InsightsDeps } from './deps.ts';
import { insightsQueryRoutes } from './queries/insights.ts';
import { seatInsightsRoutes } from './queries/seat-insights.ts';
import { whatIfRoutes } from './queries/what-if.ts';

/** The insights' routes (docs/product.md#insights): the figures, their CSVs and the what-if replay. */
export function insightsRoutes(deps: InsightsDeps): RouteDef[] {
  return [...insightsQueryRoutes(deps), ...seatInsightsRoutes(deps), ...whatIfRoutes(deps)];
}
